"""A player's statistics on their profile, added up from ``PlayerMatch`` rows
(``games.records.player_stats`` counted them when each match ended): three statements, whatever the
number of matches.

Only matches the viewer may count are added up (``accounts.records.seen_finished_q``: a table
they may watch, whose end they may know), as the profile's played and won counts do.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from django.db.models import Count, Exists, OuterRef, Q, Sum

from accounts.records import seen_finished_q
from games.models import PlayerMatch
from leagues.models import SiteRating

if TYPE_CHECKING:
    from django.contrib.sessions.backends.base import SessionBase

    from accounts.models import User
    from games.access import Viewer

#: How many partners the profile names.
PARTNERS_SHOWN = 3


@dataclass(frozen=True)
class Partner:
    """A person ``user`` played beside (same team, §0): matches together and won together."""

    username: str
    matches: int
    won: int


@dataclass(frozen=True)
class PlayerStatistics:
    """Totals over the finished matches counted for a player; ``rating`` is their site rating
    (None before their first rated match)."""

    matches: int = 0
    won: int = 0
    rounds_played: int = 0
    rounds_won: int = 0
    first_out: int = 0
    levels_gained: int = 0
    hooks: int = 0
    unhooks: int = 0
    bombs: int = 0
    rating: SiteRating | None = None
    partners: list[Partner] = field(default_factory=list)


def player_statistics(
    user: User, viewer: Viewer = None, session: SessionBase | None = None
) -> PlayerStatistics:
    """``user``'s statistics as ``viewer`` (with ``session``'s invites) may see them."""
    seen = seen_finished_q(viewer, session, prefix="match__table__")
    rows = PlayerMatch.objects.filter(user=user).filter(seen)
    totals = rows.aggregate(
        matches=Count("pk"),
        won=Count("pk", filter=Q(won=True)),
        rounds_played=Sum("rounds_played", default=0),
        rounds_won=Sum("rounds_won", default=0),
        first_out=Sum("first_out", default=0),
        levels_gained=Sum("levels_gained", default=0),
        hooks=Sum("hooks", default=0),
        unhooks=Sum("unhooks", default=0),
        bombs=Sum("bombs", default=0),
    )
    beside = PlayerMatch.objects.filter(match=OuterRef("match"), team=OuterRef("team"), user=user)
    partners = (
        PlayerMatch.objects.filter(Exists(beside))
        .exclude(user=user)
        .filter(seen)
        .values("user__username")
        .annotate(matches=Count("pk"), won=Count("pk", filter=Q(won=True)))
        .order_by("-matches", "-won", "user__username")[:PARTNERS_SHOWN]
    )
    return PlayerStatistics(
        **totals,
        rating=SiteRating.objects.filter(user=user, matches__gt=0).first(),
        partners=[Partner(p["user__username"], p["matches"], p["won"]) for p in partners],
    )
