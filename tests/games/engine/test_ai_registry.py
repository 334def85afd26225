"""The registry of AI difficulties (``games.engine.ai.registry``): one entry per difficulty."""

from __future__ import annotations

import random

import pytest

from games.engine import Options, legal_actions, new_match
from games.engine.ai import registry
from games.engine.ai.base import HeuristicPolicy, RandomPolicy
from games.engine.ai.expert import TIME_BUDGET_SECONDS, ExpertPolicy
from games.engine.rules import seats_to_act
from games.engine.views import seat_view


def test_the_stored_keys_and_labels_stay_as_they_were():
    """The keys are what ``Seat.ai_policy`` stores (no data migration) and the labels the msgids
    the catalogues translate; weakest first."""
    assert [(d.key, d.label) for d in registry.DIFFICULTIES] == [
        ("random", "Beginner"),
        ("heuristic", "Casual"),
        ("expert", "Expert"),
    ]
    assert registry.KEYS == ("random", "heuristic", "expert")


def test_the_roles_name_registered_difficulties():
    assert {registry.FILL_DEFAULT, registry.STAND_IN, registry.RATED_STAND_IN} <= set(registry.KEYS)
    assert registry.FILL_DEFAULT == "heuristic"
    assert registry.STAND_IN == "expert"
    assert registry.RATED_STAND_IN == "heuristic"


def test_each_difficulty_makes_its_policy_with_its_budget():
    """``policy(key)`` is the policy of that name; only the expert thinks, for its budget unless
    given another."""
    assert type(registry.policy("random")) is RandomPolicy
    assert type(registry.policy("heuristic")) is HeuristicPolicy
    expert = registry.policy("expert")
    assert isinstance(expert, ExpertPolicy) and expert.time_budget == TIME_BUDGET_SECONDS
    assert registry.policy("expert", 0.2).time_budget == 0.2
    for d in registry.DIFFICULTIES:
        assert d.policy().name == d.key
        assert d.thinks == (d.key == "expert")
    assert registry.difficulty("expert").time_budget == TIME_BUDGET_SECONDS
    with pytest.raises(KeyError):
        registry.policy("minimax")


@pytest.mark.parametrize("key", ["random", "heuristic"])
def test_every_fast_difficulty_plays_a_legal_first_move(key):
    state = new_match(Options(players=4), seed=3)
    seat = seats_to_act(state)[0]
    legal = legal_actions(state, seat)
    action = registry.policy(key).choose(seat_view(state, seat), legal, random.Random(1))
    assert action in legal
