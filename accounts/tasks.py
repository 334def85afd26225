"""Celery tasks of the accounts app: the "your turn" notice for a player away from the table, and
its removal once it is no longer true."""

from __future__ import annotations

from celery import shared_task

from accounts import notices
from games.engine.state import PLAY
from games.live import audiences
from games.live.replay import load_state
from games.models import Match, Seat


@shared_task(ignore_result=True)
def turn_notice(match_id: int, seat: int, version: int) -> bool:
    """The turn reached ``seat`` at ``version`` while no page of it was open: leave its person
    a notice (and an email, if they allow it) if the match is still there and no page of the
    seat opened since. Returns whether a notice was made."""
    match = Match.objects.select_related("table").filter(pk=match_id).first()
    if match is None or match.version != version:
        return False
    if any(a.seat == seat for a in audiences.live(match.table_id)):
        return False
    row = (
        Seat.objects.select_related("user")
        .filter(table_id=match.table_id, number=seat, user__isnull=False, ai_policy="")
        .first()
    )
    if row is None or row.user is None:  # (the filter asked for a user)
        return False
    return notices.your_turn(match.table, row.user) is not None


@shared_task(ignore_result=True)
def turn_notices_gone(match_id: int, user_id: int | None) -> int:
    """The turn left ``user_id``'s seat at the match's table, or (``user_id`` None) the match
    ended: remove the "your turn" notices that say otherwise. A notice made for a turn that came
    back to that seat since is kept. Returns how many were removed."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        return 0
    if user_id is not None:
        # The task runs after the move that queued it: the turn may be theirs again.
        state = load_state(match)
        turn = state.turn if state.phase == PLAY else None
        if (
            turn is not None
            and Seat.objects.filter(table_id=match.table_id, number=turn, user_id=user_id).exists()
        ):
            return 0
    return notices.turns_gone(match.table_id, user_id)
