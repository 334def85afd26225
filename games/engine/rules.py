"""The one transition of a match, and the list of what a seat may do.

``apply(state, action) -> Outcome | Rejection`` validates an action against the frozen state and,
if it is legal, returns the new state (version + 1) and the events it caused. A rejected action
changes nothing and carries a code from ``actions.CODES``; malformed input is a rejection too,
never an exception. ``legal_actions(state, seat)`` lists every legal play, pass, claim and return.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .actions import (
    CODES,
    Action,
    Hook,
    NextRound,
    Outcome,
    Pass,
    Play,
    Rejection,
    Resign,
    Return,
    Timeout,
    Unhook,
)
from .cards import FACE, CardError, parse_card, remove_cards
from .claims import (
    answerers,
    check_can_answer,
    check_claim,
    claim_size,
    record_answer,
    resolve,
)
from .combos import beats, classify
from .deal import deal_next_round
from .events import Event, Led, MatchOver, Resigned, Returned, WindowClosed, WindowExpired
from .moves import follows, leads
from .state import (
    HOOK,
    MATCH_OVER,
    PASSED,
    PLAY,
    ROUND_OVER,
    TRIBUTE,
    UNHOOK,
    WINDOW,
    RoundResult,
    State,
)
from .tribute import give_return, legal_returns, timeout_return
from .turns import do_pass, do_play, do_turn_timeout

#: Applies one kind of action (dispatched by its type): the new state, or why not.
Handler = Callable[[State, Any, list[Event]], State | Rejection]


def apply(state: State, action: object) -> Outcome | Rejection:
    """Apply one action (``actions``) to ``state``.

    Returns ``Outcome(new_state, events)`` with ``new_state.version == state.version + 1``, or a
    ``Rejection(code, message)``; ``state`` itself is never modified.
    """
    handler = _HANDLERS.get(type(action))
    if handler is None:
        return Rejection("malformed", f"unknown action {action!r}")
    if state.phase == MATCH_OVER:
        return Rejection("match_over", "the match is over")
    events: list[Event] = []
    result = handler(state, action, events)
    if isinstance(result, Rejection):
        return result
    return Outcome(result._replace(version=state.version + 1), tuple(events))


def legal_actions(state: State, seat: int) -> list[Action]:
    """Every legal action for ``seat`` now: plays (one per distinct combination of ranks, with
    canonical cards), pass, hook/unhook, or tribute returns. Empty when the seat may not act."""
    phase = state.phase
    hand = state.hands[seat]
    if phase == PLAY:
        if seat != state.turn:
            return []
        if state.top is None:
            return [Play(seat, cards) for cards, _ in leads(hand, state.level, state.options)]
        options = follows(hand, state.top.combo, state.level, state.options)
        found: list[Action] = [Pass(seat)]
        return found + [Play(seat, cards) for cards, _ in options]
    if phase == WINDOW:
        return _window_actions(state, seat, hand)
    if phase == TRIBUTE:
        if not any(t.receiver == seat and t.returned is None for t in state.tributes):
            return []
        distinct = dict.fromkeys(legal_returns(hand, state.level, state.options))
        return [Return(seat, card) for card in distinct]
    return []


def _window_actions(state: State, seat: int, hand: tuple[str, ...]) -> list[Action]:
    found: list[Action] = []
    error = check_can_answer(state, seat)
    if not error:
        window = state.window
        assert window is not None
        found.append(Pass(seat))
        size = claim_size(window.mode)
        same = [c for c in hand if FACE[c] == window.face]
        if len(same) >= size:
            claim = tuple(same[:size])
            found.append(Hook(seat, claim) if window.mode == HOOK else Unhook(seat, claim))
    if state.options.bomb_in_window and error in (None, "already_answered"):
        assert state.top is not None  # a window follows a play
        top = state.top.combo
        found += [
            Play(seat, cards)
            for cards, combo in follows(hand, top, state.level, state.options)
            if combo.is_bomb
        ]
    return found


# --- validation -------------------------------------------------------------------------------


def _seat_error(state: State, seat: object) -> Rejection | None:
    if type(seat) is not int or not 0 <= seat < state.players:
        return _no_seat(state, seat)
    if state.phase == ROUND_OVER:
        return Rejection("round_over", "the round is over")
    return None


def _no_seat(state: State, seat: object) -> Rejection:
    return Rejection(
        "bad_seat",
        f"no seat {seat!r} at this table (seats count from 0: 0 to {state.players - 1})",
    )


#: What a refused claim-window answer says (``claims.check_claim``, ``check_can_answer`` give
#: the code only): every rejection carries a message for people, the bot API's included.
_ANSWER_MESSAGES = {
    "no_window": "no claim window is open: hook, unhook and window passes wait for one",
    "finished": "you have no cards left",
    "owner_cannot_claim": "the owner of the window cannot answer it",
    "already_answered": "you already answered this claim window",
    "invalid_claim": "a hook is two cards, an unhook one card, of the window's face",
    "not_in_hand": "you do not hold those cards",
    "window_open": "a claim window is open: only a claim, a pass or a bomb now",
}


def _answer_refusal(code: str) -> Rejection:
    """A refused answer to a claim window (or a bomb into one): ``code`` with its message."""
    return Rejection(code, _ANSWER_MESSAGES.get(code) or CODES[code])


def _parse(cards: object) -> tuple[str, ...] | Rejection:
    if not isinstance(cards, (tuple, list)):
        return Rejection("malformed", "cards must be a list of card strings")
    if not cards:
        return Rejection("empty_play", "choose at least one card")
    if all(type(c) is str and c in FACE for c in cards):
        return tuple(cards)
    try:
        return tuple(parse_card(c) for c in cards)
    except CardError as e:
        return Rejection("unknown_card", str(e))


def _turn_error(state: State, seat: int) -> Rejection | None:
    if state.phase == TRIBUTE:
        return Rejection("tribute_pending", "tribute returns are awaited")
    if not state.hands[seat]:
        return Rejection("finished", "you have no cards left")
    if state.phase == WINDOW:
        return Rejection("window_open", "a claim window is open")
    if seat != state.turn:
        turn = state.turn
        assert turn is not None  # in play a seat is always to act
        return Rejection(
            "not_your_turn",
            f"seat {turn} is to act (seats count from 0: the table page's Seat {turn + 1})",
        )
    return None


# --- handlers -----------------------------------------------------------------------------------


def _cards_of(state: State, action: Play | Hook | Unhook) -> tuple[str, ...] | Rejection:
    """The action's cards, parsed, once its seat is known to be able to act at all."""
    cards = _parse(action.cards)
    if isinstance(cards, Rejection):
        return cards
    return _seat_error(state, action.seat) or cards


