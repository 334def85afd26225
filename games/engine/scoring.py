"""Round end, levels and the match (RULES.md §7, §8).

The round ends the moment every seat of one team T has finished, even mid-trick or mid-window.
Opponents still holding cards are caught; their number c moves T up c levels (capped at the
target level, A unless a quick match), or wins the match when T started the round at the target
and caught the whole opposing team.
"""

from __future__ import annotations

from collections.abc import Sequence

from .events import Event, MatchOver, RoundOver
from .state import MATCH_OVER, ROUND_OVER, RoundResult, State, team_out


def round_ends(hands: Sequence[Sequence[str]], seat: int) -> bool:
    """Whether ``seat``'s team has now all finished (§7); call after ``seat`` finished."""
    return not hands[seat] and team_out(hands, seat % 2)


def score_round(
    levels: tuple[int, int], team: int, caught: tuple[int, ...], players: int, target: int
) -> RoundResult:
    """§8: the round's result for finishing team ``team`` with ``caught`` seats.

    ``levels`` are both teams' levels at the start of the round (ranks, 14 = A).
    """
    c = len(caught)
    if levels[team] == target and c == players // 2:
        return RoundResult(team, caught, levels, None, team)
    new = list(levels)
    new[team] = min(target, levels[team] + c)
    return RoundResult(team, caught, (new[0], new[1]), new[team], None)


def end_round(
    state: State,
    hands: tuple[tuple[str, ...], ...],
    finished: tuple[int, ...],
    seat: int,
    events: list[Event],
) -> State:
    """Close the round that ``seat``'s last card ended: no top play, no window (§7)."""
    team = seat % 2
    caught = tuple(s for s in range(team ^ 1, len(hands), 2) if hands[s])
    result = score_round(state.levels, team, caught, state.players, state.options.target_level)
    events.append(RoundOver(team, caught, result.levels, result.next_level, result.match_winner))
    over = result.match_winner is not None
    if over:
        assert result.match_winner is not None
        events.append(MatchOver(result.match_winner))
    return state._replace(
        phase=MATCH_OVER if over else ROUND_OVER,
        hands=hands,
        finished=finished,
        turn=None,
        top=None,
        passed=frozenset(),
        window=None,
        result=result,
    )
