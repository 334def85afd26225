"""Standings from results: pure functions, no database (tested in tests/leagues/test_standings).

An *entrant* is whatever a table ranks: a player (league seasons, where teams change from match
to match) or a fixed tournament team. A ``Result`` names the entrants on each side of one match.

Scoring
- A played match: each entrant of the winning side gets a win, the others a loss. Each side's
  *levels gained* is its final level minus 2 (§8: both teams start at 2 and never move down),
  and *players caught* is the number of opponents it caught over the rounds it won (§7).
- A bye counts as played and won, with no levels and nobody caught (``kind="bye"``).
- A forfeit counts as played: won by the side that did not forfeit, with no levels and nobody
  caught (``kind="forfeit"``).

Tie-breaks, in order (``rank``):
1. more wins;
2. more levels gained;
3. more players caught;
4. head-to-head: among the entrants still tied, more wins in the matches between them
   (a mini-table of the tied group, computed once, not re-applied to smaller groups);
5. name (alphabetical, case-insensitive), then the entrant key, so the order is total.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from itertools import groupby

PLAYED, BYE, FORFEIT = "played", "bye", "forfeit"


@dataclass(frozen=True)
class Result[E: Hashable]:
    """One match between side 0 and side 1 (side 1 is empty for a bye).

    ``E`` is the entrant's type (a user or team pk). ``levels`` and ``caught`` are per side;
    ``winner`` is 0 or 1.
    """

    sides: tuple[tuple[E, ...], tuple[E, ...]]
    winner: int
    levels: tuple[int, int] = (0, 0)
    caught: tuple[int, int] = (0, 0)
    kind: str = PLAYED

    def __post_init__(self) -> None:
        if self.winner not in (0, 1):
            raise ValueError("winner must be side 0 or 1")
        if self.kind not in (PLAYED, BYE, FORFEIT):
            raise ValueError(f"unknown result kind {self.kind!r}")


@dataclass
class Row[E: Hashable]:
    """One entrant's line in a table. ``position`` is 1-based after ``rank``."""

    entrant: E
    name: str = ""
    played: int = 0
    won: int = 0
    lost: int = 0
    levels: int = 0
    caught: int = 0
    byes: int = 0
    position: int = 0
    # wins over each other entrant (the head-to-head tie-break)
    beat: dict[E, int] = field(default_factory=lambda: defaultdict(int), repr=False)
    # a bot account (the bot API), marked in the table: set by leagues.results.season_standings
    bot: bool = field(default=False, compare=False)

    @property
    def points(self) -> int:
        """A win is one point (a bye and a forfeit win included)."""
        return self.won


def tally[E: Hashable](
    results: Iterable[Result[E]],
    entrants: Iterable[E] = (),
    names: Mapping[E, str] | None = None,
) -> dict[E, Row[E]]:
    """Add up ``results`` per entrant; ``entrants`` get a row even with nothing played."""
    names = names or {}
    rows: dict[E, Row[E]] = {}

    def row(entrant: E) -> Row[E]:
        if entrant not in rows:
            rows[entrant] = Row(entrant, names.get(entrant, str(entrant)))
        return rows[entrant]

    for entrant in entrants:
        row(entrant)
    for result in results:
        for side, members in enumerate(result.sides):
            won = side == result.winner
            for entrant in members:
                r = row(entrant)
                r.played += 1
                r.won += won
                r.lost += not won
                r.levels += result.levels[side]
                r.caught += result.caught[side]
                r.byes += result.kind == BYE
                if won:
                    for loser in result.sides[1 - side]:
                        r.beat[loser] += 1
    return rows


def rank[E: Hashable](rows: Iterable[Row[E]]) -> list[Row[E]]:
    """Order rows by the documented tie-breaks and number their positions."""

    def main_key(r: Row[E]) -> tuple[int, int, int]:
        return (-r.won, -r.levels, -r.caught)

    ordered: list[Row[E]] = []
    for _, group in groupby(sorted(rows, key=main_key), key=main_key):
        tied = list(group)
        keys = {r.entrant for r in tied}
        tied.sort(
            key=lambda r: (
                -sum(n for e, n in r.beat.items() if e in keys),
                r.name.casefold(),
                str(r.entrant),
            )
        )
        ordered.extend(tied)
    for position, r in enumerate(ordered, start=1):
        r.position = position
    return ordered


def standings[E: Hashable](
    results: Iterable[Result[E]],
    entrants: Iterable[E] = (),
    names: Mapping[E, str] | None = None,
) -> list[Row[E]]:
    """The ranked table for ``results`` (see the module docstring for scoring and tie-breaks)."""
    return rank(tally(results, entrants, names).values())


@dataclass
class Partnership[E: Hashable]:
    """How a player did beside one partner: matches played together and won together."""

    partner: E
    played: int = 0
    won: int = 0

    @property
    def win_rate(self) -> float:
        return self.won / self.played if self.played else 0.0


def partner_stats[E: Hashable](results: Iterable[Result[E]]) -> dict[E, list[Partnership[E]]]:
    """Per player, per partner (a teammate on the same side): matches and wins together.

    Only played matches count (byes and forfeits are not played beside anyone). Each player's
    list is ordered by matches together, then wins, then the partner key.
    """
    table: dict[E, dict[E, Partnership[E]]] = defaultdict(dict)
    for result in results:
        if result.kind != PLAYED:
            continue
        for side, members in enumerate(result.sides):
            for player in members:
                for partner in members:
                    if partner == player:
                        continue
                    p = table[player].setdefault(partner, Partnership(partner))
                    p.played += 1
                    p.won += side == result.winner
    return {
        player: sorted(partners.values(), key=lambda p: (-p.played, -p.won, str(p.partner)))
        for player, partners in table.items()
    }
