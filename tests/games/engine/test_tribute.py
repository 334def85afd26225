"""RULES.md §9: tribute and return, ``first_lead``, ``anti_tribute``, and a whole match."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.engine import (
    MATCH_OVER,
    NextRound,
    Options,
    Pass,
    Play,
    Return,
    Timeout,
    apply,
    legal_actions,
    new_match,
)
from games.engine.ai import policy
from games.engine.cards import FACE, full_deck
from games.engine.deal import deal_hands, round_rng
from games.engine.events import Dealt, Led, Returned, TributePaid
from games.engine.power import power_table
from games.engine.rules import seats_to_act
from games.engine.simulate import play_round
from games.engine.state import Tribute
from games.engine.tribute import legal_returns, pay_tributes, plan_tributes, timeout_return
from games.engine.views import event_for, seat_view, spectator_view

from .helpers import cards, ok, refused, run, table

FOUR = Options(players=4)
SIX = Options(players=6)


def hands_for(players: int, **by_seat: str) -> list[tuple[str, ...]]:
    """Hands for ``players`` seats; unnamed seats hold a harmless 3S (``s3="…"`` names seat 3)."""
    return [cards(by_seat.get(f"s{s}", "3S")) for s in range(players)]


# --- §9.1–§9.3, §9.6 planning -------------------------------------------------------------------


def test_the_caught_seat_pays_its_highest_card_to_the_first_finisher_and_leads():
    """§11.10 shape: finish order 2, 1, 0 at L = 4; seat 3 pays its 4 (the level card, first in
    suit order) to seat 2 and leads (first_lead=top_payer)."""
    hands = hands_for(4, s3="4H 4S AS KC 9D")
    tributes, leader = plan_tributes(hands, 4, (2, 1, 0), (3,), FOUR)
    assert tributes == (Tribute(3, 2, "4S"),)
    assert leader == 3


@pytest.mark.parametrize(
    ("hand", "level", "options", "card"),
    [
        ("4S BJ RJ AS", 4, FOUR, "RJ"),
        ("4S BJ AS", 4, FOUR, "BJ"),
        ("AC AH KS", 5, FOUR, "AH"),
        ("AC 2D KS", 5, Options(two_position="high"), "2D"),
        ("AC 2D KS", 5, FOUR, "AC"),
        ("KC 2D QS", 5, Options(two_position="high"), "2D"),
        ("AC 2D KS", 2, FOUR, "2D"),
    ],
)
def test_highest_power_card_is_paid(hand, level, options, card):
    """RJ > BJ > level card > A > K …; a high 2 above A; equal copies: first in suit order."""
    tributes, _ = plan_tributes(hands_for(4, s1=hand), level, (0, 2), (1,), options)
    assert tributes[0].card == card


def test_six_players_higher_tribute_to_first_finisher_third_finisher_gets_none():
    """Six players, finish order 0, 3, 2, 4, seats 1 and 5 caught: the higher card goes to seat 0,
    the other to seat 2; seat 4 receives none (§9.3, §11.11)."""
    hands = hands_for(6, s1="KS 3C", s5="BJ 3D")
    tributes, leader = plan_tributes(hands, 8, (0, 3, 2, 4), (1, 5), SIX)
    assert tributes == (Tribute(5, 0, "BJ"), Tribute(1, 2, "KS"))
    assert leader == 5


@pytest.mark.parametrize(
    ("finish_order", "expected"),
    [
        ((0, 3, 2, 4), (Tribute(1, 0, "RJ"), Tribute(5, 2, "RJ"))),
        ((4, 3, 0, 2), (Tribute(5, 4, "RJ"), Tribute(1, 0, "RJ"))),
        ((2, 0, 4), (Tribute(5, 2, "RJ"), Tribute(1, 0, "RJ"))),
    ],
)
def test_equal_tributes_are_ordered_by_distance_from_the_first_finisher(finish_order, expected):
    """Ties by the payer's clockwise distance from T's first finisher, nearest first (§9.2)."""
    hands = hands_for(6, s1="RJ 3C", s5="RJ 4D")
    tributes, leader = plan_tributes(hands, 8, finish_order, (1, 5), SIX)
    assert tributes == expected
    assert leader == expected[0].payer


def test_eight_players_kth_card_to_kth_finisher():
    """The k-th highest tribute goes to T's k-th finisher (§9.3)."""
    hands = hands_for(8, s1="5S", s3="KS", s7="9S")
    tributes, _ = plan_tributes(hands, 2, (6, 5, 2, 0, 4), (1, 3, 7), Options(players=8))
    assert tributes == (Tribute(3, 6, "KS"), Tribute(7, 2, "9S"), Tribute(1, 0, "5S"))


