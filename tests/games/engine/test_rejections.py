"""Malformed or illegal input is a Rejection with a stable code, never an exception, and it
leaves the state exactly as it was (issue 2; codes in ``actions.CODES``)."""

from __future__ import annotations

import itertools

import pytest

from games.engine import (
    CODES,
    Hook,
    NextRound,
    Pass,
    Play,
    Rejection,
    Return,
    Timeout,
    Unhook,
    apply,
    legal_actions,
)

from .helpers import cards, ok, refused, run, table

HANDS = ("3S 3H 9S KC", "9H 9D 5C 5D", "7S 7H QC", "4S 4H QD")


def lead():
    """Seat 0 to lead, nothing played yet."""
    return table(*HANDS)


def window():
    """Seat 0 led a single 9: a hook window is open."""
    return ok(lead(), Play(0, ("9S",)))[0]


def round_over():
    """Team 0 finished (seats 0 and 2 out)."""
    state = table("6S 6H", "5S 5H 6C", "BJ BJ", "4S 4H QD")
    return run(state, Play(0, cards("6S 6H")), Pass(1), Play(2, cards("BJ BJ")))[0]


def match_over():
    """Team 0 started at A and caught both opponents: the match is over."""
    state = table("6S 6H", "5S 5H 6C", "BJ BJ", "4S 4H QD", level="A", levels=("A", "A"))
    return run(state, Play(0, cards("6S 6H")), Pass(1), Play(2, cards("BJ BJ")))[0]


@pytest.mark.parametrize("bad", ["1S", "QX", "10", "", "3SS", "JJ", "S3", "ZZ"])
def test_unknown_card_strings(bad):
    """A card string outside the notation is unknown_card, for plays and claims alike."""
    refused(lead(), Play(0, (bad,)), "unknown_card")
    refused(lead(), Play(0, ("3S", bad)), "unknown_card")
    refused(window(), Hook(1, ("9H", bad)), "unknown_card")


@pytest.mark.parametrize(
    ("cards_", "code"),
    [
        (None, "malformed"),
        ("3S", "malformed"),
        ("3S 3H", "malformed"),
        (b"3S", "malformed"),
        ({"3S"}, "malformed"),
        ({"3S": 1}, "malformed"),
        (3, "malformed"),
        ([1, 2], "unknown_card"),
        ([None], "unknown_card"),
        ([["3S"]], "unknown_card"),
        (["3S", 3], "unknown_card"),
        ((), "empty_play"),
        ([], "empty_play"),
    ],
)
def test_malformed_cards(cards_, code):
    """cards must be a non-empty list or tuple of card strings: anything else is refused."""
    refused(lead(), Play(0, cards_), code)
    refused(window(), Hook(1, cards_), code)
    refused(window(), Unhook(1, cards_), code)


def test_lowercase_and_t_notation_are_accepted():
    """Card strings are normalised (``"3s"``, ``"ts"``), so they are not malformed."""
    state = table("3S 10S KC", "9H 9D", "7S 7H", "4S 4H")
    ok(state, Play(0, ["3s"]))
    ok(state, Play(0, ["ts"]))


@pytest.mark.parametrize("seat", [-1, 4, 99, "0", True, False, None, 0.0, 1.5])
def test_bad_seats(seat):
    """A seat that is not an int in 0..N-1 (bools and strings included) is bad_seat."""
    refused(lead(), Play(seat, ("3S",)), "bad_seat")
    refused(lead(), Pass(seat), "bad_seat")
    refused(window(), Pass(seat), "bad_seat")
    refused(window(), Hook(seat, ("9H", "9D")), "bad_seat")
    refused(window(), Unhook(seat, ("9H",)), "bad_seat")
    refused(lead(), Return(seat, "3S"), "bad_seat")


def test_more_copies_than_held():
    """Playing more copies of a card than the seat holds is not_in_hand (two decks exist)."""
    refused(lead(), Play(0, ("3S", "3S")), "not_in_hand")
    refused(lead(), Play(0, ("4S",)), "not_in_hand")
    refused(window(), Hook(1, ("9H", "9H")), "not_in_hand")


