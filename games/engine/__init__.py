"""The 414 rules engine: pure Python, standard library only (RULES.md is the source of truth).

Public API::

    from games.engine import Options, new_match, apply, legal_actions, seat_view
    state = new_match(Options(players=4), seed=7)
    outcome = apply(state, Play(seat, ("3S",)))   # Outcome(state, events) | Rejection(code)

Modules: ``cards`` (notation, decks), ``power`` (§2), ``combos`` (§3, §4), ``options`` (§10),
``state`` (frozen state), ``actions``, ``events`` (what an action caused), ``deal`` (§1),
``turns`` and ``tricks`` (§5), ``claims`` (§6), ``scoring`` (§7, §8), ``tribute`` (§9),
``moves`` (move generation), ``rules`` (``apply``,
``legal_actions``), ``views`` (what a seat or a spectator may see), ``codec`` (JSON),
``conformance`` (the shared protocol); the package ``ai`` (bot policies, the searching expert
with its sampling and playouts, the registry of AI difficulties); the package ``review`` (the
expert's review of a seat's round, issue 20); ``simulate`` (the CLI that plays AI policies
against each other).
"""

from .actions import (
    CODES,
    Hook,
    NextRound,
    Outcome,
    Pass,
    Play,
    Rejection,
    Resign,
    Return,
    Timeout,
    Unhook,
)
from .deal import SetupError, new_match, start_round
from .options import Options, OptionsError
from .rules import apply, legal_actions
from .state import MATCH_OVER, PLAY, ROUND_OVER, TRIBUTE, WINDOW, State

__all__ = [
    "CODES",
    "Hook",
    "NextRound",
    "Outcome",
    "Pass",
    "Play",
    "Rejection",
    "Resign",
    "Return",
    "Timeout",
    "Unhook",
    "SetupError",
    "new_match",
    "start_round",
    "Options",
    "OptionsError",
    "apply",
    "legal_actions",
    "MATCH_OVER",
    "PLAY",
    "ROUND_OVER",
    "TRIBUTE",
    "WINDOW",
    "State",
]
