"""RULES.md §11: every worked example, one test each (4 players and 2 decks unless stated)."""

from __future__ import annotations

import itertools

from games.engine import Hook as HookAction
from games.engine import NextRound, Options, Pass, Play, Return, Timeout, Unhook
from games.engine.cards import FACE, SUITS, face_name
from games.engine.combos import beats, classify
from games.engine.deal import deal_hands, round_rng
from games.engine.events import Hooked, Led, TrickWon
from games.engine.power import power_table
from games.engine.state import RoundResult
from games.engine.tribute import legal_returns, plan_tributes

from .helpers import cards, lv, of_type, ok, run, table, types


def combo(text: str, level: str, **options):
    found = classify(cards(text), lv(level), Options(**options))
    assert found is not None, text
    return found


def wins(play: str, top: str, level: str, **options) -> bool:
    return beats(combo(play, level, **options), combo(top, level, **options))


def test_example_1_straights_at_level_5():
    """§11.1: at L = 5, 3-4-5, 4-5-6 and 5-6-7 are straights; 4-5-6 beats 3-4-5; 5-6-7-8 cannot
    follow 4-5-6; K-A-2, A-2-3, 2-3-4 are invalid; J-Q-K-A is a 4-card straight."""
    for text in ("3S 4H 5D", "4S 5H 6D", "5S 6H 7D"):
        assert combo(text, "5").category == "straight"
    assert wins("4S 5H 6D", "3S 4H 5D", "5")
    assert not wins("5S 6H 7D 8C", "4S 5H 6D", "5")
    for text in ("KS AH 2D", "AS 2H 3D", "2S 3H 4D"):
        assert classify(cards(text), 5, Options()) is None
    jqka = combo("JS QH KD AC", "5")
    assert (jqka.category, jqka.size) == ("straight", 4)


def test_example_2_singles_at_level_7():
    """§11.2: at L = 7, 7 beats A; a 3 beats a 2."""
    assert wins("7S", "AS", "7")
    assert not wins("AS", "7S", "7")
    assert wins("3S", "2S", "7")


def test_example_3_twos_at_level_2():
    """§11.3: at L = 2, 2222 beats AAAA; 33333 beats 2222; 2222 does not beat 33333."""
    assert wins("2S 2H 2D 2C", "AS AH AD AC", "2")
    assert wins("3S 3H 3D 3C 3S", "2S 2H 2D 2C", "2")
    assert not wins("2S 2H 2D 2C", "3S 3H 3D 3C 3S", "2")


def test_example_4_kind_bombs_by_size():
    """§11.4: 555 beats pair A-A; 5555 beats 555; every 4-card bomb beats every 3-card bomb (at
    every level)."""
    assert wins("5S 5H 5D", "AS AH", "2")
    assert wins("5S 5H 5D 5C", "5S 5H 5D", "2")
    for level in ("2", "5", "A"):
        for four, three in itertools.product(range(2, 15), repeat=2):
            bomb4 = " ".join(face_name(four) + s for s in SUITS)
            bomb3 = " ".join(face_name(three) + s for s in SUITS[:3])
            assert wins(bomb4, bomb3, level), (bomb4, bomb3, level)


def test_example_5_joker_bombs():
    """§11.5: BJ+BJ beats 88888888; BJ+RJ beats BJ+BJ; RJ+RJ beats BJ+RJ; BJ+RJ does not beat
    BJ+RJ."""
    eights = "8S 8S 8H 8H 8D 8D 8C 8C"
    assert combo(eights, "2").category == "kind_bomb"
    assert wins("BJ BJ", eights, "2")
    assert wins("BJ RJ", "BJ BJ", "2")
    assert wins("RJ RJ", "BJ RJ", "2")
    assert not wins("BJ RJ", "BJ RJ", "2")


def test_example_6_four_one_four():
    """§11.6: 4-4-A beats 666666 and RJ+RJ; it does not beat another 4-4-A. At L = 4 a plain 4-4
    is a pair above A-A."""
    assert wins("4S 4H AD", "6S 6S 6H 6H 6D 6D", "2")
    assert wins("4S 4H AD", "RJ RJ", "2")
    assert not wins("4S 4H AD", "4D 4C AS", "2")
    assert combo("4S 4H", "4").category == "pair"
    assert wins("4S 4H", "AS AH", "4")


