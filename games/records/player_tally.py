"""What one finished match says about each seat, counted from its round summaries and its move
log's engine events: rounds won (§7: the team whose seats all went out first takes the round),
rounds a seat went out first, levels gained (§8: the team's final level − 2; nobody moves
down), hooks and unhooks (§6: a claim that won its window) and bombs (§4: a play whose
combination is a bomb, or a bomb into a claim window) made from the seat.

Pure: no database. ``games.records.player_stats`` feeds it one match's rows and stores the result.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from games.engine.combos import BOMBS
from games.engine.events import Bombed, Event, Hooked, Played, Resigned, Unhooked

#: Every team starts at level 2 (§1).
START_LEVEL = 2


@dataclass
class SeatTally:
    """One seat's counts over a match."""

    seat: int
    team: int
    won: bool
    rounds_played: int = 0
    rounds_won: int = 0
    first_out: int = 0
    levels_gained: int = 0
    hooks: int = 0
    unhooks: int = 0
    bombs: int = 0
    resigned: bool = False


def tally(
    players: int,
    winner: int,
    final_levels: Sequence[int],
    rounds: Iterable[tuple[int | None, Sequence[int]]],
    events: Iterable[Event],
) -> list[SeatTally]:
    """Each seat's ``SeatTally``, by seat number.

    ``winner``: the match's winning team (0 or 1); ``final_levels``: both teams' levels at the
    end, as ranks (2..14); ``rounds``: each round's ``(winning team or None, finish order)``;
    ``events``: the engine events of every move, in order (``games.models.Move.events``,
    decoded: ``games.engine.codec.events_from_json``).
    """
    seats = [
        SeatTally(
            seat=n,
            team=n % 2,
            won=n % 2 == winner,
            levels_gained=max(0, final_levels[n % 2] - START_LEVEL),
        )
        for n in range(players)
    ]
    for round_winner, finish_order in rounds:
        for seat in seats:
            seat.rounds_played += 1
            if round_winner is not None and seat.team == round_winner:
                seat.rounds_won += 1
        if finish_order:
            seats[finish_order[0]].first_out += 1
    for event in events:
        if not isinstance(event, (Hooked, Unhooked, Played, Bombed, Resigned)):
            continue
        if not 0 <= event.seat < players:
            continue
        if isinstance(event, Hooked):
            seats[event.seat].hooks += 1
        elif isinstance(event, Unhooked):
            seats[event.seat].unhooks += 1
        elif isinstance(event, Bombed) or (
            isinstance(event, Played) and event.combination in BOMBS
        ):
            seats[event.seat].bombs += 1
        elif isinstance(event, Resigned):
            seats[event.seat].resigned = True
    return seats
