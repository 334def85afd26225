"""Driving AI seats in-process, for tests that play a match without a worker."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from django.utils import timezone

from games.engine.rules import seats_to_act
from games.models import Match
from games.play import deadlines, services


def act_now(match_id: int, seat: int, token: int) -> bool:
    """AI seat ``seat`` decides and acts at once, at the moment ``token``: the worker's path
    (``deadlines.ai_decide`` then ``deadlines.ai_apply``) without the window answer's pause.
    Returns whether it acted."""
    decided = deadlines.ai_decide(match_id, seat, token)
    return decided is not None and deadlines.ai_apply(match_id, seat, token, decided[0])


def finished(match: Match) -> bool:
    """Whether ``match`` has its winner (``drive``'s default end)."""
    return match.winner_team is not None


def drive(
    match_id: int, max_steps: int = 20000, until: Callable[[Match], bool] = finished
) -> tuple[Match, int]:
    """Play a match whose seats are all AI (or stood in for) with the writer until ``until``
    holds for it (default: it is finished): each step lets the first seat due act, or, when
    nobody is due (or nobody moved), rings the current deadline as its timer would (a timeout
    is an action, RULES.md §10). A person's seat is played by its timeouts. Returns the match
    as it then is and the steps taken."""
    for step in range(max_steps):
        match = Match.objects.get(pk=match_id)
        if until(match):
            return match, step
        due = seats_to_act(services.load_state(match))[:1]
        if any(act_now(match_id, seat, match.deadline_token) for seat in due):
            continue
        if Match.objects.get(pk=match_id).version != match.version:
            # The decision came after the deadline (on a busy box, or while another match was
            # driven): the writer made the deadline's own transition instead.
            continue
        Match.objects.filter(pk=match_id).update(deadline=timezone.now() - timedelta(seconds=1))
        assert deadlines.expire(match_id, match.deadline_token), match.phase
    raise AssertionError(f"match {match_id} did not get there in {max_steps} steps")