def test_first_lead_top_finisher():
    """first_lead=top_finisher: T's first finisher leads instead of the top payer (§9.6)."""
    hands = hands_for(4, s3="4S BJ")
    _, leader = plan_tributes(hands, 4, (2, 1, 0), (3,), Options(first_lead="top_finisher"))
    assert leader == 2


def test_anti_tribute_cancels_when_the_payers_hold_every_red_joker():
    """anti_tribute: if the payers together hold all D red jokers, no tribute and T's first
    finisher leads; otherwise (or with the option off) tribute is paid (§9)."""
    anti = Options(anti_tribute=True)
    split = hands_for(4, s1="RJ 3C", s3="RJ 4C")
    assert plan_tributes(split, 5, (2, 0), (1, 3), anti) == ((), 2)
    tributes, leader = plan_tributes(split, 5, (2, 0), (1, 3), FOUR)
    assert tributes == (Tribute(3, 2, "RJ"), Tribute(1, 0, "RJ")) and leader == 3
    one = hands_for(4, s1="RJ 3C", s3="BJ 4C")
    assert plan_tributes(one, 5, (2, 0), (1, 3), anti)[0] == (
        Tribute(1, 2, "RJ"),
        Tribute(3, 0, "BJ"),
    )
    six = hands_for(6, s1="RJ RJ", s3="RJ")
    assert plan_tributes(six, 5, (0, 2, 4), (1, 3), Options(players=6, anti_tribute=True)) == (
        (),
        0,
    )


# --- §9.4 returns -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "level", "options", "returns"),
    [
        ("3S 10H KD AC", 5, FOUR, ("3S",)),
        ("2S 9H 9D 10H", 5, FOUR, ("2S", "9H", "9D")),
        ("5S 10H", 5, FOUR, ("5S",)),
        ("10S JS JH QD", 10, FOUR, ("JS", "JH")),
        ("AS KD BJ", 13, FOUR, ("AS",)),
        ("2S KD", 5, Options(two_position="high"), ("2S",)),
    ],
)
def test_legal_returns(hand, level, options, returns):
    """A return is any card of face 2–9 (a level card included); holding none, the lowest-power
    card (§9.4)."""
    assert legal_returns(cards(hand), level, options) == returns


@pytest.mark.parametrize(
    ("hand", "level", "options", "card"),
    [
        ("9S 5H 5S 3C KD", 3, FOUR, "5S"),
        ("9S 5H 5S 3C KD", 5, FOUR, "3C"),
        ("2H 6S KD", 5, Options(two_position="high"), "6S"),
        ("2H 6S KD", 5, FOUR, "2H"),
        ("10S JH JS QD", 10, FOUR, "JS"),
    ],
)
def test_timeout_return_is_the_lowest_power_legal_card_first_in_suit_order(
    hand, level, options, card
):
    """A receiver that does not choose in time returns its lowest-power legal card, first in
    suit order S, H, D, C (§9.4)."""
    assert timeout_return(cards(hand), level, options) == card


def finish_0_1_2(**options):
    """A round-1 state ended with finish order 0, 1, 2 (seat 3 caught), team 0 from 3 to 4."""
    state = table("6S 6H", "BJ BJ", "RJ RJ", "8S 8H 6C", level="3", levels=("3", "5"), **options)
    state, _ = run(
        state,
        Play(0, cards("6S 6H")),
        Play(1, cards("BJ BJ")),
        Pass(2),
        Pass(3),
        Play(3, cards("8S 8H")),
        Play(2, cards("RJ RJ")),
    )
    assert (state.finished, state.result.caught) == ((0, 1, 2), (3,))
    return state