SEVEN = ("9S 9H KC", "9D 9C QC", "9S 5C", "9H 9D 9C 8D")


def _example_7_to_last_window():
    state = table(*SEVEN)
    state, events = run(state, Play(0, ("9S",)), HookAction(1, ("9D", "9C")))
    assert of_type(events, "hook")[0].seat == 1
    assert state.window[:3] == (1, 9, "unhook")
    state, events = ok(state, Unhook(2, ("9S",)))
    assert of_type(events, "unhook")[0].seat == 2
    assert state.window[:3] == (2, 9, "hook")
    state, events = ok(state, HookAction(3, ("9H", "9D")))
    assert of_type(events, "hook")[0].seat == 3
    assert state.window[:4] == (3, 9, "unhook", True)
    return state


def test_example_7_hook_chain_of_the_eight_nines():
    """§11.7: seat 0 leads a 9 → seat 1 hooks (nearest, decisive at once) → seat 2 unhooks →
    seat 3 hooks → seats 0, 1 and 2 pass (or the window expires) → seat 3 leads anything."""
    state = _example_7_to_last_window()
    passed, events = run(state, Pass(0), Pass(1), Pass(2))
    assert events[-1] == TrickWon(seat=3, leader=3)
    assert (passed.turn, passed.top) == (3, None)
    expired, events = ok(state, Timeout())
    assert types(events) == ["window_expired", "window_closed", "trick_won"]
    assert (expired.turn, expired.top) == (3, None)
    assert [len(h) for h in expired.hands] == [2, 1, 1, 2]


def test_example_8_hook_after_a_follow():
    """§11.8: seat 1 leads a 6, nobody hooks; seat 2 plays an 8; seat 3 hooks with 8-8; nobody
    unhooks → seat 3 leads."""
    state = table("3S KC", "6S 4C", "8S 5C", "8H 8D 7C", leader=1)
    state, events = run(state, Play(1, ("6S",)), Pass(2), Pass(3), Pass(0))
    assert (state.phase, state.turn) == ("play", 2)
    state, events = run(state, Play(2, ("8S",)), HookAction(3, ("8H", "8D")))
    assert of_type(events, "hook") == [Hooked(seat=3, cards=("8H", "8D"), owner=2)]
    state, events = run(state, Pass(0), Pass(1), Pass(2))
    assert events[-1] == TrickWon(seat=3, leader=3)
    assert state.turn == 3


def test_example_9_teammate_leads_after_going_out():
    """§11.9: seat 0 plays its last two cards K-K; seats 1, 2, 3 pass → seat 2 (teammate)
    leads."""
    state = table("KS KH", "5S 5H 6C", "7S 7H QC", "4S 4H QD")
    state, events = run(state, Play(0, cards("KS KH")), Pass(1), Pass(2), Pass(3))
    assert state.finished == (0,)
    assert events[-1] == TrickWon(seat=0, leader=2)
    assert state.turn == 2


