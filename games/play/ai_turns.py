"""How an AI seat decides in the worker: which engine policy plays a seat, with what budget, and
how long its claim-window answer waits (issue 11; DESIGN.md rule 4; docs/AI.md).

The seat's difficulty (``Seat.ai_policy``: beginner = ``random``, casual = ``heuristic``, expert =
``expert``) names the engine policy. The expert searches for up to
``engine.expert.TIME_BUDGET_SECONDS``, less in a short claim window (a quarter of the time left).
A window answer is sent a fixed pause after the decision started, whatever the search took, so
the moment an AI answers never depends on what it holds (RULES.md §6.4): with nothing to claim the
expert decides at once, with a claim it searches, and both wait for the same ``answer_pause``.
"""

from __future__ import annotations

import random
import time

from games.engine.ai import policy
from games.engine.expert import TIME_BUDGET_SECONDS, ExpertPolicy
from games.engine.rules import legal_actions
from games.engine.state import WINDOW, State
from games.engine.views import seat_view

#: The share of a claim window's remaining time the expert may think in.
WINDOW_SHARE = 0.25


def think_budget(phase: str, seconds_left: float | None) -> float:
    """Seconds the expert may search: its budget, capped in a window at ``WINDOW_SHARE`` of
    the window's time left (``seconds_left``, None when unknown)."""
    if phase == WINDOW and seconds_left is not None:
        return max(0.0, min(TIME_BUDGET_SECONDS, WINDOW_SHARE * seconds_left))
    return TIME_BUDGET_SECONDS


def answer_pause(phase: str, name: str, budget: float, elapsed: float) -> float:
    """Seconds to wait after deciding, before the action is applied: in a claim window, an
    expert answers ``budget`` seconds after it started thinking (``elapsed`` seconds ago), so
    every answer of it takes the same time; any other decision goes at once."""
    if phase != WINDOW or name != "expert":
        return 0.0
    return max(0.0, budget - elapsed)


def decide(
    state: State, seat: int, name: str, seed: int, seconds_left: float | None = None
) -> tuple[object, float]:
    """The action seat ``seat`` plays with policy ``name`` (its own view only) and the pause
    before applying it (``answer_pause``). ``seed`` (the match's) and the state's version seed
    the policy's rng, so a decision repeated for the same moment is the same. Precondition: the
    seat may act now. Raises KeyError for an unknown policy name."""
    legal = legal_actions(state, seat)
    rng = random.Random(f"{seed}:{state.version}:{seat}")
    budget = think_budget(state.phase, seconds_left)
    player = ExpertPolicy(time_budget=budget) if name == "expert" else policy(name)
    started = time.perf_counter()
    action = player.choose(seat_view(state, seat), legal, rng)
    return action, answer_pause(state.phase, name, budget, time.perf_counter() - started)