def _play(state: State, action: Play, events: list[Event]) -> State | Rejection:
    cards = _cards_of(state, action)
    if isinstance(cards, Rejection):
        return cards
    seat = action.seat
    if state.phase == WINDOW and state.options.bomb_in_window:
        return _bomb_into_window(state, seat, cards, events)
    error = _turn_error(state, seat)
    if error:
        return error
    hand_after = remove_cards(state.hands[seat], cards)
    if hand_after is None:
        return Rejection("not_in_hand", "you do not hold those cards")
    combo = classify(cards, state.level, state.options)
    if combo is None:
        return Rejection("invalid_combination", "those cards are no combination")
    if state.top is not None and not beats(combo, state.top.combo):
        return Rejection("does_not_beat", "that does not beat the top play")
    return do_play(state, seat, cards, combo, hand_after, events)


def _bomb_into_window(
    state: State, seat: int, cards: tuple[str, ...], events: list[Event]
) -> State | Rejection:
    """§6.4 ``bomb_in_window``: any active non-owner seat bombs while the window is open, even
    one that has already answered it (passed or claimed); pending claims are dropped (their
    cards were never taken), the bomb becomes the top play."""
    error = check_can_answer(state, seat)
    if error and error != "already_answered":
        return _answer_refusal(error if error != "no_window" else "window_open")
    hand_after = remove_cards(state.hands[seat], cards)
    if hand_after is None:
        return Rejection("not_in_hand", "you do not hold those cards")
    combo = classify(cards, state.level, state.options)
    if combo is None or not combo.is_bomb:
        return Rejection("window_open", "only a claim, a pass or a bomb now")
    assert state.window is not None  # check_can_answer checked the phase
    events.append(WindowClosed(state.window.owner, bombed=True))
    return do_play(state._replace(window=None), seat, cards, combo, hand_after, events, "bomb")


