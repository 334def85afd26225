"""RULES.md §3 (combinations) and §4 (bombs), with both ``bomb_order`` options."""

from __future__ import annotations

import pytest

from games.engine import Options
from games.engine.combos import beats, classify

from .helpers import cards, lv


def category(text: str, level: str = "2", **options) -> str | None:
    combo = classify(cards(text), lv(level), Options(**options))
    return combo.category if combo else None


def wins(play: str, top: str, level: str = "2", **options) -> bool:
    """Whether ``play`` may be played on ``top`` (both must be valid combinations here)."""
    opts = Options(**options)
    p, t = classify(cards(play), lv(level), opts), classify(cards(top), lv(level), opts)
    assert p is not None and t is not None, (play, top)
    return beats(p, t)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("3H", "single"),
        ("BJ", "single"),
        ("RJ", "single"),
        ("3H 3S", "pair"),
        ("AS AS", "pair"),
        ("3H 4H", None),
        ("3H 4H 5H", "straight"),
        ("5C 3H 4D", "straight"),
        ("10S JS QS KS AS", "straight"),
        ("3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS", "straight"),
        ("QS KS AS", "straight"),
        ("KS AS 2S", None),
        ("AS 2S 3S", None),
        ("2S 3S 4S", None),
        ("3S 4S 4H 5S", None),
        ("3S 5S 6S", None),
        ("3S 3H 4S 4H 5S 5H", "double_dragon"),
        ("3S 3H 4S 4H 5S 5H 6S 6H", "double_dragon"),
        ("QS QH KS KH AS AH", "double_dragon"),
        ("3S 3H 4S 4H", None),
        ("KS KH AS AH 2S 2H", None),
        ("2S 2H 3S 3H 4S 4H", None),
        ("3S 3H 4S 4H 5S", None),
        ("3S 3H 3D 4S 4H 5S 5H", None),
        ("3S 3H 3D", "kind_bomb"),
        ("2S 2H 2D 2C", "kind_bomb"),
        ("8S 8S 8H 8H 8D 8D 8C 8C", "kind_bomb"),
        ("3S 3H 3D 4S", None),
        ("BJ BJ", "joker_bomb"),
        ("BJ RJ", "joker_bomb"),
        ("RJ RJ", "joker_bomb"),
        ("BJ BJ RJ", None),
        ("RJ RJ RJ", None),
        ("BJ 3S", None),
        ("BJ 3S 3H", None),
        ("4S 4H AS", "four_one_four"),
        ("4C 4C AD", "four_one_four"),
        ("4S AS AH", None),
        ("4S 4H 4D AS", None),
        ("", None),
    ],
)
def test_classify(text, expected):
    """§3: single, pair (non-joker), straight and double dragon on the 3..A ladder, 3+ of a kind is
    a kind bomb, two jokers a joker bomb (never a pair), 4-4-A the 414; anything else invalid."""
    assert category(text) == expected


def test_three_or_more_jokers_are_never_valid_even_with_many_decks():
    """Three or more jokers together are never a combination (§3)."""
    for text in ("BJ BJ BJ", "BJ RJ RJ", "BJ BJ RJ RJ"):
        assert category(text, players=8) is None


def test_the_level_card_keeps_its_natural_place_in_sequences():
    """At L = 5, 4-5-6 is a straight and 44-55-66 a double dragon (§3)."""
    assert category("4S 5S 6H", level="5") == "straight"
    assert category("4S 4H 5S 5H 6S 6H", level="5") == "double_dragon"
    assert category("AS 2S 3S", level="A") is None


def test_two_in_sequences_puts_2_below_3():
    """Option two_in_sequences: 2-3-4 and 22-33-44 are sequences; A-2-3 still is not (§3)."""
    assert category("2S 3H 4D", two_in_sequences=True) == "straight"
    assert category("2S 2H 3S 3H 4S 4H", two_in_sequences=True) == "double_dragon"
    assert category("AS 2S 3S", two_in_sequences=True) is None
    assert category("KS AS 2S", two_in_sequences=True) is None
    assert wins("3S 4S 5S", "2S 3H 4D", two_in_sequences=True)
    assert not wins("2S 3H 4D", "3S 4S 5S", two_in_sequences=True)


