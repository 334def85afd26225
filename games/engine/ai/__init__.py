"""The AI: policies that play a seat from its own ``View``, and the registry of difficulties.

Owns:

- ``base``: the ``Policy`` protocol, ``RandomPolicy`` and ``HeuristicPolicy``;
- ``expert``: ``ExpertPolicy``, the searching AI, with ``sampling`` (deals consistent with a
  seat's view) and ``rollout`` (fast heuristic playouts on sampled deals);
- ``registry``: the AI difficulties (key stored on a seat, label, policy factory, time budget)
  and the roles callers need (``FILL_DEFAULT``, ``STAND_IN``, ``RATED_STAND_IN``).

May import: the standard library and the rest of ``games.engine`` (``rules``, ``views``,
``state``, ...). Nothing else in ``games.engine`` imports this package except ``simulate`` (the
CLI that plays policies against each other) and ``review`` (the expert's review of a seat's
play). Inside it, imports go one way: ``registry`` -> ``expert`` -> ``rollout``, ``sampling``
-> ``base``; no module imports this ``__init__``, which only re-exports.
"""

from .base import DANGER_CARDS, HeuristicPolicy, Policy, RandomPolicy
from .expert import DEFAULT_SAMPLES, TIME_BUDGET_SECONDS, ExpertPolicy
from .registry import (
    DIFFICULTIES,
    FILL_DEFAULT,
    KEYS,
    RATED_STAND_IN,
    STAND_IN,
    Difficulty,
    difficulty,
    policy,
)

__all__ = [
    "DANGER_CARDS",
    "DEFAULT_SAMPLES",
    "DIFFICULTIES",
    "FILL_DEFAULT",
    "KEYS",
    "RATED_STAND_IN",
    "STAND_IN",
    "TIME_BUDGET_SECONDS",
    "Difficulty",
    "ExpertPolicy",
    "HeuristicPolicy",
    "Policy",
    "RandomPolicy",
    "difficulty",
    "policy",
]