def test_next_round_deals_pays_tribute_and_awaits_the_return():
    """NextRound deals at the new level, pays the tribute and waits for the receiver's return;
    the tribute is shown to every seat and spectator (§9.1–§9.5)."""
    over = finish_0_1_2()
    state, events = ok(over, NextRound())
    dealt = deal_hands(FOUR, round_rng(over.seed, 2), 0)
    tributes, leader = plan_tributes(dealt, 4, (0, 1, 2), (3,), FOUR)
    assert state.tributes == tributes and len(tributes) == 1
    assert tributes[0].payer == 3 and tributes[0].receiver == 0
    card = tributes[0].card
    assert power_table(4)[FACE[card]] == max(power_table(4)[FACE[c]] for c in dealt[3])
    assert state.hands == pay_tributes(dealt, tributes)
    assert [len(h) for h in state.hands] == [28, 27, 27, 26]
    assert list(events) == [
        Dealt(round=2, dealer=0, level=4),
        TributePaid(payer=3, receiver=0, card=card),
    ]
    assert (state.phase, state.turn, state.leader, state.level) == ("tribute", None, 3, 4)
    assert seats_to_act(state) == [0]
    for seat in range(4):
        assert seat_view(state, seat).tributes == tributes
        assert [event_for(e, seat) for e in events] == list(events)
    assert spectator_view(state).tributes == tributes
    assert legal_actions(state, 3) == []
    expected = [Return(0, c) for c in dict.fromkeys(legal_returns(state.hands[0], 4, FOUR))]
    assert legal_actions(state, 0) == expected


def test_returns_are_checked_and_play_starts_when_every_return_is_made():
    """Only the receiver returns, once, a legal card; nothing else is accepted meanwhile; then
    the payer of the top tribute leads (§9.4, §9.6)."""
    state, _ = ok(finish_0_1_2(), NextRound())
    hand = state.hands[0]
    legal = legal_returns(hand, 4, FOUR)
    illegal = next(c for c in hand if c not in legal)
    refused(state, Return(0, illegal), "invalid_return")
    refused(state, Return(0, "1S"), "unknown_card")
    refused(state, Return(3, state.hands[3][0]), "invalid_return")
    refused(state, Return(1, state.hands[1][0]), "invalid_return")
    refused(state, Play(3, state.hands[3][:1]), "tribute_pending")
    refused(state, Pass(3), "tribute_pending")
    refused(state, NextRound(), "round_not_over")
    card = legal[-1]
    after, events = ok(state, Return(0, card))
    assert list(events) == [
        Returned(seat=0, to=3, card=card),
        Led(seat=3),
    ]
    assert (after.phase, after.turn) == ("play", 3)
    assert after.tributes[0].returned == card
    assert Counter(after.hands[3]) == Counter(state.hands[3]) + Counter([card])
    assert Counter(after.hands[0]) == Counter(state.hands[0]) - Counter([card])
    refused(after, Return(0, after.hands[0][0]), "invalid_return")


def test_the_tribute_just_received_counts_as_held():
    """A receiver may return the very card it received when its face is 2–9 (§9.4)."""
    for seed in range(200):
        state, _ = ok(finish_0_1_2()._replace(seed=seed), NextRound())
        if 2 <= FACE[state.tributes[0].card] <= 9:
            break
    else:
        pytest.fail("no seed in range gave a tribute of face 2–9")
    assert Return(0, state.tributes[0].card) in legal_actions(state, 0)
    ok(state, Return(0, state.tributes[0].card))


def test_timeout_makes_every_pending_return():
    """On timeout each pending receiver returns its lowest-power legal card (§9.4)."""
    state, _ = ok(finish_0_1_2(), NextRound())
    expected = timeout_return(state.hands[0], 4, FOUR)
    after, events = ok(state, Timeout())
    assert list(events) == [
        Returned(seat=0, to=3, card=expected),
        Led(seat=3),
    ]
    assert after.phase == "play"


def test_first_lead_top_finisher_through_the_engine():
    """first_lead=top_finisher: after the returns T's first finisher leads (§9.6)."""
    state, _ = ok(finish_0_1_2(first_lead="top_finisher"), NextRound())
    assert state.leader == 0
    state, events = ok(state, Timeout())
    assert events[-1] == Led(seat=0)
    assert state.turn == 0


