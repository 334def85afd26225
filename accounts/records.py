"""A player's match record shown on the profile page: matches played and won, recent matches.

Kept apart so the games app's tables feed it without the account views knowing them.
Played = finished matches where the user had a seat; won = the user's team won (§0: team =
seat number mod 2).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, TypedDict

from django.db.models import Q

from accounts.models import User

if TYPE_CHECKING:
    from django.contrib.sessions.backends.base import SessionBase

    from games.access import Viewer
    from games.models import Table

RECENT_LENGTH = 10


class RecentMatch(TypedDict):
    """One of a profile's latest matches, as the viewer may see it (``match_record``)."""

    table: Table
    match_id: int
    started_at: datetime | None
    team: int
    over: bool
    won: bool
    round_no: int


@dataclass(frozen=True)
class MatchRecord:
    played: int = 0
    won: int = 0
    recent: list[RecentMatch] = field(default_factory=list)


def seen_finished_q(
    viewer: Viewer = None, session: SessionBase | None = None, prefix: str = "table__"
) -> Q:
    """The ``Q`` of the finished matches ``viewer`` (with ``session``'s invites) may count, on
    the table reached by ``prefix`` (``"table__"`` from a seat, ``"match__table__"`` from a
    ``games.models.PlayerMatch``): a table they may watch (``games.access``) whose match they
    know to be over — at a delayed table without their seat, once the spectators' view
    reached its end (``games.live.visibility``). ``viewer`` None: public tables only."""
    from games.access import watchable_q
    from games.models import Seat

    seated = Seat.objects.none().values("table_id")
    if viewer is not None and viewer.is_authenticated:
        seated = Seat.objects.filter(user=viewer).values("table_id")
    known = (
        Q(**{f"{prefix}spectator_delay": 0})
        | Q(**{f"{prefix}match__delayed__isnull": True})
        | Q(**{f"{prefix}match__delayed__winner_team__isnull": False})
        | Q(**{f"{prefix}pk__in": seated})
    )
    return (
        watchable_q(viewer, session, prefix=prefix)
        & known
        & Q(**{f"{prefix}match__winner_team__isnull": False})
    )


def match_record(
    user: User, viewer: Viewer = None, session: SessionBase | None = None
) -> MatchRecord:
    """Matches ``user`` played (finished, with a seat) and won, and their latest matches, as
    ``viewer`` (with ``session``'s invites) may see them: a table the viewer may not watch
    (``games.access``) is neither listed nor counted, and a delayed table the viewer has no
    seat at shows its round and result as its spectators see them (``games.live.visibility``: a
    match counts as played once their view reached its end). ``viewer`` None: public tables only."""
    from games.access import watchable_q
    from games.live import visibility
    from games.models import Seat

    seats = Seat.objects.filter(user=user).filter(watchable_q(viewer, session, prefix="table__"))
    seated = Seat.objects.none().values("table_id")
    if viewer is not None and viewer.is_authenticated:
        seated = Seat.objects.filter(user=viewer).values("table_id")
    finished = Seat.objects.filter(user=user).filter(seen_finished_q(viewer, session))
    played = finished.count()
    won = sum(
        1
        for number, winner in finished.values_list("number", "table__match__winner_team")
        if number % 2 == winner
    )
    recent: list[RecentMatch] = []
    rows = list(
        seats.filter(table__match__isnull=False)
        .select_related("table", "table__host", "table__match", "table__match__delayed")
        .order_by("-table__match__started_at")[:RECENT_LENGTH]
    )
    mine = (
        set(
            seated.filter(table_id__in=[s.table_id for s in rows]).values_list(
                "table_id", flat=True
            )
        )
        if rows
        else set()
    )
    for seat in rows:
        match = seat.table.match
        seen = visibility.seen_by(seat.table, match, seated=seat.table_id in mine)
        recent.append(
            {
                "table": seat.table,
                "match_id": match.pk,
                "started_at": match.started_at,
                "team": seat.team,
                "over": seen.over,
                "won": seen.over and seen.winner_team == seat.team,
                "round_no": seen.round_no,
            }
        )
    return MatchRecord(played=played, won=won, recent=recent)
