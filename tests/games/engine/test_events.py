"""Engine events are frozen dataclasses (``games.engine.events``) whose JSON
(``codec.event_to_json``/``event_from_json``) is exactly the shape ``Move.events`` stores and
docs/MATCH_FORMAT.md documents: the round trip is exact both ways, over arbitrary events
(Hypothesis) and over every event of many simulated matches."""

from __future__ import annotations

import json
import random
import typing
from dataclasses import FrozenInstanceError, fields

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import NextRound, Options, Outcome, apply, new_match
from games.engine.ai.registry import policy
from games.engine.codec import (
    CodecError,
    event_from_json,
    event_to_json,
    events_from_json,
    events_to_json,
)
from games.engine.events import (
    EVENT_TYPES,
    Answered,
    Bombed,
    Dealt,
    Event,
    Finished,
    HiddenAnswer,
    Hooked,
    Led,
    MatchOver,
    Outranked,
    Passed,
    Played,
    Resigned,
    Returned,
    RoundOver,
    TimedOut,
    TributePaid,
    TrickWon,
    Unhooked,
    WindowClosed,
    WindowExpired,
    WindowOpened,
)
from games.engine.simulate import step
from games.engine.state import MATCH_OVER, ROUND_OVER
from games.engine.views import event_for

#: The fields of each ``type`` after ``type``, in order, as docs/MATCH_FORMAT.md lists them
#: (``window_closed`` adds ``bombed: true`` when a bomb closed it; an ``answer`` as another seat
#: sees it has no ``cards``).
DOCUMENTED = {
    "play": ["seat", "cards", "combination"],
    "bomb": ["seat", "cards", "combination"],
    "pass": ["seat", "timeout"],
    "window": ["owner", "face", "mode", "chain"],
    "answer": ["seat", "cards"],
    "hook": ["seat", "cards", "owner"],
    "unhook": ["seat", "cards", "owner"],
    "outranked": ["seat", "by"],
    "window_expired": ["owner"],
    "window_closed": ["owner"],
    "trick_won": ["seat", "leader"],
    "finished": ["seat", "place"],
    "timeout": ["seat"],
    "round_over": ["team", "caught", "levels", "next_level", "match_winner"],
    "match_over": ["winner"],
    "resign": ["seat", "team"],
    "deal": ["round", "dealer", "level"],
    "tribute": ["payer", "receiver", "card"],
    "return": ["seat", "to", "card"],
    "lead": ["seat"],
}

seats = st.integers(0, 7)
cards = st.lists(st.sampled_from(["3S", "10H", "QD", "AC", "2S", "BJ", "RJ"]), max_size=8).map(
    tuple
)
ranks = st.integers(2, 14)
words = st.text(max_size=12)
events = st.one_of(
    st.builds(Played, seats, cards, words),
    st.builds(Bombed, seats, cards, words),
    st.builds(Passed, seats, st.booleans()),
    st.builds(WindowOpened, seats, st.sampled_from([*range(2, 15), 16, 17]), words, st.booleans()),
    st.builds(Answered, seats, st.none() | cards),
    st.builds(HiddenAnswer, seats),
    st.builds(Outranked, seats, seats),
    st.builds(Hooked, seats, cards, seats),
    st.builds(Unhooked, seats, cards, seats),
    st.builds(WindowClosed, seats, st.booleans()),
    st.builds(WindowExpired, seats),
    st.builds(TrickWon, seats, seats),
    st.builds(Finished, seats, st.integers(1, 8)),
    st.builds(TimedOut, seats),
    st.builds(
        RoundOver,
        st.integers(0, 1),
        st.lists(seats, max_size=4).map(tuple),
        st.tuples(ranks, ranks),
        st.none() | ranks,
        st.none() | st.integers(0, 1),
    ),
    st.builds(MatchOver, st.integers(0, 1)),
    st.builds(Resigned, seats, st.integers(0, 1)),
    st.builds(Dealt, st.integers(1, 99), seats, ranks),
    st.builds(TributePaid, seats, seats, st.sampled_from(["RJ", "BJ", "AS", "2H"])),
    st.builds(Returned, seats, seats, st.sampled_from(["2S", "9D"])),
    st.builds(Led, seats),
)


def wire(data: dict) -> dict:
    """Through JSON text, as the database and the export carry it."""
    return json.loads(json.dumps(data))


def check_shape(data: dict) -> None:
    """``data`` is exactly a documented event: its fields, in order, nothing more."""
    keys = list(data)
    assert keys[0] == "type", data
    expected = DOCUMENTED[data["type"]]
    if data["type"] == "window_closed" and "bombed" in data:
        expected = [*expected, "bombed"]
        assert data["bombed"] is True
    if data["type"] == "answer" and "cards" not in data:
        expected = ["seat"]  # another seat's answer: who, not what (§6.4)
    assert keys[1:] == expected, data


