"""Hook and unhook claim windows (RULES.md §6).

After a non-joker single (any single under ``joker_hook``) a window opens owned by its player.
Every other active seat answers once: claim or pass. A hook is two cards of the window's face, an
unhook one. Priority goes by seat, never by arrival: the claimant nearest clockwise from the owner
wins, and a claim is decisive only once every nearer seat has passed. On timeout the seats that
have not answered pass. A won claim becomes the top play and opens the next window with the mode
flipped (a chain); a window that closes unclaimed either resumes normal play (no chain) or ends
the trick, the last claimant leading (chain).
"""

from __future__ import annotations

from typing import Any

from .cards import BLACK_JOKER, FACE, remove_cards, take_cards
from .combos import PAIR, SINGLE, Combo
from .events import (
    Answered,
    Event,
    Finished,
    Hooked,
    Outranked,
    Unhooked,
    WindowClosed,
    WindowOpened,
)
from .power import table_for
from .scoring import end_round, round_ends
from .state import HOOK, PLAY, UNHOOK, WINDOW, State, Top, TrickEntry, Window, next_active
from .tricks import end_trick


def opens_window(state: State, face: int) -> bool:
    """Whether a single of ``face`` opens a hook window (§5, §6.7, §10)."""
    if not state.options.hooking:
        return False
    return face < BLACK_JOKER or state.options.joker_hook


def open_window(
    state: State,
    owner: int,
    face: int,
    mode: str,
    chain: bool,
    events: list[Event],
    **changes: Any,
) -> State:
    """Open a window owned by ``owner``: normal play stops until it resolves (§6.1, §6.5).

    ``changes`` are other fields of the new state, set in the same copy."""
    window = Window(owner, face, mode, chain, (None,) * state.players)
    events.append(WindowOpened(owner, face, mode, chain))
    return state._replace(phase=WINDOW, turn=None, window=window, **changes)


def claim_size(mode: str) -> int:
    """Cards in a claim: a hook is a pair, an unhook a single (§6.2)."""
    return 2 if mode == HOOK else 1


def answerers(state: State) -> list[int]:
    """Seats that answer the open window, nearest clockwise from the owner first (§6.2, §6.3)."""
    n = state.players
    assert state.window is not None
    owner = state.window.owner
    return [s for s in ((owner + k) % n for k in range(1, n)) if state.hands[s]]


def record_answer(state: State, seat: int, claim: tuple[str, ...], events: list[Event]) -> State:
    """Record ``seat``'s answer (``PASSED`` or the claim's cards), then resolve if settled.

    Precondition: the answer was validated (window open, seat may answer, cards held).
    """
    window = state.window
    assert window is not None
    answers = list(window.answers)
    answers[seat] = claim
    events.append(Answered(seat, claim or None))
    state = state._replace(window=window._replace(answers=tuple(answers)))
    return resolve(state, events, expired=False)


def resolve(state: State, events: list[Event], expired: bool) -> State:
    """Settle the window if the answers given decide it (§6.3); ``expired``: silence is a pass."""
    window = state.window
    assert window is not None
    for seat in answerers(state):
        answer = window.answers[seat]
        if answer is None and not expired:
            return state
        if answer:
            return _claim_wins(state, seat, answer, events)
    return _close_unclaimed(state, events)


def _claim_wins(state: State, seat: int, cards: tuple[str, ...], events: list[Event]) -> State:
    window = state.window
    assert window is not None
    for other, answer in enumerate(window.answers):
        if answer and other != seat:
            events.append(Outranked(other, seat))
    held = list(state.hands)
    held[seat] = take_cards(held[seat], cards)
    hands = tuple(held)
    power = table_for(state.level, state.options)[window.face]
    combo = Combo(PAIR, 2, power) if window.mode == HOOK else Combo(SINGLE, 1, power)
    events.append((Hooked if window.mode == HOOK else Unhooked)(seat, cards, window.owner))
    finished = state.finished
    if not hands[seat]:
        finished += (seat,)
        events.append(Finished(seat, len(finished)))
    state = state._replace(
        hands=hands,
        finished=finished,
        top=Top(seat, cards, combo),
        trick=state.trick + (TrickEntry(seat, window.mode, cards),),
        passed=frozenset(),
        window=None,
    )
    if round_ends(hands, seat):
        return end_round(state, hands, finished, seat, events)
    mode = UNHOOK if window.mode == HOOK else HOOK
    return open_window(state, seat, window.face, mode, True, events)


def _close_unclaimed(state: State, events: list[Event]) -> State:
    window = state.window
    assert window is not None
    events.append(WindowClosed(window.owner))
    if window.chain:
        return end_trick(state, events)  # which sets phase play and clears the window too
    return state._replace(phase=PLAY, window=None, turn=next_active(state.hands, window.owner))


def check_claim(state: State, seat: int, mode: str, cards: tuple[str, ...]) -> str | None:
    """Why ``seat`` may not claim ``cards`` in ``mode`` now (a rejection code), or None."""
    window = state.window
    code = check_can_answer(state, seat)
    if code:
        return code
    assert window is not None  # check_can_answer checked the phase
    if mode != window.mode or len(cards) != claim_size(mode):
        return "invalid_claim"
    if any(FACE[c] != window.face for c in cards):
        return "invalid_claim"
    if remove_cards(state.hands[seat], cards) is None:
        return "not_in_hand"
    return None


def check_can_answer(state: State, seat: int) -> str | None:
    """Why ``seat`` may not answer the open window (a rejection code), or None (§6.2, §6.3)."""
    if state.phase != WINDOW:
        return "no_window"
    if not state.hands[seat]:
        return "finished"
    window = state.window
    assert window is not None
    if seat == window.owner:
        return "owner_cannot_claim"
    if window.answers[seat] is not None:
        return "already_answered"
    return None