def _pass(state: State, action: Pass, events: list[Event]) -> State | Rejection:
    seat = action.seat
    error = _seat_error(state, seat)
    if error:
        return error
    if state.phase == WINDOW:
        code = check_can_answer(state, seat)
        if code:
            return _answer_refusal(code)
        return record_answer(state, seat, PASSED, events)
    error = _turn_error(state, seat)
    if error:
        return error
    if state.top is None:
        return Rejection("leader_cannot_pass", "the leader must play")
    return do_pass(state, seat, events)


def _claim(mode: str) -> Handler:
    def handler(state: State, action: Hook | Unhook, events: list[Event]) -> State | Rejection:
        cards = _cards_of(state, action)
        if isinstance(cards, Rejection):
            return cards
        seat = action.seat
        code = check_claim(state, seat, mode, cards)
        if code:
            return _answer_refusal(code)
        return record_answer(state, seat, cards, events)

    return handler


def _return(state: State, action: Return, events: list[Event]) -> State | Rejection:
    seat = action.seat
    error = _seat_error(state, seat)
    if error:
        return error
    if state.phase != TRIBUTE:
        return Rejection("invalid_return", "no tribute return is awaited")
    cards = _parse([action.card] if isinstance(action.card, str) else action.card)
    if isinstance(cards, Rejection):
        return cards
    pending = [i for i, t in enumerate(state.tributes) if t.receiver == seat and t.returned is None]
    if not pending:
        return Rejection("invalid_return", "you have no return to make")
    if len(cards) != 1 or cards[0] not in legal_returns(
        state.hands[seat], state.level, state.options
    ):
        return Rejection("invalid_return", "return one card of face 2–9 (§9.4)")
    return _give(state, pending[0], cards[0], events)


def _give(state: State, index: int, card: str, events: list[Event]) -> State:
    tribute = state.tributes[index]
    hands = give_return(state.hands, tribute, card)
    tributes = list(state.tributes)
    tributes[index] = tribute._replace(returned=card)
    events.append(Returned(tribute.receiver, tribute.payer, card))
    state = state._replace(hands=hands, tributes=tuple(tributes))
    if all(t.returned is not None for t in tributes):
        events.append(Led(state.leader))
        return state._replace(phase=PLAY, turn=state.leader)
    return state


def _resign(state: State, action: Resign, events: list[Event]) -> State | Rejection:
    """The seat's team concedes: the match ends now, won by the other team, levels as they
    are, nobody caught; an open window or a pending return simply ends with it. Hands stay as
    they were (the state still holds them; ``views`` shows each only to its seat)."""
    seat = action.seat
    if type(seat) is not int or not 0 <= seat < state.players:
        return _no_seat(state, seat)
    winner = 1 - seat % 2
    events.append(Resigned(seat, seat % 2))
    events.append(MatchOver(winner))
    result = RoundResult(winner, (), state.levels, None, winner, seat)
    return state._replace(phase=MATCH_OVER, turn=None, window=None, result=result)


def _timeout(state: State, action: Timeout, events: list[Event]) -> State | Rejection:
    if state.phase == WINDOW:
        assert state.window is not None
        events.append(WindowExpired(state.window.owner))
        return resolve(state, events, expired=True)
    if state.phase == PLAY:
        return do_turn_timeout(state, events)
    if state.phase == TRIBUTE:
        for i, t in enumerate(state.tributes):
            if t.returned is None:
                card = timeout_return(state.hands[t.receiver], state.level, state.options)
                state = _give(state, i, card, events)
        return state
    return Rejection("round_over", "the round is over")


def _next_round(state: State, action: NextRound, events: list[Event]) -> State | Rejection:
    if state.phase != ROUND_OVER:
        return Rejection("round_not_over", "the round is still being played")
    return deal_next_round(state, events)


_HANDLERS: dict[type, Handler] = {
    Play: _play,
    Pass: _pass,
    Hook: _claim(HOOK),
    Unhook: _claim(UNHOOK),
    Return: _return,
    Resign: _resign,
    Timeout: _timeout,
    NextRound: _next_round,
}


def seats_to_act(state: State) -> list[int]:
    """Seats that may act now: the seat to play, the seats yet to answer an open window
    (nearest the owner first), or the receivers whose tribute return is awaited."""
    if state.phase == PLAY:
        assert state.turn is not None
        return [state.turn]
    if state.phase == WINDOW:
        window = state.window
        assert window is not None
        return [s for s in answerers(state) if window.answers[s] is None]
    if state.phase == TRIBUTE:
        return [t.receiver for t in state.tributes if t.returned is None]
    return []
