"""Determinization: whole deals consistent with what one seat has seen (issue 11, the expert AI).

A seat's ``View`` shows its own hand, every card played this round (``View.played``), every seat's
card count, the trick, the open window (who answered, not what) and the round's tribute. The
cards it has not seen are the decks minus its hand minus the played cards; ``sample_state`` deals
exactly those to the other seats, each receiving as many as it holds, and rebuilds a full
``State`` the engine can play on. Nothing here reads another seat's cards: the only input is the
view (and the random source).

Tribute is evidence (§9.1): a payer gave its highest-power card, so it holds nothing stronger for
the rest of the round, except the card returned to it (which may be a level card of face 2–9).
Samples respect that. Answers other seats already gave to an open window are hidden (§6.4): a
sample fills them in with what the rollout player would have answered with the sampled hand.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence

from ..cards import FACE, full_deck, sort_cards
from ..power import table_for
from ..state import PASSED, PLAY, WINDOW, State, Window
from ..views import View
from .base import seat_of

#: How a seat that answered an open window answered (``rollout.claim_choice``).
Answer = Callable[[State, int], tuple[str, ...]]


class SamplingError(ValueError):
    """The view cannot be completed into a deal (its counts do not add up)."""


def unseen_cards(view: View) -> list[str]:
    """The cards ``view.seat`` has not seen, canonical order: the decks minus its hand and the
    played cards. Their number equals the other seats' card counts together."""
    rest = Counter(full_deck(view.options.decks))
    rest.subtract(view.hand)
    rest.subtract(view.played)
    if any(n < 0 for n in rest.values()):
        raise SamplingError("the hand and the played cards hold more copies than the decks")
    return [card for card, n in rest.items() for _ in range(n)]


def power_caps(view: View) -> dict[int, tuple[float, str | None]]:
    """``{payer: (power of its tribute card, the card returned to it or None)}`` for this
    round's tributes: a payer holds no card above that power except the returned one (§9.1)."""
    power = table_for(view.level, view.options)
    return {t.payer: (power[FACE[t.card]], t.returned) for t in view.tributes}


def sample_hands(view: View, rng: random.Random) -> tuple[tuple[str, ...], ...]:
    """Every seat's hand: ``view.hand`` for the viewer, a random deal of the unseen cards to the
    others (each gets ``view.hand_sizes[seat]`` cards, sorted canonically), respecting
    ``power_caps``. Raises SamplingError when the counts do not add up."""
    me = seat_of(view)
    unseen = unseen_cards(view)
    sizes = view.hand_sizes
    others = [s for s in range(view.players) if s != me and sizes[s]]
    if sum(sizes[s] for s in others) != len(unseen):
        raise SamplingError("the unseen cards do not match the other seats' card counts")
    rng.shuffle(unseen)
    caps = {s: cap for s, cap in power_caps(view).items() if s in others}
    hands: list[tuple[str, ...]] = [()] * view.players
    hands[me] = view.hand
    if caps:
        dealt = _deal_with_caps(
            unseen, others, sizes, caps, table_for(view.level, view.options), rng
        )
    else:
        dealt, start = {}, 0
        for s in others:
            dealt[s] = unseen[start : start + sizes[s]]
            start += sizes[s]
    for s in others:
        hands[s] = sort_cards(dealt[s])
    return tuple(hands)


def _deal_with_caps(
    cards: list[str],
    others: list[int],
    sizes: Sequence[int],
    caps: dict[int, tuple[float, str | None]],
    power: Sequence[float],
    rng: random.Random,
) -> dict[int, list[str]]:
    """Deal shuffled ``cards``: the cards only some seats may hold go first, each to a seat that
    may hold it, chosen in proportion to the room it has left; then the rest fill the room."""

    def allowed(seat: int, card: str) -> bool:
        cap = caps.get(seat)
        return cap is None or power[FACE[card]] <= cap[0] or card == cap[1]

    room = {s: sizes[s] for s in others}
    dealt: dict[int, list[str]] = {s: [] for s in others}
    free: list[str] = []
    for card in cards:
        seats = [s for s in others if allowed(s, card)]
        if len(seats) == len(others):
            free.append(card)
            continue
        seats = [s for s in seats if room[s]] or [s for s in others if room[s]]
        pick = rng.choices(seats, weights=[room[s] for s in seats])[0]
        dealt[pick].append(card)
        room[pick] -= 1
    start = 0
    for s in others:
        dealt[s] += free[start : start + room[s]]
        start += room[s]
    return dealt


def passed_since_top(view: View) -> frozenset[int]:
    """Seats that passed since the top play: the trick's pass entries after its last play
    (every play and won claim starts a fresh count, §5)."""
    seats = []
    for entry in reversed(view.trick):
        if entry.kind != "pass":
            break
        seats.append(entry.seat)
    return frozenset(seats)


def sample_state(view: View, rng: random.Random, answer: Answer | None = None) -> State:
    """A full ``State`` consistent with ``view`` (phase play or window), hands from
    ``sample_hands``. In a window, the viewer's own answer is kept; another seat that has
    answered gets ``answer(state, seat)`` (the claim's cards or ``PASSED``), or ``PASSED`` when
    ``answer`` is None. Raises SamplingError for a view in another phase."""
    if view.phase not in (PLAY, WINDOW) or view.seat is None:
        raise SamplingError("only a seat in play or in a claim window can be sampled")
    hands = sample_hands(view, rng)
    state = State(
        options=view.options,
        seed=0,
        round_no=view.round_no,
        version=view.version,
        phase=view.phase,
        level=view.level,
        levels=view.levels,
        dealer=view.dealer,
        leader=view.leader,
        hands=hands,
        turn=view.turn,
        top=view.top,
        passed=passed_since_top(view),
        trick=view.trick,
        window=None,
        finished=view.finished,
        tributes=view.tributes,
        result=None,
    )
    if view.window is None:
        return state
    w = view.window
    answers: list[tuple[str, ...] | None] = [None] * view.players
    answers[seat_of(view)] = view.my_answer
    window = Window(w.owner, w.face, w.mode, w.chain, tuple(answers))
    state = state._replace(window=window)
    for seat, given in enumerate(w.answered):
        if given and seat != view.seat:
            answers[seat] = answer(state, seat) if answer is not None else PASSED
    return state._replace(window=window._replace(answers=tuple(answers)))
