"""A player's match record shown on the profile page: matches played and won, recent matches.

Kept apart so the games app's tables feed it without the account views knowing them.
Played = finished matches where the user had a seat; won = the user's team won (§0: team =
seat number mod 2).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from accounts.models import User

RECENT_LENGTH = 10


@dataclass(frozen=True)
class MatchRecord:
    played: int = 0
    won: int = 0
    recent: list[dict] = field(default_factory=list)


def match_record(user: User) -> MatchRecord:
    """Matches ``user`` played (finished, with a seat) and won, and their latest matches."""
    from games.models import Match, Seat

    seats = Seat.objects.filter(user=user)
    finished = Match.objects.filter(winner_team__isnull=False, table__seats__user=user)
    played = finished.count()
    won = sum(1 for number, winner in seats.filter(table__match__winner_team__isnull=False)
              .values_list("number", "table__match__winner_team") if number % 2 == winner)
    recent = []
    for seat in (seats.filter(table__match__isnull=False)
                 .select_related("table", "table__match")
                 .order_by("-table__match__started_at")[:RECENT_LENGTH]):
        match = seat.table.match
        recent.append({
            "table": seat.table,
            "match_id": match.pk,
            "started_at": match.started_at,
            "team": seat.team,
            "over": match.is_over,
            "won": match.is_over and match.winner_team == seat.team,
            "round_no": match.round_no,
        })
    return MatchRecord(played=played, won=won, recent=recent)
