"""Normal play: lead, follow, pass, and the turn timer (RULES.md §5, §10 ``turn_seconds``).

The leader plays any combination; each active seat clockwise then passes or beats the top play.
A seat that passed may play again later in the trick. When every other active seat has passed
since the top play, its seat wins the trick (``tricks``). After a single, a claim window opens
before the next turn (``claims``). A seat that plays its last card finishes; when its whole team
has finished the round ends at once (``scoring``).
"""

from __future__ import annotations

from typing import Any

from .cards import FACE
from .claims import open_window, opens_window
from .combos import SINGLE, Combo
from .events import Bombed, Event, Finished, Passed, Played, TimedOut
from .power import lowest_card, table_for
from .scoring import end_round, round_ends
from .state import HOOK, PLAY, State, Top, TrickEntry, next_active
from .tricks import end_trick


def do_play(
    state: State,
    seat: int,
    cards: tuple[str, ...],
    combo: Combo,
    hand_after: tuple[str, ...],
    events: list[Event],
    kind: str = "play",
) -> State:
    """Put ``cards`` on the trick as the new top play (validated by the caller); ``kind``
    ``play``, or ``bomb`` for a bomb into a window (the trick entry's kind too)."""
    hands = state.hands[:seat] + (hand_after,) + state.hands[seat + 1 :]
    event = Bombed if kind == "bomb" else Played
    events.append(event(seat, cards, combo.category))
    finished = state.finished
    if not hand_after:
        finished += (seat,)
        events.append(Finished(seat, len(finished)))
    # One copy of the state per play (_replace copies every field): the changes ride along.
    changes: dict[str, Any] = dict(
        hands=hands,
        finished=finished,
        top=Top(seat, cards, combo),
        passed=frozenset(),
        trick=state.trick + (TrickEntry(seat, kind, cards),),
    )
    if round_ends(hands, seat):
        return end_round(state._replace(**changes), hands, finished, seat, events)
    if combo.category == SINGLE and opens_window(state, FACE[cards[0]]):
        return open_window(state, seat, FACE[cards[0]], HOOK, False, events, **changes)
    return state._replace(phase=PLAY, window=None, turn=next_active(hands, seat), **changes)


def do_pass(state: State, seat: int, events: list[Event], timeout: bool = False) -> State:
    """``seat`` declines to beat the top play; the trick ends once every other active seat has."""
    events.append(Passed(seat, timeout))
    passed = state.passed | {seat}
    assert state.top is not None  # only a follower passes
    active = sum(1 for h in state.hands if h)
    needed = active - 1 if state.hands[state.top.seat] else active
    if len(passed) >= needed:
        return end_trick(state, events)  # a new trick: no passes, no entries to record
    return state._replace(
        passed=passed,
        trick=state.trick + (TrickEntry(seat, "pass", ()),),
        turn=next_active(state.hands, seat),
    )


def do_turn_timeout(state: State, events: list[Event]) -> State:
    """The seat to act ran out of time: a follower passes; a leader plays its lowest-power card
    as a single, first in suit order S, H, D, C (§10 ``turn_seconds``)."""
    seat = state.turn
    assert seat is not None  # phase play
    if state.top is not None:
        return do_pass(state, seat, events, timeout=True)
    hand = state.hands[seat]
    card = lowest_card(hand, state.level, state.options)
    rest = list(hand)
    rest.remove(card)
    combo = Combo(SINGLE, 1, table_for(state.level, state.options)[FACE[card]])
    events.append(TimedOut(seat))
    return do_play(state, seat, (card,), combo, tuple(rest), events)
