"""Move generation from rank counts: every distinct combination a hand can make (§3, §4).

One entry per distinct combination of ranks, with a canonical choice of physical cards: for each
face, its copies in suit order S, H, D, C (the hand is kept sorted that way). Sequences run on the
natural ladder 3..A (2..A under ``two_in_sequences``). Generation works on the hand's cards grouped
by face, never on a table of every possible play.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache

from .cards import BLACK_JOKER, FACE, RED_JOKER
from .combos import (
    BOMBS,
    DOUBLE_DRAGON,
    FOUR_ONE_FOUR,
    JOKER_BOMB,
    KIND_BOMB,
    PAIR,
    SINGLE,
    STRAIGHT,
    Combo,
    four_one_four_key,
    joker_bomb_key,
    kind_bomb_key,
    ladder_low,
)
from .options import Options
from .power import table_for

NO_KEY = -1  # below every key: "anything of this category"
_NO_BOMB: tuple[float, ...] = (-1,)
#: Generated plays: canonical cards and their combination.
Found = list[tuple[tuple[str, ...], Combo]]
Groups = dict[int, list[str]]
Power = tuple[float, ...]


def group_by_face(hand: Iterable[str]) -> Groups:
    """``{face: [cards in suit order]}`` for a canonically sorted hand."""
    groups: dict[int, list[str]] = {}
    for card in hand:
        face = FACE[card]
        group = groups.get(face)
        if group is None:
            groups[face] = [card]
        else:
            group.append(card)
    return groups


def leads(hand: Iterable[str], level: int, options: Options) -> Found:
    """Every combination the hand can lead, with its canonical cards."""
    groups = group_by_face(hand)
    power = table_for(level, options)
    found: Found = []
    _singles(groups, power, NO_KEY, found)
    _pairs(groups, power, NO_KEY, found)
    low = ladder_low(options)
    _runs(groups, low, 1, range(3, 15), NO_KEY, found)
    _runs(groups, low, 2, range(3, 15), NO_KEY, found)
    _bombs(groups, power, options, _NO_BOMB, found)
    return found


def follows(hand: Iterable[str], top: Combo, level: int, options: Options) -> Found:
    """Every combination of the hand that beats ``top`` (§4, §5)."""
    groups = group_by_face(hand)
    power = table_for(level, options)
    found: Found = []
    category = top.category
    if category in BOMBS:
        _bombs(groups, power, options, top.key, found)
        return found
    if category == SINGLE:
        _singles(groups, power, top.key, found)
    elif category == PAIR:
        _pairs(groups, power, top.key, found)
    elif category == STRAIGHT:
        _runs(groups, ladder_low(options), 1, (top.size,), top.key, found)
    elif category == DOUBLE_DRAGON:
        _runs(groups, ladder_low(options), 2, (top.size // 2,), top.key, found)
    _bombs(groups, power, options, _NO_BOMB, found)
    return found


def _singles(groups: Groups, power: Power, above: float, found: Found) -> None:
    for face, cards in groups.items():
        p = power[face]
        if p > above:
            found.append(((cards[0],), _combo(SINGLE, 1, p)))


def _pairs(groups: Groups, power: Power, above: float, found: Found) -> None:
    for face, cards in groups.items():
        if len(cards) >= 2 and face < BLACK_JOKER:
            p = power[face]
            if p > above:
                found.append(((cards[0], cards[1]), _combo(PAIR, 2, p)))


def _runs(
    groups: Groups, low: int, width: int, lengths: Iterable[int], above: float, found: Found
) -> None:
    """Sequences of ``width`` cards per face (1 straight, 2 double dragon) for each length in
    ``lengths`` (in faces, ascending), whose top face is above ``above``: shortest first, then
    lowest."""
    category = STRAIGHT if width == 1 else DOUBLE_DRAGON
    stretches = _stretches(groups, low, width)
    longest = max((faces for _, faces, _ in stretches), default=0)
    for length in lengths:
        if length > longest:
            break
        size = length * width
        for first, faces, cards in stretches:
            for top in range(first + length - 1, first + faces):
                if top > above:
                    start = (top - length + 1 - first) * width
                    found.append((cards[start : start + size], _combo(category, size, top)))


def _stretches(groups: Groups, low: int, width: int) -> list[tuple[int, int, tuple[str, ...]]]:
    """The hand's longest stretches of at least 3 consecutive faces, ``low`` up to A, that hold
    ``width`` cards each: ``(first face, number of faces, the first width cards of each face)``."""
    stretches: list[tuple[int, int, tuple[str, ...]]] = []
    cards: list[str] = []
    for face in range(low, 16):  # 15 (no such face) closes a stretch that reaches A
        group = groups.get(face)
        if group is not None and len(group) >= width:
            cards += group[:width]
        elif cards:
            faces = len(cards) // width
            if faces >= 3:
                stretches.append((face - faces, faces, tuple(cards)))
            cards = []
    return stretches


def _bombs(
    groups: Groups, power: Power, options: Options, above: tuple[float, ...], found: Found
) -> None:
    for face, cards in groups.items():
        if face < BLACK_JOKER and len(cards) >= 3:
            p = power[face]
            for n in range(3, len(cards) + 1):
                combo = _kind_bomb(n, p)
                if combo.key > above:
                    found.append((tuple(cards[:n]), combo))
    black: Sequence[str] = groups.get(BLACK_JOKER, ())
    red: Sequence[str] = groups.get(RED_JOKER, ())
    if len(black) + len(red) >= 2:
        for pair in _joker_pairs(black, red):
            combo = _joker_bomb(FACE[pair[0]], FACE[pair[1]], options.bomb_order)
            if combo.key > above:
                found.append((pair, combo))
    fours: Sequence[str] = groups.get(4, ())
    aces: Sequence[str] = groups.get(14, ())
    if len(fours) >= 2 and aces:
        combo = _four_one_four(options.bomb_order)
        if combo.key > above:
            found.append(((fours[0], fours[1], aces[0]), combo))


# Combos are immutable values from a small set, so generation shares one object per value:
# a cache lookup costs about a third of building a NamedTuple.


@cache
def _combo(category: str, size: int, key: float) -> Combo:
    return Combo(category, size, key)


@cache
def _kind_bomb(n: int, power: float) -> Combo:
    return Combo(KIND_BOMB, n, kind_bomb_key(n, power))


@cache
def _joker_bomb(first: int, second: int, bomb_order: str) -> Combo:
    return Combo(JOKER_BOMB, 2, joker_bomb_key((first, second), bomb_order))


@cache
def _four_one_four(bomb_order: str) -> Combo:
    return Combo(FOUR_ONE_FOUR, 3, four_one_four_key(bomb_order))


def _joker_pairs(black: Sequence[str], red: Sequence[str]) -> list[tuple[str, str]]:
    pairs = []
    if len(black) >= 2:
        pairs.append((black[0], black[1]))
    if black and red:
        pairs.append((black[0], red[0]))
    if len(red) >= 2:
        pairs.append((red[0], red[1]))
    return pairs
