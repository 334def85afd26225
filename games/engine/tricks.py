"""Who leads when a trick ends (RULES.md §5, §6.6).

The trick's winner is the seat of the top play (after a claim chain, the last claimant). If it has
finished, its next active teammate clockwise leads (``lead_after_out=teammate``) or the next active
seat clockwise (``next_player``).
"""

from __future__ import annotations

from .events import Event, TrickWon
from .state import PLAY, State, next_active, next_active_teammate


def trick_leader(state: State, winner: int) -> int:
    """The seat that leads after ``winner`` won the trick (§5)."""
    if state.hands[winner]:
        return winner
    if state.options.lead_after_out == "teammate":
        mate = next_active_teammate(state.hands, winner)
        if mate is not None:
            return mate
    return next_active(state.hands, winner)


def end_trick(state: State, events: list[Event]) -> State:
    """Close the trick won by the top play's seat and hand the lead on (§5)."""
    assert state.top is not None  # a trick ends on its top play
    winner = state.top.seat
    leader = trick_leader(state, winner)
    events.append(TrickWon(winner, leader))
    return state._replace(
        phase=PLAY, turn=leader, top=None, passed=frozenset(), trick=(), window=None
    )
