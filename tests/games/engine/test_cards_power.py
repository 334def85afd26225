"""RULES.md §0–§2: card notation, decks, setup and card power at a round level."""

from __future__ import annotations

from collections import Counter

import pytest

from games.engine import Options, OptionsError, new_match
from games.engine.cards import (
    DECK,
    CardError,
    face_counts,
    face_name,
    full_deck,
    parse_card,
    parse_cards,
    parse_face,
    remove_cards,
    sort_cards,
)
from games.engine.deal import deal_hands, round_rng
from games.engine.power import highest_card, lowest_card, power_order, power_table
from games.engine.state import team_of

# --- §0 notation --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("10S", "10S"),
        ("TS", "10S"),
        ("th", "10H"),
        ("qd", "QD"),
        (" 3h ", "3H"),
        ("AC", "AC"),
        ("2S", "2S"),
        ("BJ", "BJ"),
        ("rj", "RJ"),
    ],
)
def test_parse_card_normalises_notation(text, card):
    """Card strings are face then suit; "T" is ten on input, ten prints as "10" (§0)."""
    assert parse_card(text) == card


@pytest.mark.parametrize(
    "text",
    ["1S", "11S", "QX", "10", "S", "", "JJ", "B", "TJ", "10SS", "14S", "3 S", "XJ", None, 3, "♠A"],
)
def test_bad_card_strings_raise_card_error(text):
    """Anything outside the notation of §0 raises CardError (a ValueError), never KeyError."""
    with pytest.raises(CardError):
        parse_card(text)


def test_parse_cards_refuses_a_bare_string_and_bad_members():
    """A hand is a list of card strings: a bare string, or a list with a bad card, is refused."""
    assert parse_cards(["ts", "BJ"]) == ("10S", "BJ")
    with pytest.raises(CardError):
        parse_cards("3S")
    with pytest.raises(CardError):
        parse_cards(["3S", "1S"])


@pytest.mark.parametrize(
    ("text", "rank"),
    [
        ("2", 2),
        ("7", 7),
        ("10", 10),
        ("T", 10),
        ("J", 11),
        ("Q", 12),
        ("K", 13),
        ("A", 14),
        ("BJ", 16),
        ("RJ", 17),
    ],
)
def test_faces_have_their_natural_values(text, rank):
    """Faces parse to their natural value (§2): J=11, Q=12, K=13, A=14; BJ=16, RJ=17."""
    assert parse_face(text) == rank
    assert face_name(rank) == ("10" if text == "T" else text)


@pytest.mark.parametrize("text", ["1", "11", "14", "X", "", "10S", "JK"])
def test_bad_faces_raise_card_error(text):
    """A face name outside 2–10, J, Q, K, A, T, BJ, RJ raises CardError."""
    with pytest.raises(CardError):
        parse_face(text)


def test_a_deck_is_54_distinct_cards():
    """A deck holds the 52 suited cards plus BJ and RJ, each once (§0)."""
    assert len(DECK) == 54
    assert len(set(DECK)) == 54
    assert DECK[:5] == ("2S", "2H", "2D", "2C", "3S")
    assert DECK[-3:] == ("AC", "BJ", "RJ")


@pytest.mark.parametrize("decks", [1, 2, 3, 4])
def test_several_decks_hold_identical_copies(decks):
    """With D decks every card string appears exactly D times (§0, §1)."""
    deck = full_deck(decks)
    assert len(deck) == 54 * decks
    assert set(Counter(deck).values()) == {decks}


def test_sort_cards_is_face_then_suit_order_with_jokers_last():
    """Canonical order: natural face, then suit S, H, D, C; BJ then RJ last."""
    assert sort_cards(["RJ", "3C", "AS", "10H", "3S", "BJ", "2D"]) == (
        "2D",
        "3S",
        "3C",
        "10H",
        "AS",
        "BJ",
        "RJ",
    )


def test_remove_cards_works_on_multisets():
    """Removing cards takes one copy per card named; more copies than held is None."""
    assert remove_cards(("3S", "3S", "4H"), ("3S",)) == ("3S", "4H")
    assert remove_cards(("3S", "4H"), ("3S", "3S")) is None
    assert face_counts(("3S", "3H", "BJ"))[3] == 2


# --- §1 setup -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "decks"), [(2, 1), (4, 2), (6, 3), (8, 4)])
def test_default_decks_are_players_over_two(players, decks):
    """D = N/2 by default: 2 players → 1 deck, 4 → 2, 6 → 3, 8 → 4 (§1)."""
    assert Options(players=players).decks == decks


@pytest.mark.parametrize("players", [0, 1, 3, 5, -2])
def test_players_must_be_even_and_at_least_two(players):
    """N is even and ≥ 2 (§1)."""
    with pytest.raises(OptionsError):
        Options(players=players)


