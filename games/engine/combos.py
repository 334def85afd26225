"""Combinations: classify a set of cards and compare two plays (RULES.md §3, §4).

A ``Combo`` is ``(category, size, key)``: ``size`` is the number of cards; ``key`` orders combos
of one category (power for singles and pairs, top natural value for straights and double
dragons) and, for every bomb, is a tuple ordered across all bombs by §4 and ``bomb_order``.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Any, NamedTuple

from .cards import BLACK_JOKER, FACE, RED_JOKER
from .options import Options
from .power import power_table

SINGLE = "single"
PAIR = "pair"
STRAIGHT = "straight"
DOUBLE_DRAGON = "double_dragon"
KIND_BOMB = "kind_bomb"
JOKER_BOMB = "joker_bomb"
FOUR_ONE_FOUR = "four_one_four"
BOMBS = frozenset({KIND_BOMB, JOKER_BOMB, FOUR_ONE_FOUR})
CATEGORIES = (SINGLE, PAIR, STRAIGHT, DOUBLE_DRAGON, KIND_BOMB, JOKER_BOMB, FOUR_ONE_FOUR)

# §4 tiers: kind bombs lowest; the two top tiers swap under bomb_order=jokers_top.
KIND_TIER = 0
_TOP_TIERS = {"four_one_four_top": (1, 2), "jokers_top": (2, 1)}  # (joker tier, 414 tier)
_JOKER_BOMB_VALUE: dict[tuple[int, ...], int] = {
    (BLACK_JOKER, BLACK_JOKER): 1,
    (BLACK_JOKER, RED_JOKER): 2,
    (RED_JOKER, RED_JOKER): 3,
}


#: A bomb's key: (tier, count, power), ordered across all bombs (§4).
BombKey = tuple[int, int, float]


class Combo(NamedTuple):
    """A classified play: category name, number of cards, and its comparison key."""

    category: str
    size: int
    #: A power (singles, pairs) or top face (sequences), or a ``BombKey`` for every bomb: keys
    #: are compared only between combos that may meet (``beats``), so ``Any``.
    key: Any

    @property
    def is_bomb(self) -> bool:
        return self.category in BOMBS


def ladder_low(options: Options) -> int:
    """The lowest face allowed in a sequence: 3, or 2 under ``two_in_sequences`` (§3)."""
    return 2 if options.twos_in_sequences else 3


def kind_bomb_key(n: int, power: float) -> BombKey:
    """§4.1: more cards beat fewer; at equal count, higher power wins."""
    return (KIND_TIER, n, power)


def joker_bomb_key(faces: tuple[int, ...], bomb_order: str) -> BombKey:
    """§4.2: BJ+BJ < BJ+RJ < RJ+RJ, above every kind bomb."""
    return (_TOP_TIERS[bomb_order][0], _JOKER_BOMB_VALUE[faces], 0)


def four_one_four_key(bomb_order: str) -> BombKey:
    """§4.3: 4-4-A, the highest bomb (below joker bombs under ``jokers_top``)."""
    return (_TOP_TIERS[bomb_order][1], 0, 0)


def classify(cards: Iterable[str], level: int, options: Options) -> Combo | None:
    """Classify cards (notation strings) at round ``level``; None when no valid combination."""
    faces = tuple(sorted(FACE[c] for c in cards))
    return classify_faces(
        faces, level, options.two_position == "high", ladder_low(options), options.bomb_order
    )


@lru_cache(maxsize=65536)
def classify_faces(
    faces: tuple[int, ...], level: int, two_high: bool, low: int, bomb_order: str
) -> Combo | None:
    """Classify a sorted tuple of ranks (the cached core of ``classify``)."""
    n = len(faces)
    if n == 0:
        return None
    power = power_table(level, two_high)
    first, last = faces[0], faces[-1]
    jokers = sum(1 for f in faces if f >= BLACK_JOKER)
    if jokers:
        if n == 1:
            return Combo(SINGLE, 1, power[first])
        if n == 2 and jokers == 2:
            return Combo(JOKER_BOMB, 2, joker_bomb_key(faces, bomb_order))
        return None
    if first == last:
        if n == 1:
            return Combo(SINGLE, 1, power[first])
        if n == 2:
            return Combo(PAIR, 2, power[first])
        return Combo(KIND_BOMB, n, kind_bomb_key(n, power[first]))
    if faces == (4, 4, 14):
        return Combo(FOUR_ONE_FOUR, 3, four_one_four_key(bomb_order))
    if first < low:
        return None
    if n >= 3 and faces == tuple(range(first, first + n)):
        return Combo(STRAIGHT, n, last)
    if n >= 6 and n % 2 == 0:
        half = faces[::2]
        if faces[1::2] == half and half == tuple(range(first, first + n // 2)):
            return Combo(DOUBLE_DRAGON, n, last)
    return None


def beats(play: Combo, top: Combo) -> bool:
    """Whether ``play`` may be played on ``top`` (§4, §5).

    A bomb beats any non-bomb and a strictly lower bomb; any other play must match the top's
    category and size with a higher key.
    """
    if play.category in BOMBS:
        return top.category not in BOMBS or play.key > top.key
    return play.category == top.category and play.size == top.size and play.key > top.key
