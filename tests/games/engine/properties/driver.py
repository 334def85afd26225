"""The random driver of the engine's property tests: Hypothesis settings and strategies, and
``game``, which plays a match from a seed with seeded random legal choices and timeouts."""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from functools import lru_cache
from typing import NamedTuple

import pytest
from hypothesis import HealthCheck
from hypothesis import strategies as st

from games.engine import (
    MATCH_OVER,
    ROUND_OVER,
    TRIBUTE,
    WINDOW,
    Hook,
    NextRound,
    Options,
    Outcome,
    Timeout,
    Unhook,
    apply,
    legal_actions,
    new_match,
)
from games.engine.rules import seats_to_act
from games.engine.state import State

#: ``ENGINE_PROPERTY_SCALE=50 pytest tests/games/engine/properties/`` multiplies the number
#: of generated games per test (a soak run uses thousands). ``make test`` runs the full count
#: (scale 1); ``make test-fast`` sets 0.25, a quarter of the games (at least one per table
#: size), for its answer in a minute (Makefile).
SCALE = float(os.environ.get("ENGINE_PROPERTY_SCALE", "1"))


def examples(count: int) -> int:
    """Hypothesis' ``max_examples`` for a test whose full run generates ``count`` games:
    ``count`` times ``SCALE``, at least one."""
    return max(1, round(count * SCALE))


SETTINGS = dict(
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

table_options = st.fixed_dictionaries(
    dict(
        two_position=st.sampled_from(["low", "high"]),
        two_in_sequences=st.booleans(),
        bomb_order=st.sampled_from(["four_one_four_top", "jokers_top"]),
        joker_hook=st.booleans(),
        bomb_in_window=st.booleans(),
        lead_after_out=st.sampled_from(["teammate", "next_player"]),
        first_lead=st.sampled_from(["top_payer", "top_finisher"]),
        anti_tribute=st.booleans(),
        target_level=st.sampled_from([3, 4, 7, 14]),
        claim_window_seconds=st.sampled_from([4, 0, 4, 4]),
    )
)
seeds = st.integers(0, 2**32 - 1)
#: Every table size is driven (Hypothesis would favour the first of a sampled_from).
PLAYERS_DRIVEN = (2, 4, 6, 8)
PLAYERS = pytest.mark.parametrize("players", PLAYERS_DRIVEN)
CLAIMS = (Hook, Unhook)


class Step(NamedTuple):
    before: State
    action: object
    after: State
    events: tuple


def round_bound(options: Options) -> int:
    """At most every card played, each followed by a pass or an answer from every other seat,
    plus a timeout each: a generous bound on the actions of one round."""
    return 54 * options.decks * (2 * options.players + 2) + 10


def choose(state: State, rng: random.Random):
    """A seeded random choice: sometimes the clock runs out, else a random seat that may act
    (so window answers arrive in random order) picks uniformly among its legal actions."""
    if rng.random() < {WINDOW: 0.15, TRIBUTE: 0.3}.get(state.phase, 0.03):
        return Timeout()
    seat = rng.choice(seats_to_act(state))
    legal = legal_actions(state, seat)
    assert legal, f"seat {seat} must act but has no legal action"
    return rng.choice(legal)


def game(options: Options, seed: int, choices: int, rounds: int = 2) -> Iterator[Step]:
    """Drive a match from ``new_match(options, seed)`` for up to ``rounds`` rounds; yields a Step
    per accepted action (NextRound included). Asserts every chosen action is accepted and every
    round ends within ``round_bound``.

    A game is played once per process and shared, read-only (States and Steps are immutable),
    by every test that draws it (``GAMES_SEED``): its first ``KEPT_ROUNDS`` rounds are kept,
    and a game of fewer rounds is their beginning (the same choices, in the same order)."""
    if rounds > KEPT_ROUNDS:
        yield from _play(options, seed, choices, rounds)
        return
    next_rounds = 0
    for step in _kept(options, seed, choices):
        if isinstance(step.action, NextRound):
            next_rounds += 1
            if next_rounds == rounds:  # the deal after the last round asked for
                return
        yield step


#: Every property test draws its games with this Hypothesis seed (``@seed(GAMES_SEED)``, the
#: same strategies and settings), so a test's games are among those of the test drawing the
#: most (checked: every count up to 15 draws a subset of 15's): ``game`` plays each once.
GAMES_SEED = 414
#: The rounds ``game`` keeps of a game: the most a property test plays.
KEPT_ROUNDS = 3


@lru_cache(maxsize=min(64, len(PLAYERS_DRIVEN) * (examples(15) + 1)))
def _kept(options: Options, seed: int, choices: int) -> tuple[Step, ...]:
    """The first ``KEPT_ROUNDS`` rounds of a game, kept for the process's other tests: every
    game of the property tests and test_driver's at scale 1 and below (some 50 MB at scale 1);
    a soak run's thousands of games pass through the bound."""
    return tuple(_play(options, seed, choices, KEPT_ROUNDS))


def _play(options: Options, seed: int, choices: int, rounds: int) -> Iterator[Step]:
    rng = random.Random(choices)
    state = new_match(options, seed)
    for played in range(rounds):
        steps = 0
        while state.phase not in (ROUND_OVER, MATCH_OVER):
            action = choose(state, rng)
            outcome = apply(state, action)
            assert isinstance(outcome, Outcome), (action, outcome)
            yield Step(state, action, outcome.state, outcome.events)
            state = outcome.state
            steps += 1
            assert steps <= round_bound(options), "round did not terminate"
        if state.phase == MATCH_OVER or played == rounds - 1:
            return
        outcome = apply(state, NextRound())
        assert isinstance(outcome, Outcome), outcome
        yield Step(state, NextRound(), outcome.state, outcome.events)
        state = outcome.state
