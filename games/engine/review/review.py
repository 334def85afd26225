"""The review of one seat's decisions in one round (issue 20): every play, pass, window answer
and tribute return the seat chose, judged from its own ``View`` at that moment against the
expert's move on the same sampled deals (``judge``), marked (``marks``) and named (``patterns``).

Deterministic: decision k of the seat samples from ``random.Random(f"{seed}:{seat}:{k}")`` and
reads nothing but the seat's views, its legal actions and what the table saw, so two rounds in
which the seat saw the same things get the same review whatever the hidden hands were, as long
as no time budget cuts the sampling short (``budget=None``).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass, field

from ..actions import Action, Hook, Pass, Return, Unhook
from ..events import Event
from ..rules import legal_actions
from ..views import event_for, seat_view
from .judge import judge
from .marks import BLUNDER, FORCED, GOOD, INACCURACY, MISTAKE, mark, round_accuracy
from .patterns import patterns
from .record import RoundRecord, Step, decided_by, replay

#: Sampled deals per decision (the expert plays on 48, ``ai.expert.DEFAULT_SAMPLES``; a review
#: has the time for more, and fewer marks come from noise: docs/AI.md).
DEFAULT_SAMPLES = 64
#: CPU seconds one decision's review may take: a seat's round is some 20–40 decisions, so a
#: round stays well under 30 s of one core (docs/AI.md).
DEFAULT_BUDGET = 0.6

PLAY = "play"
PASS = "pass"
HOOK = "hook"
UNHOOK = "unhook"
WINDOW_PASS = "window_pass"
RETURN = "return"


@dataclass(frozen=True)
class Reviewed:
    """One decision: ``index`` in the record's actions, ``version`` of the state it was made in,
    ``kind`` (play, pass, hook, unhook, window_pass, return), the seat's ``hand`` then (its own
    cards), the move ``played`` and the expert's ``best``, their expected round values for the
    seat's team (None when nothing was weighed), ``loss`` (≥ 0), ``mark`` (good, inaccuracy,
    mistake, blunder, or forced), ``patterns`` (``patterns.PATTERNS`` names), the number of
    moves weighed and of sampled deals, and the samples' ``noise`` on the gap between the two
    values (``Judgement.noise``; None when nothing was weighed)."""

    index: int
    version: int
    kind: str
    hand: tuple[str, ...]
    played: Action
    best: Action
    played_value: float | None
    best_value: float | None
    loss: float
    mark: str
    patterns: tuple[str, ...]
    options: int
    samples: int
    noise: float | None = None


@dataclass(frozen=True)
class RoundReview:
    """A seat's round: its ``decisions`` in order, the ``accuracy`` (0–100, None with nothing to
    weigh), counts per mark, and the CPU ``seconds`` it took (not part of equality)."""

    seat: int
    round_no: int
    decisions: tuple[Reviewed, ...]
    accuracy: float | None
    counts: dict[str, int]
    samples: int
    seed: int
    seconds: float = field(default=0.0, compare=False)


def kind_of(action: Action, in_window: bool) -> str:
    """The kind of a decision, for people: play, pass, hook, unhook, window_pass or return."""
    if isinstance(action, Hook):
        return HOOK
    if isinstance(action, Unhook):
        return UNHOOK
    if isinstance(action, Return):
        return RETURN
    if isinstance(action, Pass):
        return WINDOW_PASS if in_window else PASS
    return PLAY


def review_round(
    record: RoundRecord,
    seat: int,
    samples: int = DEFAULT_SAMPLES,
    budget: float | None = DEFAULT_BUDGET,
    seed: int = 0,
    clock: Callable[[], float] = time.process_time,
    others: Collection[int] = (),
) -> RoundReview:
    """Review ``seat``'s decisions in ``record``: ``samples`` sampled deals per decision at most,
    ``budget`` CPU seconds of ``clock`` per decision at most (None: no limit, fully
    deterministic), random source seeded by ``seed``. ``others``: indexes in ``record.actions``
    of moves made at the seat by someone else (an AI standing in for its person): not the
    seat's decisions, so neither reviewed nor counted in its accuracy. Raises ValueError for no
    such seat and ``record.RecordError`` when the record does not replay."""
    start = record.start
    if type(seat) is not int or not 0 <= seat < start.players:
        raise ValueError(f"no seat {seat!r} at this table")
    began = clock()
    steps = list(replay(record))
    found: list[Reviewed] = []
    for n, step in enumerate(steps):
        if decided_by(step.action) != seat or step.index in others:
            continue
        state = step.before
        view = seat_view(state, seat)
        legal = legal_actions(state, seat)
        action = step.action
        later = _seen_after(steps, n, seat)
        rng = random.Random(f"{seed}:{seat}:{len(found)}")
        j = judge(view, legal, action, rng, samples, budget, clock)
        best = j.options[j.best]
        searched = j.samples > 0
        loss = j.loss
        found.append(
            Reviewed(
                index=step.index,
                version=state.version,
                kind=kind_of(action, view.window is not None),
                hand=view.hand,
                played=action,
                best=best,
                played_value=j.values[j.played] if searched else None,
                best_value=j.values[j.best] if searched else None,
                loss=loss,
                mark=mark(loss) if searched else FORCED,
                patterns=patterns(view, legal, action, best, loss, later) if searched else (),
                options=len(j.options),
                samples=j.samples,
                noise=j.noise if searched else None,
            )
        )
    weighed = [d.loss for d in found if d.mark != FORCED]
    counts = {m: sum(d.mark == m for d in found) for m in (GOOD, INACCURACY, MISTAKE, BLUNDER)}
    counts[FORCED] = sum(d.mark == FORCED for d in found)
    return RoundReview(
        seat=seat,
        round_no=start.round_no,
        decisions=tuple(found),
        accuracy=round_accuracy(weighed),
        counts=counts,
        samples=samples,
        seed=seed,
        seconds=clock() - began,
    )


def _seen_after(steps: list[Step], n: int, seat: int) -> tuple[Event, ...]:
    """The events ``seat`` saw from step ``n`` up to its next decision (as it may see them)."""
    seen: list[Event] = []
    for step in steps[n:]:
        if step is not steps[n] and decided_by(step.action) == seat:
            break
        seen += [e for e in (event_for(x, seat) for x in step.events) if e is not None]
    return tuple(seen)
