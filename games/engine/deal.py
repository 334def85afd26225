"""Starting a match and dealing its rounds (RULES.md §1, §9).

Randomness is an input: a match has an integer ``seed``; round r is shuffled with
``random.Random(f"{seed}:{r}")``, so the same seed always deals the same rounds, and a round's
deal never depends on how the previous one was played.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from .cards import full_deck, sort_cards
from .events import Dealt, Event, TributePaid
from .options import Options
from .state import PLAY, TRIBUTE, State
from .tribute import pay_tributes, plan_tributes

START_LEVEL = 2


class SetupError(ValueError):
    """Hands, levels or seats that no round of this table can start from."""


def round_rng(seed: int, round_no: int) -> random.Random:
    """The random source for one round's deal (and, in round 1, its dealer and leader)."""
    return random.Random(f"{seed}:{round_no}")


def deal_hands(options: Options, rng: random.Random, dealer: int) -> tuple[tuple[str, ...], ...]:
    """Shuffle D·54 cards and deal one at a time clockwise from the dealer's left (§1).

    Any remainder goes to the first seats in deal order. Each hand is sorted canonically.
    """
    n = options.players
    deck = list(full_deck(options.decks))
    rng.shuffle(deck)
    hands: list[list[str]] = [[] for _ in range(n)]
    for i, card in enumerate(deck):
        hands[(dealer + 1 + i) % n].append(card)
    return tuple(sort_cards(h) for h in hands)


def start_round(
    options: Options,
    hands: Sequence[Sequence[str]],
    level: int = START_LEVEL,
    levels: tuple[int, int] | None = None,
    leader: int = 0,
    *,
    seed: int = 0,
    round_no: int = 1,
    dealer: int | None = None,
) -> State:
    """A round in normal play from given hands (any non-empty hands; used by conformance
    and tests). Raises SetupError when a hand is empty or holds more copies than the decks.
    """
    n = options.players
    if len(hands) != n:
        raise SetupError(f"expected {n} hands, got {len(hands)}")
    if any(not h for h in hands):
        raise SetupError("every seat starts a round with cards")
    copies = Counter(c for h in hands for c in h)
    over = [c for c, k in copies.items() if k > options.decks]
    if over:
        raise SetupError(f"more copies of {over[0]} than {options.decks} deck(s) hold")
    if not 0 <= leader < n:
        raise SetupError("no such leader seat")
    return State(
        options=options,
        seed=seed,
        round_no=round_no,
        version=0,
        phase=PLAY,
        level=level,
        levels=levels or (level, level),
        dealer=dealer,
        leader=leader,
        hands=tuple(sort_cards(h) for h in hands),
        turn=leader,
        top=None,
        passed=frozenset(),
        trick=(),
        window=None,
        finished=(),
        tributes=(),
        result=None,
    )


def new_match(options: Options, seed: int) -> State:
    """Round 1 of a new match: both teams at level 2, a random dealer and leader (§1, §9.6)."""
    rng = round_rng(seed, 1)
    dealer = rng.randrange(options.players)
    hands = deal_hands(options, rng, dealer)
    leader = rng.randrange(options.players)
    return start_round(
        options,
        hands,
        START_LEVEL,
        (START_LEVEL, START_LEVEL),
        leader,
        seed=seed,
        round_no=1,
        dealer=dealer,
    )


def deal_next_round(state: State, events: list[Event]) -> State:
    """After a round that did not end the match: the winning team's first finisher deals, the
    round is played at the new level, and tribute is paid (§1, §8, §9)."""
    result = state.result
    assert result is not None and result.next_level is not None  # the match goes on
    round_no = state.round_no + 1
    dealer = next(s for s in state.finished if s % 2 == result.team)
    hands = deal_hands(state.options, round_rng(state.seed, round_no), dealer)
    level = result.next_level
    tributes, leader = plan_tributes(hands, level, state.finished, result.caught, state.options)
    hands = pay_tributes(hands, tributes)
    events.append(Dealt(round_no, dealer, level))
    for t in tributes:
        events.append(TributePaid(t.payer, t.receiver, t.card))
    return state._replace(
        round_no=round_no,
        phase=TRIBUTE if tributes else PLAY,
        level=level,
        levels=result.levels,
        dealer=dealer,
        leader=leader,
        hands=hands,
        turn=None if tributes else leader,
        top=None,
        passed=frozenset(),
        trick=(),
        window=None,
        finished=(),
        tributes=tributes,
        result=None,
    )
