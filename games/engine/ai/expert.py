"""The expert AI: perfect-information Monte Carlo search over sampled deals (issue 11).

At each decision with more than one sensible choice the expert

1. lists its candidates: the heuristic's own choice first, then a few others of every kind
   (the weakest plays of each category, a pass, the lowest bombs, a claim or a pass in a window;
   ``candidates``). A play that empties its hand is taken at once;
2. deals the cards it has not seen to the other seats at random, consistently with everything its
   seat's ``View`` shows (``sampling``): one *sample* is one such deal;
3. plays every candidate forward in that sample to the end of the round, every seat playing the
   heuristic (``rollout.outcome``) except that its own team plays its bombs *boldly* (keeps a
   triple whole when it leads, bombs an opponent's play it cannot otherwise beat; Casual keeps
   its bombs until someone is nearly out, so a bomb it kept was worth little in a playout and
   spending it at once looked free), and scores the round for its TEAM: a round won is worth
   ``1 + LEVEL_WEIGHT * levels gained``, a round lost minus what the opponents gained (§8);
4. repeats 2–3 until it has ``samples`` samples or its time is up, and plays the candidate with the
   best total among the heuristic's choice and the candidates whose gain over it, sample by
   sample, is clear (``clear_gain``: more than ``MARGIN`` standard errors); ties go to the earlier
   candidate, so the heuristic's choice wins ties.

The same samples score every candidate, so luck in a sample cancels between candidates; what is
left of it is the noise ``clear_gain`` guards against (issue 18: the expert bombed its own
partner's winning play because a bomb's mean came out best by luck). It sees
only its seat's ``View``; all randomness comes from the ``rng`` passed in, so with no time limit
(``time_budget=None``) the same view and rng give the same action. Tribute returns are the
heuristic's (the weakest legal card, §9.4).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Any, NamedTuple

from ..actions import Action, Play, Rejection, Return
from ..cards import FACE
from ..combos import Combo
from ..power import table_for
from ..rules import apply
from ..views import View
from .base import HeuristicPolicy, combo_of, seat_of
from .rollout import claim_choice, outcome
from .sampling import sample_state

#: The most time one decision may take, in seconds (wall clock); the one place it is set. The
#: search stops after the first sample that ends past it (bench/ai.py: a search of 48 samples
#: takes 45 ms of CPU at the median and 267 ms at p99 on this machine, so an idle core rarely
#: reaches it).
TIME_BUDGET_SECONDS = 0.5
#: Samples (deals) per decision when time allows; the deterministic budget of tests and benches
#: (against the heuristic, 48 samples won 87.0% of 200 duplicate rounds; on 80 of those rounds
#: 24 samples won 77.5% and 48 won 86%: docs/AI.md).
DEFAULT_SAMPLES = 48
#: What each level gained (or conceded) adds to a round's value of 1 (§8).
LEVEL_WEIGHT = 0.5
#: How many standard errors a candidate's gain over the heuristic's choice must clear to replace
#: it (``clear_gain``).
MARGIN = 1.5
#: Candidates kept per category of play, and bombs kept (the lowest).
PER_CATEGORY = 3
BOMBS_KEPT = 2


class Search(NamedTuple):
    """What the last decision did: the candidates, their mean values, samples played, seconds."""

    candidates: tuple[Action, ...]
    values: tuple[float, ...]
    samples: int
    seconds: float


def team_value(winner: int, caught: int, team: int) -> float:
    """A finished round's value for ``team``: ``1 + LEVEL_WEIGHT * caught`` if it finished first
    (``winner``; it catches ``caught`` opponents and gains as many levels, §8), minus that if the
    other team did."""
    value = 1.0 + LEVEL_WEIGHT * caught
    return value if winner == team else -value


def gain_noise(gains: list[float], margin: float = MARGIN) -> float:
    """``margin`` standard errors of the mean of ``gains``: the bar a mean gain must clear to be
    a real one (``clear_gain``); the review shows it as the samples' noise on a gap. 0 with
    fewer than two samples, where no gain is ever clear."""
    n = len(gains)
    if n < 2:
        return 0.0
    mean = sum(gains) / n
    variance = sum((g - mean) ** 2 for g in gains) / (n - 1)
    return margin * math.sqrt(variance / n)


def clear_gain(gains: list[float], margin: float = MARGIN) -> bool:
    """Whether ``gains`` (one candidate's value minus the heuristic's choice's value, sample by
    sample on the same deals) show a real gain: their mean exceeds ``margin`` times its standard
    error (``gain_noise``). One sample, or no spread at all with a mean of 0 or less, is never a
    clear gain.

    Why: the search picks the best of several noisy means, and the best of noisy means is biased
    upwards (a candidate that had a lucky set of deals wins). Taking a move other than the
    heuristic's only when its paired gain is clear keeps a lucky mean from replacing a sound play
    (issue 18: the expert bombed its own partner's winning play on such luck)."""
    if len(gains) < 2:
        return False
    mean = sum(gains) / len(gains)
    return mean > 0 and mean > gain_noise(gains, margin)


def candidates(view: View, legal: list[Action], first: Action) -> list[Action]:
    """The actions worth searching, ``first`` (the heuristic's choice) first; a play that
    empties the hand alone. ``legal`` is the seat's legal actions (plays, pass, claims)."""
    seat_cards = len(view.hand)
    plays: list[tuple[Combo, Play]] = []
    others: list[Action] = []
    for action in legal:
        if isinstance(action, Play):
            combo = combo_of(action, view)
            if combo.size == seat_cards:
                return [action]
            plays.append((combo, action))
        else:
            others.append(action)  # a pass, a hook or an unhook
    power = table_for(view.level, view.options)
    by_category: dict[str, list[tuple[tuple[float, int, float], Action]]] = {}
    bombs: list[tuple[Any, Action]] = []
    for combo, action in plays:
        if combo.is_bomb:
            bombs.append((combo.key, action))
        else:
            weakest = min(power[FACE[c]] for c in action.cards)
            by_category.setdefault(combo.category, []).append(
                ((weakest, -combo.size, combo.key), action)
            )
    kept = [first] + others
    for options in by_category.values():
        options.sort(key=lambda ka: ka[0])
        kept += [a for _, a in options[:PER_CATEGORY]]
    bombs.sort(key=lambda ka: ka[0])
    kept += [a for _, a in bombs[:BOMBS_KEPT]]
    return list(dict.fromkeys(kept))


class ExpertPolicy:
    """Searches sampled deals (see the module docstring).

    ``samples``: deals per decision (at least 1); ``time_budget``: seconds per decision, or None
    for no limit (then the choice depends only on the view and the rng); ``clock`` returns
    seconds. ``last`` describes the last decision (``Search``), None before the first search.
    """

    name = "expert"

    def __init__(
        self,
        samples: int = DEFAULT_SAMPLES,
        time_budget: float | None = TIME_BUDGET_SECONDS,
        clock: Callable[[], float] = time.perf_counter,
        margin: float = MARGIN,
        bold: bool = True,
    ) -> None:
        if samples < 1:
            raise ValueError("samples must be at least 1")
        self.samples = samples
        self.time_budget = time_budget
        self.clock = clock
        self.margin = margin
        self.bold = bold
        self.fallback = HeuristicPolicy()
        self.last: Search | None = None

    def choose(self, view: View, legal: list[Action], rng: random.Random) -> Action:
        """Pick one action of ``legal`` (never empty) for ``view.seat``."""
        first = self.fallback.choose(view, legal, rng)
        if isinstance(first, Return) or len(legal) == 1:
            return first
        options = candidates(view, legal, first)
        if len(options) == 1:
            return options[0]
        return self._search(view, options, rng)

    def _search(self, view: View, options: list[Action], rng: random.Random) -> Action:
        start = self.clock()
        deadline = None if self.time_budget is None else start + self.time_budget
        team = seat_of(view) % 2
        bold = team if self.bold else None
        values: list[list[float]] = [[] for _ in options]
        done = 0
        while done < self.samples:
            state = sample_state(view, rng, claim_choice)
            for i, action in enumerate(options):
                result = apply(state, action)
                if isinstance(result, Rejection):  # cannot happen for a legal action
                    raise AssertionError(f"a legal action refused in a sample: {result.code}")
                values[i].append(team_value(*outcome(result.state, bold), team))
            done += 1
            if deadline is not None and self.clock() >= deadline:
                break
        totals = [sum(v) for v in values]
        base = values[0]
        clear = [0] + [
            i
            for i in range(1, len(options))
            if clear_gain([v - b for v, b in zip(values[i], base, strict=True)], self.margin)
        ]
        best = max(clear, key=lambda i: (totals[i], -i))
        self.last = Search(
            tuple(options), tuple(t / done for t in totals), done, self.clock() - start
        )
        return options[best]
