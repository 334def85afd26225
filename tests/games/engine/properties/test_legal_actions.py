"""``legal_actions`` and ``apply`` agree: every offered action is accepted, every accepted
play is offered."""

from __future__ import annotations

import itertools
import random
from collections import Counter

from hypothesis import given, seed, settings

from games.engine import (
    WINDOW,
    Hook,
    NextRound,
    Options,
    Outcome,
    Pass,
    Play,
    Unhook,
    apply,
    legal_actions,
)
from games.engine.cards import FACE, cards_by_face
from games.engine.rules import seats_to_act
from games.engine.state import State

from ..helpers import faces
from .driver import GAMES_SEED, PLAYERS, SETTINGS, examples, game, seeds, table_options


@PLAYERS
@seed(GAMES_SEED)
@settings(max_examples=examples(10), **SETTINGS)
@given(table=table_options, seed=seeds, choices=seeds)
def test_every_offered_action_is_accepted(players, table, seed, choices):
    """At every step, every action ``legal_actions`` offers any seat that may act is accepted by
    ``apply``; seats that may not act are offered nothing; each offered play is one distinct
    rank combination."""
    options = Options(players=players, **table)
    for step in game(options, seed, choices):
        state = step.before
        if isinstance(step.action, NextRound):
            continue
        may_act = seats_to_act(state)
        for seat in range(options.players):
            legal = legal_actions(state, seat)
            if seat not in may_act and not answered_bomber(state, seat):
                assert legal == [], (seat, legal)
                continue
            if seat not in may_act:  # §6.4: a seat that answered may still bomb, nothing else
                assert all(isinstance(a, Play) for a in legal), (seat, legal)
            else:
                assert legal
            plays = [faces(a.cards) for a in legal if isinstance(a, Play)]
            assert len(plays) == len(set(plays))
            for action in legal:
                outcome = apply(state, action)
                assert isinstance(outcome, Outcome), (action, outcome)


def answered_bomber(state: State, seat: int) -> bool:
    """Under ``bomb_in_window``, an active non-owner seat that already answered the open window
    (it may still bomb, §6.4)."""
    return (
        state.phase == WINDOW
        and state.options.bomb_in_window
        and bool(state.hands[seat])
        and seat != state.window.owner
        and state.window.answers[seat] is not None
    )


def _other_copies(hand, play_cards, rng):
    """The same ranks as ``play_cards`` made of randomly chosen physical cards of ``hand``."""
    groups = cards_by_face(hand)
    need = Counter(FACE[c] for c in play_cards)
    picked = []
    for face, n in need.items():
        picked += rng.sample(groups[face], n)
    rng.shuffle(picked)
    return tuple(picked)


def _candidates(hand, rng):
    """Card sets a player might try: random subsets, several copies of a face, runs, 4-4-A."""
    groups = cards_by_face(hand)
    found = [tuple(rng.sample(hand, rng.randint(1, min(6, len(hand))))) for _ in range(4)]
    face = rng.choice(sorted(groups))
    found.append(tuple(rng.sample(groups[face], rng.randint(1, len(groups[face])))))
    width, start, length = rng.choice([1, 2]), rng.randint(2, 12), rng.randint(3, 6)
    run: list[str] = []
    for f in range(start, min(15, start + length)):
        if len(groups.get(f, ())) < width:
            break
        run += rng.sample(groups[f], width)
    if run:
        found.append(tuple(run))
    if len(groups.get(4, ())) >= 2 and groups.get(14):
        found.append((groups[4][0], groups[4][-1], groups[14][-1]))
    return found


def _sub_multisets(hand):
    """Every distinct non-empty sub-multiset of a (small) hand, with canonical cards."""
    groups = cards_by_face(hand)
    ranges = [range(len(cards) + 1) for cards in groups.values()]
    for counts in itertools.product(*ranges):
        chosen = tuple(
            c for cards, k in zip(groups.values(), counts, strict=True) for c in cards[:k]
        )
        if chosen:
            yield chosen


@PLAYERS
@seed(GAMES_SEED)
@settings(max_examples=examples(8), **SETTINGS)
@given(table=table_options, seed=seeds, choices=seeds)
def test_every_accepted_play_is_offered(players, table, seed, choices):
    """A play (or claim) ``apply`` accepts has its sorted rank tuple among the offered ones, and
    ``apply`` accepts any physical cards forming an offered combination. Hands of up to 7
    cards are checked exhaustively."""
    options = Options(players=players, **table)
    rng = random.Random(seed ^ choices)
    for step in game(options, seed, choices):
        state = step.before
        if state.phase not in ("play", WINDOW):
            continue
        for seat in seats_to_act(state):
            hand = state.hands[seat]
            legal = legal_actions(state, seat)
            offered = {(type(a), faces(a.cards)) for a in legal if not isinstance(a, Pass)}
            tries = [(Play, c) for c in _candidates(hand, rng)]
            if state.phase == WINDOW:
                tries += [
                    (kind, tuple(rng.sample(hand, min(n, len(hand)))))
                    for kind, n in ((Hook, 2), (Unhook, 1))
                    for _ in range(2)
                ]
            for action in rng.sample(legal, min(3, len(legal))):
                if not isinstance(action, Pass):
                    tries.append((type(action), _other_copies(hand, action.cards, rng)))
            if len(hand) <= 7:
                tries += [(Play, c) for c in _sub_multisets(hand)]
            for kind, cards in tries:
                outcome = apply(state, kind(seat, cards))
                accepted = isinstance(outcome, Outcome)
                assert accepted == ((kind, faces(cards)) in offered), (kind, cards, outcome)
