"""Resigning (``actions.Resign``): the seat's team concedes, the other team wins the match at
once, in any phase until the match is over; the state round-trips through the codec."""

from __future__ import annotations

import pytest

from games.engine import MATCH_OVER, NextRound, Pass, Play, Resign, apply
from games.engine.codec import action_from_json, action_to_json, state_from_json, state_to_json
from games.engine.events import MatchOver, Resigned
from games.engine.state import ROUND_OVER, WINDOW
from games.engine.views import seat_view, spectator_view

from .helpers import cards, lv, ok, refused, run, table, types


def test_a_resignation_ends_the_match_for_the_other_team():
    """Seat 1 resigns mid-trick: team 0 wins, levels stay, nobody is caught, the hands stay."""
    state = table("6S 7H", "5S 9H", "8C 9C", "4S 4H", levels=("5", "3"), level="5")
    state, _ = ok(state, Play(0, cards("6S")))
    state, events = ok(state, Resign(1))
    assert types(events) == ["resign", "match_over"]
    assert events[0] == Resigned(seat=1, team=1)
    assert events[1] == MatchOver(winner=0)
    assert state.phase == MATCH_OVER and state.turn is None and state.window is None
    result = state.result
    assert (result.team, result.match_winner, result.resigned) == (0, 0, 1)
    assert result.caught == () and result.levels == (lv("5"), lv("3"))
    assert state.hands[1] == cards("5S 9H")  # still secret: only seat 1's view shows them
    assert seat_view(state, 0).hand == cards("7H") and spectator_view(state).hand == ()


def round_over():
    """Seats 0 then 2 go out: team 0 finishes the round (not the match), 1 and 3 are caught."""
    state = table("6S 6H", "5S 5H 6C", "BJ BJ", "4S 4H QD")
    state, _ = run(state, Play(0, cards("6S 6H")), Pass(1), Play(2, cards("BJ BJ")))
    assert state.phase == ROUND_OVER
    return state


def test_a_resignation_is_taken_in_a_window_and_after_a_round():
    """In an open claim window and in the pause after a round, as at a turn."""
    in_window, _ = ok(table("9H 3C", "9D 4C", "5H 6C", "9S 8C"), Play(0, cards("9H")))
    assert in_window.phase == WINDOW
    assert ok(in_window, Resign(2))[0].result.match_winner == 1
    over, _ = ok(round_over(), Resign(0))
    assert over.phase == MATCH_OVER and over.result.match_winner == 1
    assert over.result.caught == ()


@pytest.mark.parametrize("seat", [-1, 4, "1", None])
def test_a_resignation_names_a_real_seat(seat):
    refused(table("6S", "5S", "7C", "4S"), Resign(seat), "bad_seat")


def test_nothing_is_taken_after_a_resignation():
    over, _ = ok(table("6S 7S", "5S", "7C", "4S"), Resign(0))
    refused(over, Resign(1), "match_over")
    refused(over, Play(1, cards("5S")), "match_over")
    refused(over, NextRound(), "match_over")


def test_a_resigned_state_and_action_round_trip():
    """The resigning seat rides in the result; a result without one reads as before."""
    over, _ = ok(table("6S 7S", "5S", "7C", "4S"), Resign(3))
    assert state_from_json(state_to_json(over)) == over
    assert len(state_to_json(over)["result"]) == 6
    assert action_to_json(Resign(3)) == {"type": "resign", "seat": 3}
    assert action_from_json({"type": "resign", "seat": 3}) == Resign(3)
    played_out = round_over()
    assert len(state_to_json(played_out)["result"]) == 5
    assert state_from_json(state_to_json(played_out)).result.resigned is None
    assert apply(over, Resign(0)).code == "match_over"