@pytest.mark.parametrize(
    "values",
    [
        {"decks": True},
        {"decks": False},
        {"decks": -1},
        {"decks": 1.0},
        {"players": True},
        {"players": 4.0},
        {"target_level": 2},
        {"target_level": 15},
        {"target_level": True},
        {"target_level": 14.0},
        {"two_position": "middle"},
        {"bomb_order": "jokers_bottom"},
        {"lead_after_out": "anyone"},
        {"first_lead": "dealer"},
        {"joker_hook": 1},
        {"anti_tribute": "yes"},
        {"claim_window_seconds": -1},
        {"claim_window_seconds": True},
        {"turn_seconds": "30"},
        {"no_such_option": 1},
    ],
)
def test_options_outside_section_10_are_refused(values):
    """Table options take only the values of §10 (and decks a positive whole number, §1): a
    bool is no deck count or level, a float level is no level, unknown names are refused."""
    with pytest.raises(OptionsError):
        Options.from_dict(values)


def test_options_round_trip_through_json_names():
    """Options.from_dict reads §10's JSON names (target_level as a face) and to_dict inverts it."""
    options = Options.from_dict({"target_level": "K", "bomb_order": "jokers_top"}, players=6)
    assert (options.players, options.decks, options.target_level) == (6, 3, 13)
    assert options.to_dict()["target_level"] == "K"
    assert Options.from_dict(options.to_dict()) == options
    assert Options(players=4, decks=1).decks == 1


@pytest.mark.parametrize("players", [2, 4, 6, 8])
def test_new_match_deals_27_each_from_the_whole_deck(players):
    """Round 1: all D·54 cards dealt, 27 each by default, both teams at level 2 (§1)."""
    state = new_match(Options(players=players), seed=11)
    assert [len(h) for h in state.hands] == [27] * players
    assert Counter(c for h in state.hands for c in h) == Counter(full_deck(players // 2))
    assert state.level == 2
    assert state.levels == (2, 2)
    assert state.round_no == 1
    assert state.version == 0
    assert state.phase == "play"
    assert state.turn == state.leader
    assert 0 <= state.dealer < players


def test_remainder_goes_to_the_first_seats_in_deal_order():
    """Four players and one deck: 54 = 4·13 + 2, so the two seats left of the dealer get 14."""
    options = Options(players=4, decks=1)
    for dealer in range(4):
        hands = deal_hands(options, round_rng(3, 1), dealer)
        sizes = [len(h) for h in hands]
        assert sizes[(dealer + 1) % 4] == 14
        assert sizes[(dealer + 2) % 4] == 14
        assert sizes[(dealer + 3) % 4] == 13
        assert sizes[dealer] == 13


def test_same_seed_deals_the_same_match_and_another_seed_does_not():
    """Randomness is an input: one seed, one deal; a different seed deals differently."""
    options = Options(players=4)
    assert new_match(options, 42) == new_match(options, 42)
    assert new_match(options, 42).hands != new_match(options, 43).hands


def test_teams_are_seat_parity():
    """Team 0 holds the even seats, team 1 the odd ones (§0)."""
    assert [team_of(s) for s in range(8)] == [0, 1, 0, 1, 0, 1, 0, 1]


# --- §2 power -----------------------------------------------------------------------------------

LOW = Options()
HIGH = Options(two_position="high")


@pytest.mark.parametrize(
    ("level", "options", "order"),
    [
        (2, LOW, "3 4 5 6 7 8 9 10 J Q K A 2 BJ RJ"),
        (7, LOW, "2 3 4 5 6 8 9 10 J Q K A 7 BJ RJ"),
        (10, LOW, "2 3 4 5 6 7 8 9 J Q K A 10 BJ RJ"),
        (14, LOW, "2 3 4 5 6 7 8 9 10 J Q K A BJ RJ"),
        (2, HIGH, "3 4 5 6 7 8 9 10 J Q K A 2 BJ RJ"),
        (7, HIGH, "3 4 5 6 8 9 10 J Q K A 2 7 BJ RJ"),
        (14, HIGH, "3 4 5 6 7 8 9 10 J Q K 2 A BJ RJ"),
    ],
)
def test_power_order(level, options, order):
    """Power at level L: natural value, the level card above A, jokers on top; 2 lowest unless
    L = 2; two_position=high puts a non-level 2 above A and below the level card (§2)."""
    assert power_order(level, options) == order.split()


def test_power_values():
    """RJ = 17, BJ = 16, the level card 15, others natural; a high 2 is 14.5 (§2)."""
    table = power_table(7)
    assert (table[17], table[16], table[7], table[14], table[2], table[3]) == (17, 16, 15, 14, 2, 3)
    assert power_table(7, True)[2] == 14.5
    assert power_table(2, True)[2] == 15


def test_highest_and_lowest_card_pick_the_first_copy_in_suit_order():
    """The engine's picks: by power, and among equal copies first in suit order S, H, D, C."""
    hand = ("3C", "3H", "5D", "7D", "7H", "AS")
    assert lowest_card(hand, 7, LOW) == "3H"
    assert highest_card(hand, 7, LOW) == "7H"
    assert highest_card(hand + ("BJ",), 7, LOW) == "BJ"
    assert lowest_card(("2D", "3C", "KS"), 7, HIGH) == "3C"
    assert lowest_card(("2D", "3C", "KS"), 7, LOW) == "2D"
