"""Small helpers shared by the engine tests (no Django anywhere: the engine is pure)."""

from __future__ import annotations

from collections import Counter

from games.engine import Options, Outcome, Rejection, apply, start_round
from games.engine.cards import FACE, full_deck, parse_face, sort_cards
from games.engine.codec import state_from_json, state_to_json
from games.engine.events import Event
from games.engine.state import State, Top, Tribute, TrickEntry
from games.engine.views import View, WindowView


def cards(text: str) -> tuple[str, ...]:
    """``cards("9H 3C")`` -> ``("9H", "3C")``."""
    return tuple(text.split())


def lv(face: str) -> int:
    """A level written as a face: ``lv("A")`` -> 14."""
    return parse_face(face)


def table(
    *hands: str,
    level: str = "2",
    levels: tuple[str, str] | None = None,
    leader: int = 0,
    **options: object,
) -> State:
    """A round in normal play from hands written as strings; players = number of hands."""
    opts = Options(players=len(hands), **options)
    start = (lv(levels[0]), lv(levels[1])) if levels else None
    return start_round(opts, [cards(h) for h in hands], lv(level), start, leader)


def ok(state: State, action: object) -> tuple[State, tuple[Event, ...]]:
    """Apply an action that must be accepted; the new state and its events."""
    outcome = apply(state, action)
    assert isinstance(outcome, Outcome), f"{action} was rejected: {outcome}"
    assert outcome.state.version == state.version + 1
    return outcome.state, outcome.events


def run(state: State, *actions: object) -> tuple[State, list[Event]]:
    """Apply several accepted actions; the final state and every event in order."""
    events: list[Event] = []
    for action in actions:
        state, new = ok(state, action)
        events.extend(new)
    return state, events


def refused(state: State, action: object, code: str) -> Rejection:
    """Apply an action that must be rejected with ``code``, leaving the state as it was."""
    before = state_to_json(state)
    outcome = apply(state, action)
    assert isinstance(outcome, Rejection), f"{action} was accepted"
    assert outcome.code == code, f"{action}: expected {code}, got {outcome}"
    assert outcome.message.strip(), f"{action}: {code} without a message"  # the API shows it
    assert state_to_json(state) == before
    assert state_from_json(before) == state
    return outcome


def types(events) -> list[str]:
    """The ``kind`` of each event (its JSON ``type``), in order."""
    return [e.kind for e in events]


def of_type(events, kind: str) -> list[Event]:
    """The events of one kind (``type``)."""
    return [e for e in events if e.kind == kind]


def faces(cards_: object) -> tuple[int, ...]:
    """The sorted rank tuple of some cards."""
    return tuple(sorted(FACE[c] for c in cards_))


def multiset(*groups) -> Counter:
    """All the cards of several card groups as one multiset."""
    total: Counter = Counter()
    for group in groups:
        total.update(group)
    return total


# --- views never leak a card -------------------------------------------------------------------

PUBLIC = {"top", "trick", "tributes", "played"}


def _card_strings(value, path, found):
    """Collect (path, card) for every card string anywhere inside a view field."""
    if isinstance(value, str):
        if value in FACE:
            found.append((path, value))
    elif isinstance(value, dict):
        for k, v in value.items():
            _card_strings(k, path, found)
            _card_strings(v, path, found)
    elif isinstance(value, (tuple, list, set, frozenset)):
        for v in value:
            if v is None or type(v) is int or type(v) is bool:
                continue  # the common leaves (seat numbers, counts, flags), without a call
            _card_strings(v, path, found)
    else:
        assert value is None or isinstance(value, (int, float, bool, Options)), (path, value)


#: The last state ``_played_from_hands`` counted, and its count: every seat's view and the
#: spectator's of one state are checked in a row, and the count is most of the check's cost.
_last_played: tuple[State | None, tuple[str, ...]] = (None, ())


def _played_from_hands(state: State) -> tuple[str, ...]:
    """The cards played this round, counted from the state itself: the decks minus every hand,
    in canonical order. Counted once per state (a State is immutable; the last one is held, so
    its identity is never reused) and compared with each of its views."""
    global _last_played
    if _last_played[0] is not state:
        left = Counter(full_deck(state.options.decks)) - multiset(*state.hands)
        _last_played = (state, sort_cards(tuple(left.elements())))
    return _last_played[1]


def check_view(view: View, state: State, seat: int | None) -> None:
    """Assert ``view`` is ``seat``'s (None: a spectator's) view of ``state`` and shows no card
    of another hand: only its own hand, its own window answer and the public trick, top play
    and tribute cards."""
    assert isinstance(view, View) and view.hands is None
    assert view.hand == (state.hands[seat] if seat is not None else ())
    assert view.hand_sizes == tuple(len(h) for h in state.hands)
    assert (view.top, view.trick, view.tributes) == (state.top, state.trick, state.tributes)
    assert view.played == _played_from_hands(state)  # the same cards, in canonical order
    assert view.top is None or isinstance(view.top, Top)
    assert all(isinstance(e, TrickEntry) for e in view.trick)
    assert all(isinstance(t, Tribute) for t in view.tributes)
    if state.window is None:
        assert view.window is None and view.my_answer is None
    else:
        assert isinstance(view.window, WindowView)
        assert view.window.answered == tuple(a is not None for a in state.window.answers)
        assert view.my_answer == (state.window.answers[seat] if seat is not None else None)
    for field in view._fields:
        if field in PUBLIC or field == "hand" or field == "my_answer":
            continue
        found: list = []
        _card_strings(getattr(view, field), field, found)
        assert found == [], f"view of {seat} leaks {found}"
