"""Cards as players read them: a card's face as drawn, its spoken name, its short text
(``10♠``), and a hand sorted and grouped by rank — one place for each, in every language."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from games.engine.cards import FACE, JOKERS, SUIT_INDEX, face_name
from games.engine.options import Options
from games.engine.power import table_for
from games.live.speech import gettext as _

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


@dataclass(frozen=True)
class CardFace:
    """One card as drawn: its code (``10S``), rank and suit labels, colour, level mark."""

    code: str
    rank: str
    suit: str
    red: bool
    level: bool
    joker: bool

    def __repr__(self) -> str:
        # Region keys (games.live.frames) hold card faces and are compared as their repr: the code
        # and the level mark decide every other field (card_face), the label is per language.
        return f"<{self.code}{'*' if self.level else ''}>"

    @property
    def label(self) -> str:
        """The card's spoken name in the page's language ("Queen of hearts"): screen readers
        read it, and it is the card's tooltip."""
        return card_name(self.code)


def card_name(code: str) -> str:
    """A card's full name, translated: "10 of spades", "Ace of hearts", "Red joker"."""
    if code in ("BJ", "RJ"):
        return _("Red joker") if code == "RJ" else _("Black joker")
    rank, suit = code[:-1], code[-1]
    return _("%(rank)s of %(suit)s") % {"rank": _rank_name(rank), "suit": _suit_name(suit)}


def _rank_name(rank: str) -> str:
    """A rank as ``card_name`` says it: a face card's name translated, a number as it is (only
    the names needed are looked up: a hand's labels are many cards)."""
    if rank == "A":
        return _("Ace")
    if rank == "K":
        return _("King")
    if rank == "Q":
        return _("Queen")
    if rank == "J":
        return _("Jack")
    return rank


def _suit_name(suit: str) -> str:
    """A suit's name as ``card_name`` says it, translated."""
    if suit == "S":
        return _("spades")
    if suit == "H":
        return _("hearts")
    if suit == "D":
        return _("diamonds")
    if suit == "C":
        return _("clubs")
    raise KeyError(suit)


@lru_cache(maxsize=512)  # 54 codes x 13 levels; faces are frozen, so shared
def card_face(code: str, level: int) -> CardFace:
    face = FACE[code]
    if face in JOKERS:
        # "BJ" / "RJ" as the tracker writes them: the colour is not the only difference.
        return CardFace(code, code, "", code == "RJ", False, True)
    suit = code[-1]
    return CardFace(code, face_name(face), SUIT_SYMBOLS[suit], suit in "HD", face == level, False)


def cards_faces(cards: Iterable[str], level: int) -> list[CardFace]:
    return [card_face(c, level) for c in cards]


def hand_groups(hand: Iterable[str], level: int, options: Options) -> list[dict[str, Any]]:
    """The hand sorted by power at the round level, grouped by rank (weakest first):
    ``[{"rank": "9", "face": 9, "cards": [CardFace…], "entries": [(CardFace, "9H-0")…]}…]``.

    A hand is shown again at every push until it changes, so the groups are kept per
    (hand, level, options) — the same value each time: callers must not change it.
    """
    return _hand_groups(tuple(hand), level, options)


class HandGroups(list[dict[str, Any]]):
    """A hand's groups (``hand_groups``), written as text once: the hand region's key
    (``games.live.regions``) is compared as its ``repr`` at every push (``frames.summarize``),
    and a hand stays the same over most pushes (the groups are kept, never changed). The text is
    what the plain list's ``repr`` is. ``slots``: each card's ``(face, slot)``, in order, which
    a delta compares to remove just the cards played (``frames.Summary.slots``); ``counts``:
    the cards of each face."""

    __slots__ = ("_text", "counts", "slots")

    def __init__(self, groups: Iterable[dict[str, Any]]) -> None:
        super().__init__(groups)
        self._text = list.__repr__(self)
        self.slots = tuple(
            (group["face"], slot) for group in self for _card, slot in group["entries"]
        )
        #: How many cards of each face the hand holds (its tracker, ``presenters.unseen_cards``).
        self.counts: dict[int, int] = {group["face"]: len(group["cards"]) for group in self}

    def __repr__(self) -> str:
        return self._text


@lru_cache(maxsize=512)  # the hands of the tables this process serves
def _hand_groups(hand: tuple[str, ...], level: int, options: Options) -> HandGroups:
    power = table_for(level, options)
    groups: dict[int, list[str]] = {}
    for card in sorted(hand, key=lambda c: (power[FACE[c]], SUIT_INDEX[c])):
        groups.setdefault(FACE[card], []).append(card)
    return HandGroups(
        {
            "rank": face_name(f),
            "face": f,
            "cards": faces,
            "entries": list(zip(faces, card_slots(cs), strict=True)),
        }
        for f, cs in groups.items()
        for faces in [cards_faces(cs, level)]
    )


def card_slots(cards: Iterable[str]) -> list[str]:
    """Stable ids for cards in a hand: ``9H-0``, ``9H-1`` for two copies of 9H (two decks)."""
    seen: dict[str, int] = {}
    slots = []
    for code in cards:
        slots.append(f"{code}-{seen.get(code, 0)}")
        seen[code] = seen.get(code, 0) + 1
    return slots


def card_text(code: str) -> str:
    """A card as a line of text shows it: ``10♠``, ``A♥``; jokers by name, translated."""
    if code in ("BJ", "RJ"):
        return _("Red joker") if code == "RJ" else _("Black joker")
    return code[:-1] + SUIT_SYMBOLS[code[-1]]
