"""Card power at a round level (RULES.md §2).

Power is a number: the natural value for most faces (2..14), 15 for the level card, 16 for BJ,
17 for RJ, and 14.5 for a non-level 2 under ``two_position=high``. Only comparisons matter.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache

from .cards import ALL_FACES, BLACK_JOKER, FACE, RED_JOKER, SUIT_INDEX, face_name
from .options import Options

LEVEL_POWER = 15
HIGH_TWO_POWER = 14.5


@cache
def power_table(level: int, two_high: bool = False) -> tuple[float, ...]:
    """``table[face]`` is the power of that face at round level ``level`` (§2); length 18."""
    table = [0.0] * 18
    for face in ALL_FACES:
        if face in (BLACK_JOKER, RED_JOKER):
            table[face] = face
        elif face == level:
            table[face] = LEVEL_POWER
        elif face == 2 and two_high:
            table[face] = HIGH_TWO_POWER
        else:
            table[face] = face
    return tuple(table)


def table_for(level: int, options: Options) -> tuple[float, ...]:
    """The power table for a round level under the table's ``two_position`` option."""
    return power_table(level, options.two_position == "high")


def power_order(level: int, options: Options) -> list[str]:
    """Faces from weakest to strongest at ``level`` (§2), e.g. L=7: 2, 3, …, A, 7, BJ, RJ."""
    table = table_for(level, options)
    return [face_name(f) for f in sorted(ALL_FACES, key=table.__getitem__)]


def card_power_key(level: int, options: Options) -> Callable[[str], tuple[float, int]]:
    """A sort key for cards: power at ``level``, then suit S, H, D, C (for the engine's picks)."""
    table = table_for(level, options)
    return lambda card: (table[FACE[card]], SUIT_INDEX[card])


def lowest_card(cards: Iterable[str], level: int, options: Options) -> str:
    """The lowest-power card, first in suit order among equals (§9.4, §10 ``turn_seconds``)."""
    return min(cards, key=card_power_key(level, options))


def highest_card(cards: Iterable[str], level: int, options: Options) -> str:
    """The highest-power card, first in suit order among equals (§9.1)."""
    table = table_for(level, options)
    return min(cards, key=lambda c: (-table[FACE[c]], SUIT_INDEX[c]))
