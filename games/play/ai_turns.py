"""How an AI seat decides in the worker: which engine policy plays a seat, with what budget, and
how long its claim-window answer waits (issue 11; DESIGN.md rule 4; docs/AI.md).

The seat's difficulty (``Seat.ai_policy``) is a key of the engine's registry
(``games.engine.ai.registry``), which gives its policy and its time budget. A difficulty that
thinks (the expert) searches for up to its budget, less in a short claim window (a quarter of the
time left). Its window answer is sent a fixed pause after the decision started, whatever the
search took, so the moment an AI answers never depends on what it holds (RULES.md §6.4): with
nothing to claim the expert decides at once, with a claim it searches, and both wait for the same
``answer_pause``.
"""

from __future__ import annotations

import random
import time

from games.engine.actions import Action
from games.engine.ai import difficulty
from games.engine.rules import legal_actions
from games.engine.state import WINDOW, State
from games.engine.views import seat_view

#: The share of a claim window's remaining time the expert may think in.
WINDOW_SHARE = 0.25


def think_budget(phase: str, name: str, seconds_left: float | None) -> float:
    """Seconds difficulty ``name`` may think: its budget, capped in a window at ``WINDOW_SHARE``
    of the window's time left (``seconds_left``, None when unknown)."""
    budget = difficulty(name).time_budget
    if phase == WINDOW and seconds_left is not None:
        return max(0.0, min(budget, WINDOW_SHARE * seconds_left))
    return budget


def answer_pause(phase: str, name: str, budget: float, elapsed: float) -> float:
    """Seconds to wait after deciding, before the action is applied: in a claim window, a
    difficulty that thinks answers ``budget`` seconds after it started thinking (``elapsed``
    seconds ago), so every answer of it takes the same time; any other decision goes at once."""
    if phase != WINDOW or not difficulty(name).thinks:
        return 0.0
    return max(0.0, budget - elapsed)


def decide(
    state: State, seat: int, name: str, seed: int, seconds_left: float | None = None
) -> tuple[Action, float]:
    """The action seat ``seat`` plays with policy ``name`` (its own view only) and the pause
    before applying it (``answer_pause``). ``seed`` (the match's) and the state's version seed
    the policy's rng, so a decision repeated for the same moment is the same. Precondition: the
    seat may act now. Raises KeyError for an unknown policy name."""
    legal = legal_actions(state, seat)
    rng = random.Random(f"{seed}:{state.version}:{seat}")
    budget = think_budget(state.phase, name, seconds_left)
    player = difficulty(name).policy(budget)
    started = time.perf_counter()
    action = player.choose(seat_view(state, seat), legal, rng)
    return action, answer_pause(state.phase, name, budget, time.perf_counter() - started)