def test_example_10_finish_order_2_1_0_and_tribute():
    """§11.10: finish order 2, 1, 0: team 0 done, seat 3 caught, team 0 goes 3 → 4; next round
    at L = 4; seat 3 gives its highest card (its 4 if it has no joker) to seat 2, receives a card
    of face 2–9, and leads."""
    state = table("RJ RJ", "BJ BJ", "6S 6H", "8S 8H 6C", level="3", levels=("3", "3"), leader=2)
    state, events = run(
        state,
        Play(2, cards("6S 6H")),
        Pass(3),
        Pass(0),
        Play(1, cards("BJ BJ")),
        Pass(3),
        Pass(0),
        Play(3, cards("8S 8H")),
        Play(0, cards("RJ RJ")),
    )
    assert state.finished == (2, 1, 0)
    assert state.result == RoundResult(0, (3,), (4, 3), 4, None)
    nxt, events = ok(state, NextRound())
    assert (nxt.level, nxt.dealer, nxt.phase) == (4, 2, "tribute")
    dealt = deal_hands(nxt.options, round_rng(nxt.seed, 2), 2)
    (tribute,) = nxt.tributes
    assert (tribute.payer, tribute.receiver) == (3, 2)
    power = power_table(4)
    assert power[FACE[tribute.card]] == max(power[FACE[c]] for c in dealt[3])
    if not {"BJ", "RJ"} & set(dealt[3]) and any(FACE[c] == 4 for c in dealt[3]):
        assert FACE[tribute.card] == 4
    jokerless = cards("4H 4S AS KC 9D 3C")
    assert (
        plan_tributes([("3S",), ("3S",), ("3S",), jokerless], 4, (2, 1, 0), (3,), Options())[0][
            0
        ].card
        == "4S"
    )
    back = legal_returns(nxt.hands[2], 4, nxt.options)[0]
    assert 2 <= FACE[back] <= 9
    played, events = ok(nxt, Return(2, back))
    assert events[-1] == Led(seat=3)
    assert played.turn == 3
    assert back in played.hands[3]


def test_example_11_six_players():
    """§11.11: six players (teams 0,2,4 / 1,3,5): finish order 0, 3, 2, 4 → seats 1, 5 caught,
    team 0 goes 6 → 8. The higher tribute goes to seat 0, the other to seat 2; seat 4 receives
    none."""
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
    assert state.finished == (0, 3, 2, 4)
    assert state.result == RoundResult(0, (1, 5), (8, 3), 8, None)
    nxt, _ = ok(state, NextRound())
    assert nxt.level == 8
    high, low = nxt.tributes
    assert (high.receiver, low.receiver) == (0, 2)
    assert {high.payer, low.payer} == {1, 5}
    power = power_table(8)
    assert power[FACE[high.card]] >= power[FACE[low.card]]
    assert all(t.receiver != 4 for t in nxt.tributes)


def _catch(levels, both: bool):
    if both:
        state = table("6S 6H", "5S 5H 6C", "BJ BJ", "4S 4H QD", level=levels[0], levels=levels)
        return run(state, Play(0, cards("6S 6H")), Pass(1), Play(2, cards("BJ BJ")))[0]
    state = table("6S 6H", "BJ BJ", "RJ RJ", "8S 8H 6C", level=levels[0], levels=levels)
    return run(
        state,
        Play(0, cards("6S 6H")),
        Play(1, cards("BJ BJ")),
        Pass(2),
        Pass(3),
        Play(3, cards("8S 8H")),
        Play(2, cards("RJ RJ")),
    )[0]


def test_example_12_levels_at_the_top():
    """§11.12: a team at A catching 1 of 2 opponents: nothing changes. Catching both: it wins
    the match. A team at K that catches 2 rises to A but has not won."""
    one = _catch(("A", "9"), both=False)
    assert one.result == RoundResult(0, (3,), (14, 9), 14, None)
    assert one.phase == "round_over"
    both = _catch(("A", "9"), both=True)
    assert both.result == RoundResult(0, (1, 3), (14, 9), None, 0)
    assert both.phase == "match_over"
    king = _catch(("K", "9"), both=True)
    assert king.result == RoundResult(0, (1, 3), (14, 9), 14, None)
    assert king.phase == "round_over"


def test_example_13_two_players_one_deck():
    """§11.13: two players, one deck: seat 0 plays a single 3; seat 1 hooks with 3-3; seat 0
    unhooks with the last 3; seat 1 passes the next window → seat 0 leads. The first seat out
    catches the other."""
    state = table("3S 3D 5H", "3H 3C 7S")
    assert state.options.decks == 1
    state, events = run(state, Play(0, ("3S",)), HookAction(1, ("3H", "3C")), Unhook(0, ("3D",)))
    assert state.window[:4] == (0, 3, "hook", True)
    state, events = ok(state, Pass(1))
    assert events[-1] == TrickWon(seat=0, leader=0)
    state, events = ok(state, Play(0, ("5H",)))
    assert state.finished == (0,)
    assert state.result == RoundResult(0, (1,), (3, 2), 3, None)
    assert events[-1].kind == "round_over"
