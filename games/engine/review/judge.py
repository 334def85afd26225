"""Judging one decision from its seat's ``View``: every sensible move, and the one played, scored
on the same sampled deals, as the expert scores its own candidates (``ai.expert``; issue 20).

Nothing here reads another seat's cards: the inputs are the seat's view, its legal actions (they
depend only on its hand and the public table), the move it played and the random source.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import NamedTuple

from ..actions import Action, Rejection, Return, Timeout
from ..ai.base import HeuristicPolicy, seat_of
from ..ai.expert import candidates, clear_gain, gain_noise, team_value
from ..ai.rollout import claim_choice, outcome
from ..ai.sampling import sample_hands, sample_state
from ..cards import FACE
from ..rules import apply
from ..state import TRIBUTE, State
from ..views import View


class Judgement(NamedTuple):
    """The moves weighed (``options``; the heuristic's choice first), their mean round values for
    the seat's team (``values``, same order), the index of the move played and of the expert's
    choice, how many sampled deals scored them (0: nothing was weighed), whether the
    expert's choice is clearly better than the move played, deal by deal, and the samples'
    noise on that gap (``noise``: ``ai.expert.gain_noise``, the bar a gain must clear; 0 with
    fewer than two samples), so a review can say how close is close."""

    options: tuple[Action, ...]
    values: tuple[float, ...]
    played: int
    best: int
    samples: int
    clear: bool = False
    noise: float = 0.0

    @property
    def loss(self) -> float:
        """The expert's choice's value minus the played move's (round value) when the expert's
        choice is clearly better, sample by sample (``ai.expert.clear_gain``), else 0: a gap
        inside the samples' noise is no loss, as it is no reason for the expert to change its
        move."""
        if not self.samples or not self.clear:
            return 0.0
        return max(0.0, self.values[self.best] - self.values[self.played])


def options_for(view: View, legal: list[Action], played: Action) -> list[Action]:
    """The moves worth weighing, the heuristic's choice first and ``played`` always among them:
    ``ai.expert.candidates``, or for a tribute return one card of each face (suits never matter
    for what a card can do, §2). A single option means there was no choice worth weighing."""
    first = HeuristicPolicy().choose(view, legal, random.Random(0))
    if isinstance(played, Return):
        by_face: dict[int, Action] = {}
        for action in [played, first, *legal]:
            assert isinstance(action, Return)
            by_face.setdefault(FACE[action.card], action)
        lead = by_face.pop(FACE[first.card])  # type: ignore[union-attr]
        return [lead, *by_face.values()]
    options = candidates(view, legal, first)
    same = [i for i, a in enumerate(options) if faces_of(a) == faces_of(played)]
    if same:
        options[same[0]] = played  # the move as played (suits never matter for strength, §2)
    else:
        options.append(played)
    return options


def faces_of(action: Action) -> tuple[str, tuple[int, ...]]:
    """What a move does, whatever the suits: its kind and its cards' faces, sorted."""
    if isinstance(action, Return):
        return "Return", (FACE[action.card],)
    cards = getattr(action, "cards", ())
    return type(action).__name__, tuple(sorted(FACE[c] for c in cards))


def sample_tribute_state(view: View, rng: random.Random) -> State:
    """A full state in phase tribute consistent with ``view`` (a receiver's, returns pending):
    hands from ``sampling.sample_hands``, the rest as the view shows it."""
    return State(
        options=view.options,
        seed=0,
        round_no=view.round_no,
        version=view.version,
        phase=TRIBUTE,
        level=view.level,
        levels=view.levels,
        dealer=view.dealer,
        leader=view.leader,
        hands=sample_hands(view, rng),
        turn=None,
        top=None,
        passed=frozenset(),
        trick=(),
        window=None,
        finished=(),
        tributes=view.tributes,
        result=None,
    )


def _value(state: State, action: Action, team: int) -> float:
    result = apply(state, action)
    if isinstance(result, Rejection):  # cannot happen for a legal action
        raise AssertionError(f"a legal action refused in a sample: {result.code}")
    after = result.state
    if after.phase == TRIBUTE:  # other receivers still to return: the heuristic's (weakest) card
        done = apply(after, Timeout())
        assert not isinstance(done, Rejection)
        after = done.state
    return team_value(*outcome(after, team), team)


def judge(
    view: View,
    legal: list[Action],
    played: Action,
    rng: random.Random,
    samples: int,
    budget: float | None = None,
    clock: Callable[[], float] = time.process_time,
) -> Judgement:
    """Weigh ``played`` against the expert's moves for ``view.seat`` on up to ``samples`` sampled
    deals (fewer when ``budget`` seconds of ``clock`` ran out; at least one). The expert's choice
    is the heuristic's move unless another one's gain over it, deal by deal, is clear
    (``ai.expert.clear_gain``), then the best of those. Raises ValueError for a spectator's view."""
    team = seat_of(view) % 2
    options = options_for(view, legal, played)
    index = options.index(played)
    if len(options) == 1:
        return Judgement(tuple(options), (), index, index, 0)
    tribute = view.phase == TRIBUTE
    deadline = None if budget is None else clock() + budget
    values: list[list[float]] = [[] for _ in options]
    done = 0
    while done < samples:
        if tribute:
            state = sample_tribute_state(view, rng)
        else:
            state = sample_state(view, rng, claim_choice)
        for i, action in enumerate(options):
            values[i].append(_value(state, action, team))
        done += 1
        if deadline is not None and clock() >= deadline:
            break
    base = values[0]
    clear = [0] + [
        i
        for i in range(1, len(options))
        if clear_gain([v - b for v, b in zip(values[i], base, strict=True)])
    ]
    totals = [sum(v) for v in values]
    best = max(clear, key=lambda i: (totals[i], -i))
    means = tuple(t / done for t in totals)
    gains = [b - p for b, p in zip(values[best], values[index], strict=True)]
    return Judgement(tuple(options), means, index, best, done, clear_gain(gains), gain_noise(gains))
