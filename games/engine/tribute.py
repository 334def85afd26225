"""Tribute and return (RULES.md §9), paid after the deal of every round but the first.

1. Each caught seat pays its highest-power card (first in suit order among equal copies).
2. Tribute cards sorted by power, highest first; ties by the payer's clockwise distance from the
   winning team's first finisher, nearest first.
3. The k-th card goes to the winning team's k-th finisher.
4. Each receiver returns one card of face 2–9 to its payer (the tribute just received counts as
   held); holding none, its lowest-power card. On timeout: the lowest-power legal card.
6. The payer of the highest tribute leads (``first_lead=top_payer``), else the first finisher.
``anti_tribute``: if the payers together hold all D red jokers, no tribute; the first finisher
leads.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .cards import FACE, RED_JOKER, sort_cards, take_cards
from .options import Options
from .power import highest_card, lowest_card, table_for
from .state import Tribute

RETURN_FACES = range(2, 10)


def plan_tributes(
    hands: Sequence[Sequence[str]],
    level: int,
    finish_order: Sequence[int],
    caught: Sequence[int],
    options: Options,
) -> tuple[tuple[Tribute, ...], int]:
    """Who pays which card to whom, in §9.2 order, and the seat that leads the round.

    ``hands`` are the new deal's hands; ``finish_order`` and ``caught`` are the last round's.
    """
    n = len(hands)
    team = 1 - caught[0] % 2
    finishers = [s for s in finish_order if s % 2 == team]
    first = finishers[0]
    if options.anti_tribute:
        red = sum(FACE[c] == RED_JOKER for p in caught for c in hands[p])
        if red >= options.decks:
            return (), first
    power = table_for(level, options)
    paid = [(p, highest_card(hands[p], level, options)) for p in caught]
    paid.sort(key=lambda pc: (-power[FACE[pc[1]]], (pc[0] - first) % n))
    tributes = tuple(Tribute(p, finishers[k], card) for k, (p, card) in enumerate(paid))
    leader = tributes[0].payer if options.first_lead == "top_payer" else first
    return tributes, leader


def pay_tributes(
    hands: Sequence[tuple[str, ...]], tributes: Iterable[Tribute]
) -> tuple[tuple[str, ...], ...]:
    """Hands after every tribute card moved from payer to receiver (§9.3)."""
    new = list(hands)
    for t in tributes:
        new[t.payer] = take_cards(new[t.payer], (t.card,))
        new[t.receiver] = sort_cards(new[t.receiver] + (t.card,))
    return tuple(new)


def legal_returns(hand: Sequence[str], level: int, options: Options) -> tuple[str, ...]:
    """Cards a receiver may return (§9.4): faces 2–9, else its lowest-power cards."""
    low = tuple(c for c in hand if FACE[c] in RETURN_FACES)
    if low:
        return low
    power = table_for(level, options)
    least = min(power[FACE[c]] for c in hand)
    return tuple(c for c in hand if power[FACE[c]] == least)


def timeout_return(hand: Sequence[str], level: int, options: Options) -> str:
    """The return made for a receiver that did not choose in time (§9.4)."""
    return lowest_card(legal_returns(hand, level, options), level, options)


def give_return(
    hands: Sequence[tuple[str, ...]], tribute: Tribute, card: str
) -> tuple[tuple[str, ...], ...]:
    """Hands after ``tribute``'s receiver gave ``card`` back to its payer."""
    new = list(hands)
    new[tribute.receiver] = take_cards(new[tribute.receiver], (card,))
    new[tribute.payer] = sort_cards(new[tribute.payer] + (card,))
    return tuple(new)
