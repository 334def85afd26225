"""Cards, ranks, suits and decks, and their notation (RULES.md §0, §1).

A card is its notation string: face then suit, ``"10S"``, ``"QD"``, ``"AC"``, and the jokers
``"BJ"`` (black) and ``"RJ"`` (red). Several decks hold identical copies, so a hand is a tuple of
strings in which the same string may appear more than once. ``"T"`` is accepted for ten on input;
ten is always printed ``10``.

A rank (face) is an ``int``: 2..10, J=11, Q=12, K=13, A=14 (the natural value of §2), BJ=16,
RJ=17. Suits never matter for strength; the suit order S, H, D, C only decides which physical
copy the engine picks when it chooses cards itself (canonical choices, tribute, timeouts).
"""

from __future__ import annotations

from collections.abc import Iterable

SUITS: tuple[str, ...] = ("S", "H", "D", "C")
BLACK_JOKER = 16
RED_JOKER = 17
JOKERS: tuple[int, ...] = (BLACK_JOKER, RED_JOKER)
#: Non-joker faces in natural order, 2 (lowest natural value) to A.
NATURAL_FACES: tuple[int, ...] = tuple(range(2, 15))
ALL_FACES: tuple[int, ...] = NATURAL_FACES + JOKERS

_FACE_NAMES = {
    **{v: str(v) for v in range(2, 11)},
    11: "J",
    12: "Q",
    13: "K",
    14: "A",
    BLACK_JOKER: "BJ",
    RED_JOKER: "RJ",
}
_FACE_BY_NAME = {name: face for face, name in _FACE_NAMES.items()} | {"T": 10}

#: Every distinct card string of one deck, in canonical order (face, then suit S, H, D, C).
DECK: tuple[str, ...] = tuple(_FACE_NAMES[f] + s for f in NATURAL_FACES for s in SUITS) + (
    "BJ",
    "RJ",
)

#: card string -> rank; card string -> suit index (jokers 0 and 1, ordering BJ before RJ).
FACE: dict[str, int] = {}
SUIT_INDEX: dict[str, int] = {}
for _card in DECK:
    FACE[_card] = _FACE_BY_NAME[_card] if _card in ("BJ", "RJ") else _FACE_BY_NAME[_card[:-1]]
    SUIT_INDEX[_card] = 0 if _card in ("BJ", "RJ") else SUITS.index(_card[-1])
#: card string -> position in DECK; the canonical sort key of a card.
ORDER: dict[str, int] = {card: i for i, card in enumerate(DECK)}


class CardError(ValueError):
    """A card or face string that is not in the notation of §0 (e.g. ``"1S"``, ``"QX"``)."""


def face_name(face: int) -> str:
    """Print a rank: ``10`` -> ``"10"``, ``11`` -> ``"J"``, ``16`` -> ``"BJ"``."""
    return _FACE_NAMES[face]


def parse_face(text: str) -> int:
    """Parse a face name (``"7"``, ``"10"``, ``"T"``, ``"A"``, ``"BJ"``) into a rank.

    Raises CardError for anything else.
    """
    try:
        return _FACE_BY_NAME[str(text).strip().upper()]
    except KeyError:
        raise CardError(f"unknown face {text!r}") from None


def parse_card(text: str) -> str:
    """Normalise one card string to its canonical notation (``"ts"`` -> ``"10S"``).

    Raises CardError when the text is not a card.
    """
    if not isinstance(text, str):
        raise CardError(f"not a card: {text!r}")
    card = text.strip().upper()
    if card[:1] == "T" and len(card) == 2:
        card = "10" + card[1]
    if card not in FACE:
        raise CardError(f"unknown card {text!r}")
    return card


def parse_cards(texts: Iterable[str]) -> tuple[str, ...]:
    """Parse several cards; raises CardError on the first one that is not a card."""
    if isinstance(texts, str):
        raise CardError("cards must be a list of card strings")
    return tuple(parse_card(t) for t in texts)


def sort_cards(cards: Iterable[str]) -> tuple[str, ...]:
    """Cards in canonical order: natural face, then suit S, H, D, C; jokers last."""
    return tuple(sorted(cards, key=ORDER.__getitem__))


def full_deck(decks: int) -> tuple[str, ...]:
    """All ``decks`` × 54 cards in canonical order (§1)."""
    return sort_cards(DECK * decks)


def remove_cards(hand: tuple[str, ...], cards: Iterable[str]) -> tuple[str, ...] | None:
    """The hand without ``cards`` (as a multiset), or None when the hand does not hold them all."""
    rest = list(hand)
    for card in cards:
        try:
            rest.remove(card)
        except ValueError:
            return None
    return tuple(rest)


def take_cards(hand: tuple[str, ...], cards: Iterable[str]) -> tuple[str, ...]:
    """``remove_cards`` for cards the hand is known to hold (checked before, or the engine's own
    pick); raises AssertionError if it does not."""
    rest = remove_cards(hand, cards)
    if rest is None:
        # Names no card: a worker or Daphne logs what it raises (DESIGN.md rule 2).
        raise AssertionError("the hand does not hold the cards to take")
    return rest


def face_counts(hand: Iterable[str]) -> list[int]:
    """Rank histogram: ``counts[face]`` is how many cards of that face the hand holds (len 18)."""
    counts = [0] * 18
    for card in hand:
        counts[FACE[card]] += 1
    return counts


def cards_by_face(hand: Iterable[str]) -> dict[int, list[str]]:
    """The hand's cards grouped by face, each group in suit order S, H, D, C."""
    groups: dict[int, list[str]] = {}
    for card in sort_cards(hand):
        groups.setdefault(FACE[card], []).append(card)
    return groups