@settings(max_examples=400, deadline=None, derandomize=True, database=None)
@given(event=events)
def test_any_event_round_trips_exactly(event: Event):
    data = event_to_json(event)
    check_shape(data)
    assert event_from_json(wire(data)) == event
    assert event_to_json(event_from_json(wire(data))) == data


def simulated_events(seed: int):
    """Every event of whole matches between AI policies, with options that reach bombs into
    windows, joker hooks, tributes, timeouts and resignations' absence alike."""
    rng = random.Random(seed)
    for n, players in enumerate((2, 4, 6, 8)):
        options = Options(
            players=players,
            bomb_in_window=n % 2 == 0,
            joker_hook=players >= 6,
            target_level=4,
            anti_tribute=n == 3,
        )
        policies = [policy("heuristic" if s % 2 else "random") for s in range(players)]
        state = new_match(options, rng.getrandbits(32))
        while state.phase != MATCH_OVER:
            if state.phase == ROUND_OVER:
                outcome = apply(state, NextRound())
                assert isinstance(outcome, Outcome)
                state, new = outcome.state, outcome.events
            else:
                state, new = step(state, policies, rng)
            yield from ((players, e) for e in new)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_event_of_simulated_matches_round_trips_exactly(seed: int):
    """Each event the engine emits, and each as every viewer sees it (``event_for``), encodes
    to the documented shape and decodes to itself; the stored rows decode and encode back to
    the same JSON. (Most events look the same to every viewer: each distinct form is checked
    once, as encoding and decoding are pure.)"""
    kinds = set()
    for players, event in simulated_events(seed):
        kinds.add(event.kind)
        for shown in {event_for(event, viewer) for viewer in [None, *range(players)]} - {None}:
            data = event_to_json(shown)
            check_shape(data)
            assert event_from_json(wire(data)) == shown
    assert {"play", "pass", "window", "answer", "trick_won", "round_over", "deal"} <= kinds


def test_stored_rows_of_a_move_decode_and_encode_back():
    stored = [
        {"type": "timeout", "seat": 3},
        {"type": "play", "seat": 3, "cards": ["3S"], "combination": "single"},
        {"type": "window", "owner": 3, "face": 3, "mode": "hook", "chain": False},
        {"type": "answer", "seat": 0, "cards": ["3H", "3C"]},
        {"type": "answer", "seat": 1, "cards": None},
        {"type": "answer", "seat": 2},
        {"type": "window_closed", "owner": 0, "bombed": True},
        {"type": "window_closed", "owner": 0},
        {
            "type": "round_over",
            "team": 1,
            "caught": [0, 2],
            "levels": ["2", "10"],
            "next_level": "10",
            "match_winner": None,
        },
        {"type": "deal", "round": 2, "dealer": 0, "level": 10},
    ]
    decoded = events_from_json(stored)
    assert decoded[:4] == (
        TimedOut(3),
        Played(3, ("3S",), "single"),
        WindowOpened(3, 3, "hook", False),
        Answered(0, ("3H", "3C")),
    )
    assert decoded[4:8] == (
        Answered(1, None),
        HiddenAnswer(2),
        WindowClosed(0, bombed=True),
        WindowClosed(0),
    )
    assert decoded[8] == RoundOver(1, (0, 2), (2, 10), 10, None)
    assert decoded[9] == Dealt(2, 0, 10)
    assert events_to_json(decoded) == stored


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        {"seat": 1},
        {"type": "nope", "seat": 1},
        {"type": "lead"},
        {"type": "lead", "seat": "1"},
        {"type": "lead", "seat": True},
        {"type": "lead", "seat": 1, "extra": 2},
        {"type": "pass", "seat": 1, "timeout": 0},
        {"type": "play", "seat": 1, "cards": "3S", "combination": "single"},
        {"type": "hook", "seat": 1, "cards": None, "owner": 0},
        {"type": "window_closed", "owner": 0, "bombed": False},
        {"type": "round_over", "team": 0, "caught": [], "levels": ["T", "2"]}
        | {"next_level": None, "match_winner": None},
        {"type": "round_over", "team": 0, "caught": [], "levels": ["2"]}
        | {"next_level": None, "match_winner": None},
    ],
)
def test_the_codec_refuses_what_is_no_event(data):
    """Anything that would not encode back to itself is refused, with a message."""
    with pytest.raises(CodecError):
        event_from_json(data)


def test_every_event_class_is_in_the_union_is_frozen_and_documented():
    assert set(typing.get_args(Event)) == set(EVENT_TYPES)
    assert {cls.kind for cls in EVENT_TYPES} == set(DOCUMENTED)
    for cls in EVENT_TYPES:
        assert cls.__dataclass_params__.frozen  # type: ignore[attr-defined]
    with pytest.raises(FrozenInstanceError):
        Led(1).seat = 2  # type: ignore[misc]
    assert [f.name for f in fields(Answered)] == ["seat", "cards"]