def test_wrong_turn():
    """Only the seat to act may play or pass in normal play: not_your_turn."""
    refused(lead(), Play(1, ("5C",)), "not_your_turn")
    refused(lead(), Pass(2), "not_your_turn")
    state = ok(lead(), Play(0, cards("3S 3H")))[0]
    refused(state, Play(2, cards("7S 7H")), "not_your_turn")
    refused(state, Play(0, ("KC",)), "not_your_turn")


def test_illegal_plays():
    """Cards that are no combination, or do not beat the top play, are refused."""
    refused(lead(), Play(0, cards("3S 9S")), "invalid_combination")
    refused(lead(), Pass(0), "leader_cannot_pass")
    state = ok(lead(), Play(0, cards("3S 3H")))[0]
    refused(state, Play(1, ("5C",)), "does_not_beat")


def test_claims_without_a_window():
    """A hook or unhook when no window is open is no_window."""
    refused(lead(), Hook(1, ("9H", "9D")), "no_window")
    refused(lead(), Unhook(1, ("9H",)), "no_window")


def test_return_when_none_is_awaited():
    """A tribute return outside the tribute phase, or by a seat that received no tribute, is
    invalid_return; a return that is not one card is refused too."""
    refused(lead(), Return(0, "3S"), "invalid_return")
    refused(window(), Return(1, "5C"), "invalid_return")
    tribute = ok(round_over(), NextRound())[0]
    receiver = tribute.tributes[0].receiver
    payer = tribute.tributes[0].payer
    refused(tribute, Return(payer, tribute.hands[payer][0]), "invalid_return")
    refused(tribute, Return(receiver, None), "malformed")
    refused(tribute, Return(receiver, "1S"), "unknown_card")
    refused(tribute, Return(receiver, list(tribute.hands[receiver][:2])), "invalid_return")


def test_next_round_mid_round():
    """NextRound before the round is over is round_not_over, in play and in a window."""
    refused(lead(), NextRound(), "round_not_over")
    refused(window(), NextRound(), "round_not_over")


def test_actions_after_the_round():
    """After the round only NextRound is accepted: everything else is round_over."""
    state = round_over()
    for action in (
        Play(1, ("5S",)),
        Pass(1),
        Hook(1, ("5S", "5H")),
        Unhook(3, ("4S",)),
        Return(1, "5S"),
        Timeout(),
    ):
        refused(state, action, "round_over")


def test_any_action_after_the_match_is_over():
    """Once a team has won the match every action is match_over, malformed or not."""
    state = match_over()
    assert state.phase == "match_over"
    for action in (
        Play(1, ("5S",)),
        Play(1, None),
        Pass(1),
        Pass(99),
        Hook(1, ("5S", "5H")),
        Unhook(3, ("4S",)),
        Return(1, "5S"),
        Timeout(),
        NextRound(),
    ):
        refused(state, action, "match_over")


@pytest.mark.parametrize(
    "action", [None, "play", ("play", 0, ["3S"]), {"type": "pass"}, 0, Rejection("x")]
)
def test_unknown_action_objects(action):
    """Something that is no action at all is malformed."""
    refused(lead(), action, "malformed")


def test_nothing_raises_on_a_grid_of_bad_input():
    """Every action type × odd seat × odd cards, in every phase: apply returns a Rejection with a
    known code (or, for a legal combination, an Outcome), never an exception."""
    bomb_window = ok(table(*HANDS, bomb_in_window=True), Play(0, ("9S",)))[0]
    tribute = ok(round_over(), NextRound())[0]
    assert tribute.phase == "tribute"
    states = [lead(), window(), bomb_window, tribute, round_over(), match_over()]
    seats = [0, 1, -1, 4, "1", True, None, 2.0]
    odd = [
        None,
        "",
        "3S",
        ["3S"],
        ["3S", "3S"],
        [],
        [1],
        ["9H", "9D"],
        ["9H", "nope"],
        [b"3S"],
        [("3S",)],
        {"3S": 1},
    ]
    for state, kind, seat, cards_ in itertools.product(
        states, (Play, Hook, Unhook, Return), seats, odd
    ):
        outcome = apply(state, kind(seat, cards_))
        if isinstance(outcome, Rejection):
            assert outcome.code in CODES and outcome.message, outcome
    for state, seat in itertools.product(states, seats):
        outcome = apply(state, Pass(seat))
        assert not isinstance(outcome, Rejection) or (outcome.code in CODES and outcome.message)


