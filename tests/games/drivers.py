"""Driving AI seats in-process, for tests that play a match without a worker."""

from __future__ import annotations

from games.play import deadlines


def act_now(match_id: int, seat: int, token: int) -> bool:
    """AI seat ``seat`` decides and acts at once, at the moment ``token``: the worker's path
    (``deadlines.ai_decide`` then ``deadlines.ai_apply``) without the window answer's pause.
    Returns whether it acted."""
    decided = deadlines.ai_decide(match_id, seat, token)
    return decided is not None and deadlines.ai_apply(match_id, seat, token, decided[0])
