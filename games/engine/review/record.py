"""A round's record as the review reads it: the state the round started from and its actions.

``start`` is the state right after the deal (phase tribute or play, §1, §9): in a match, the
state after the ``NextRound`` that dealt it (or ``deal.new_match``'s for round 1). ``actions`` are
every action accepted from then on, in order (seat actions and the clock's ``Timeout``), up to the
end of the round or any earlier point (a round still being played can be reviewed so far).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from ..actions import Action, Hook, Pass, Play, Rejection, Return, Unhook
from ..ai.base import Policy, act
from ..events import Event
from ..rules import apply
from ..state import MATCH_OVER, ROUND_OVER, State

#: The actions a seat decides (``Resign`` is not a move of the game; ``Timeout`` is the clock's).
DECIDED = (Play, Pass, Hook, Unhook, Return)


class RecordError(ValueError):
    """The record does not replay: an action is refused by the engine."""


@dataclass(frozen=True)
class RoundRecord:
    """One round: ``start`` (the state as dealt) and the ``actions`` applied to it, in order."""

    start: State
    actions: tuple[Action, ...]


@dataclass(frozen=True)
class Step:
    """One action of the record: its position, the state before it, and what it caused."""

    index: int
    before: State
    action: Action
    after: State
    events: tuple[Event, ...]


def replay(record: RoundRecord) -> Iterator[Step]:
    """Every action of ``record`` with the states around it. Raises RecordError when the engine
    refuses an action (the record is not a round of this engine)."""
    state = record.start
    for index, action in enumerate(record.actions):
        result = apply(state, action)
        if isinstance(result, Rejection):
            raise RecordError(f"action {index} refused on replay: {result.code}")
        yield Step(index, state, action, result.state, result.events)
        state = result.state


def decided_by(action: Action) -> int | None:
    """The seat that chose ``action``, or None for the clock's actions and ``Resign``."""
    if isinstance(action, DECIDED):
        return action.seat
    return None


def play_round(start: State, policies: Sequence[Policy], rng: random.Random) -> RoundRecord:
    """Play ``start`` to the end of its round with one policy per seat (window answers in a
    random order of the seats that may answer: ``ai.base.act``, as ``simulate.step``): its
    record, for tests and benches."""
    state = start
    actions: list[Action] = []
    while state.phase not in (ROUND_OVER, MATCH_OVER):
        action = act(state, policies, rng)
        result = apply(state, action)
        if isinstance(result, Rejection):
            raise AssertionError(f"a policy chose an illegal action: {result.code}")
        actions.append(action)
        state = result.state
    return RoundRecord(start, tuple(actions))