def _six_player_round_over():
    """Six players, finish order 0, 3, 2, 4: seats 1 and 5 caught (§11.11)."""
    state = table(
        "KS KH",
        "5S 5H 8S",
        "3S 3H 7S 7H",
        "AS AH",
        "QS QH",
        "4S 4H 9S",
        level="6",
        levels=("6", "3"),
    )
    state, _ = run(
        state,
        Play(0, cards("KS KH")),
        Pass(1),
        Pass(2),
        Pass(3),
        Pass(4),
        Pass(5),
        Play(2, cards("3S 3H")),
        Play(3, cards("AS AH")),
        Pass(4),
        Pass(5),
        Pass(1),
        Pass(2),
        Play(5, cards("4S 4H")),
        Pass(1),
        Play(2, cards("7S 7H")),
        Play(4, cards("QS QH")),
    )
    return state


def test_six_players_two_returns_each_once():
    """Two receivers, each returns once: a second return by the same seat is refused while the
    other is still awaited; a timeout makes the other (§9.4)."""
    over = _six_player_round_over()
    assert (over.finished, over.result.caught, over.result.levels) == ((0, 3, 2, 4), (1, 5), (8, 3))
    state, _ = ok(over, NextRound())
    assert [(t.receiver, t.returned) for t in state.tributes] == [(0, None), (2, None)]
    assert seats_to_act(state) == [0, 2]
    assert legal_actions(state, 4) == []
    card = legal_returns(state.hands[0], 8, SIX)[0]
    state, events = ok(state, Return(0, card))
    assert [e.kind for e in events] == ["return"]
    assert state.phase == "tribute" and seats_to_act(state) == [2]
    refused(state, Return(0, legal_returns(state.hands[0], 8, SIX)[0]), "invalid_return")
    state, events = ok(state, Timeout())
    assert [e.kind for e in events] == ["return", "lead"]
    assert state.turn == state.tributes[0].payer


def test_anti_tribute_through_the_engine():
    """anti_tribute on and the caught seats dealt both red jokers: no tribute phase, T's first
    finisher leads at once (§9)."""
    for seed in range(300):
        state = table("6S 6H", "5S 5H 6C", "BJ BJ", "4S 4H QD", anti_tribute=True)
        state, _ = run(
            state._replace(seed=seed), Play(0, cards("6S 6H")), Pass(1), Play(2, cards("BJ BJ"))
        )
        dealt = deal_hands(state.options, round_rng(seed, 2), 0)
        if sum(c == "RJ" for s in (1, 3) for c in dealt[s]) == 2:
            break
    else:
        pytest.fail("no seed in range dealt both red jokers to the caught seats")
    state, events = ok(state, NextRound())
    assert [e.kind for e in events] == ["deal"]
    assert (state.phase, state.turn, state.tributes) == ("play", 0, ())
    assert state.hands == dealt


def test_a_whole_match_continues_through_next_round_with_tribute_phases():
    """Play a whole match (heuristic vs random): every round after the first deals, pays one
    tribute per caught seat to T's finishers in order, awaits returns, and the match ends with
    a team winning at A (§7–§9)."""
    rng = random.Random(2024)
    policies = [policy("heuristic"), policy("random")] * 2
    state = new_match(FOUR, seed=99)
    rounds = 1
    while True:
        state = play_round(state, policies, rng)
        if state.phase == MATCH_OVER:
            break
        result, finished = state.result, state.finished
        state, events = ok(state, NextRound())
        rounds += 1
        assert state.phase == "tribute"
        winners = [s for s in finished if s % 2 == result.team]
        assert [t.receiver for t in state.tributes] == winners[: len(result.caught)]
        assert sorted(t.payer for t in state.tributes) == list(result.caught)
        assert sum(e.kind == "tribute" for e in events) == len(result.caught)
        assert Counter(c for h in state.hands for c in h) == Counter(full_deck(2))
        assert apply(state, Play(state.leader, state.hands[state.leader][:1])).code == (
            "tribute_pending"
        )
    assert rounds == state.round_no and rounds >= 3
    assert state.result.match_winner in (0, 1)
    assert state.result.levels[state.result.match_winner] == 14
    assert apply(state, NextRound()).code == "match_over"
