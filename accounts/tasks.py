"""Celery tasks of the accounts app: the "your turn" notice for a player away from the table."""

from __future__ import annotations

from celery import shared_task

from accounts import notices
from games.live import audiences
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
    if row is None:
        return False
    return notices.your_turn(match.table, row.user) is not None