def test_two_in_sequences_has_no_effect_when_two_is_high():
    """With two_position=high, two_in_sequences does not let 2 into a sequence (§3)."""
    assert category("2S 3H 4D", two_in_sequences=True, two_position="high") is None
    opts = dict(two_in_sequences=True, two_position="high")
    assert category("2S 2H 3S 3H 4S 4H", **opts) is None


@pytest.mark.parametrize(
    ("play", "top", "level", "expected"),
    [
        ("4S", "3S", "2", True),
        ("3S", "3H", "2", False),
        ("3S", "AS", "2", False),
        ("2S", "AS", "2", True),
        ("BJ", "2S", "2", True),
        ("RJ", "BJ", "2", True),
        ("BJ", "RJ", "2", False),
        ("5S 5H", "4S 4H", "2", True),
        ("5S 5H", "4S", "2", False),
        ("5S", "4S 4H", "2", False),
        ("4S 5S 6S", "3S 4S 5S", "2", True),
        ("3S 4S 5S", "4S 5S 6S", "2", False),
        ("4S 5S 6S 7S", "3S 4S 5S", "2", False),
        ("QS KS AS", "JS QS KS", "K", True),
        ("4S 4H 5S 5H 6S 6H", "3S 3H 4S 4H 5S 5H", "2", True),
        ("4S 4H 5S 5H 6S 6H 7S 7H", "3S 3H 4S 4H 5S 5H", "2", False),
        ("3S 3H 3D", "AS AH", "2", True),
        ("3S 3H 3D", "10S JS QS KS AS", "2", True),
        ("AS AH", "3S 3H 3D", "2", False),
        ("5S 5H 5D 5C", "5S 5H 5D 5C", "2", False),
        ("6S 6H 6D", "5S 5H 5D", "2", True),
        ("5S 5H 5D", "6S 6H 6D", "5", True),
        ("5S 5H 5D", "6S 6H 6D", "6", False),
    ],
)
def test_beats(play, top, level, expected):
    """§4, §5: same category and length with a higher key, or any bomb over a non-bomb; a bomb
    beats another only if strictly higher."""
    assert wins(play, top, level) is expected


KIND_LADDER = [
    "3S 3H 3D",
    "AS AH AD",
    "2S 2H 2D",
    "3S 3H 3D 3C",
    "3S 3H 3D 3C 3S",
    "3S 3H 3D 3C 3S 3H 3D 3C",
]
TOP = ["BJ BJ", "BJ RJ", "RJ RJ", "4S 4H AS"]


def _ladder(order: list[str], **options) -> None:
    """Every bomb of ``order`` beats exactly the ones before it."""
    for i, higher in enumerate(order):
        for j, lower in enumerate(order):
            assert wins(higher, lower, **options) is (i > j), (higher, lower, options)


def test_bomb_order_four_one_four_top():
    """Default bomb_order: kind bombs (more cards, then power) < BJ+BJ < BJ+RJ < RJ+RJ < 414;
    equal bombs never beat each other (§4). Played at L = 2 (players=8 for 8 copies)."""
    _ladder(KIND_LADDER + TOP, players=8)


def test_bomb_order_jokers_top():
    """bomb_order=jokers_top: kind bombs < 414 < joker bombs (§4)."""
    _ladder(
        KIND_LADDER + ["4S 4H AS", "BJ BJ", "BJ RJ", "RJ RJ"], players=8, bomb_order="jokers_top"
    )


def test_414_is_a_bomb_whatever_the_level():
    """4-4-A is the 414 at any level, even when 4 or A is the level card (§4)."""
    for level in ("2", "4", "A"):
        assert category("4S 4H AS", level=level) == "four_one_four"


def test_higher_power_wins_between_kind_bombs_of_equal_size():
    """At equal count higher power wins: at L = 2, 2222 beats AAAA, not at L = 7 unless 2 is
    high, and never above the level card's bomb (§2, §4)."""
    assert wins("2S 2H 2D 2C", "AS AH AD AC", "2")
    assert not wins("2S 2H 2D 2C", "AS AH AD AC", "7")
    assert wins("2S 2H 2D 2C", "AS AH AD AC", "7", two_position="high")
    assert not wins("2S 2H 2D 2C", "7S 7H 7D 7C", "7", two_position="high")