def finished_in_window():
    """Seat 3 went out; seat 0's single 9 opened a hook window for seats 1 and 2."""
    state = table("AS AH 9S KC", "9H 9D", "5S 6D", "QS QH", leader=3)
    return run(
        state, Play(3, cards("QS QH")), Play(0, cards("AS AH")), Pass(1), Pass(2), Play(0, ("9S",))
    )[0]


def test_every_code_comes_with_a_message():
    """Each of ``CODES`` is refused with a message for people, not only a code: the bot API
    answers it as ``message`` (a hook with no window open was 409 with ``"message": ""``), and
    a seat number in it says that seats count from 0."""
    tribute = ok(round_over(), NextRound())[0]
    answered = ok(window(), Pass(1))[0]
    cases = [
        (lead(), "play", "malformed"),
        (lead(), Play(0, None), "malformed"),
        (lead(), Pass(9), "bad_seat"),
        (lead(), Play(0, ("1S",)), "unknown_card"),
        (lead(), Play(0, ()), "empty_play"),
        (lead(), Play(0, ("4S",)), "not_in_hand"),
        (window(), Hook(1, ("9H", "9H")), "not_in_hand"),
        (lead(), Play(0, cards("3S 9S")), "invalid_combination"),
        (ok(lead(), Play(0, cards("3S 3H")))[0], Play(1, ("5C",)), "does_not_beat"),
        (lead(), Pass(0), "leader_cannot_pass"),
        (lead(), Play(1, ("5C",)), "not_your_turn"),
        (finished_in_window(), Pass(3), "finished"),
        (finished_in_window(), Hook(3, ("9H", "9D")), "finished"),
        (window(), Play(1, ("5C",)), "window_open"),
        (lead(), Hook(1, ("9H", "9D")), "no_window"),
        (lead(), Unhook(1, ("9H",)), "no_window"),
        (window(), Hook(1, ("9H",)), "invalid_claim"),
        (window(), Pass(0), "owner_cannot_claim"),
        (window(), Hook(0, ("9H", "9D")), "owner_cannot_claim"),
        (answered, Pass(1), "already_answered"),
        (answered, Hook(1, ("9H", "9D")), "already_answered"),
        (tribute, Pass(tribute.tributes[0].receiver), "tribute_pending"),
        (lead(), Return(0, "3S"), "invalid_return"),
        (round_over(), Pass(1), "round_over"),
        (lead(), NextRound(), "round_not_over"),
        (match_over(), Pass(1), "match_over"),
    ]
    for state, action, code in cases:
        refused(state, action, code)  # asserts the message too
    assert {code for _, _, code in cases} == set(CODES)
    turn = refused(lead(), Play(1, ("5C",)), "not_your_turn").message
    assert turn == "seat 0 is to act (seats count from 0: the table page's Seat 1)"
    assert "seats count from 0: 0 to 3" in refused(lead(), Pass(9), "bad_seat").message


def test_rejection_leaves_legal_actions_unchanged():
    """After any rejection the same legal actions are offered (the state did not move)."""
    state = window()
    before = {s: legal_actions(state, s) for s in range(4)}
    for action in (Hook(2, ("9H", "9D")), Pass(0), Play(1, ("5C",)), NextRound()):
        assert isinstance(apply(state, action), Rejection)
    assert {s: legal_actions(state, s) for s in range(4)} == before
    assert state.version == 1
