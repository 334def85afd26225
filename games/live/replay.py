"""Rebuilding a match's state at any version from its move log (replays, spectator delay).

Every match starts as ``engine.deal.new_match(options, seed)`` and changes only by the actions in
``Move`` (``seq`` = the version the action produced), so replaying the actions in order gives the
state at any version exactly. States are immutable per version (the log is append-only), so they
are cached: every ``CHECKPOINT_EVERY`` versions, and each version asked for. A request for version
v then replays at most ``CHECKPOINT_EVERY`` moves, and a spectator one push later only one.

The states returned hold every hand: callers project them with ``engine.views`` before showing.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

from django.core.cache import cache

from games.engine import Rejection, apply
from games.engine.codec import CodecError, action_from_json, state_from_json, state_to_json
from games.engine.deal import new_match
from games.engine.options import Options
from games.engine.state import State
from games.models import Match, Move

log = logging.getLogger(__name__)

CHECKPOINT_EVERY = 50
CACHE_SECONDS = 6 * 3600


class ReplayError(RuntimeError):
    """The move log does not replay (an action is refused or lands on another version)."""


def match_options(match: Match) -> Options:
    """The options the match was dealt with (kept in its state, whatever the table says now)."""
    return Options.from_dict(match.state["options"])


def initial_state(match: Match) -> State:
    return new_match(match_options(match), match.seed)


def _key(match: Match, version: int) -> str:
    # The seed keeps keys apart across databases that reuse ids (tests, restores).
    return f"replay:{match.pk}:{match.seed}:{version}"


def _cached(match: Match, version: int) -> State | None:
    data = cache.get(_key(match, version))
    return state_from_json(data) if data is not None else None


def _store(match: Match, state: State) -> None:
    cache.set(_key(match, state.version), state_to_json(state), CACHE_SECONDS)


def apply_move(state: State, seq: int, action_json: dict[str, Any]) -> State:
    """``state`` after the logged action ``seq``; ReplayError if the log does not fit."""
    try:
        action = action_from_json(action_json)
    except CodecError as e:
        raise ReplayError(f"move {seq}: {e}") from None
    outcome = apply(state, action)
    if isinstance(outcome, Rejection):
        raise ReplayError(f"move {seq} refused on replay: {outcome.code}")
    if outcome.state.version != seq:
        raise ReplayError(f"move {seq} produced version {outcome.state.version}")
    return outcome.state


def _start_from(match: Match, version: int) -> State:
    """The nearest known state at or before ``version``: the version before (a spectator's
    previous push), a checkpoint, or the deal."""
    for candidate in (version, version - 1):
        if candidate >= 0:
            state = _cached(match, candidate)
            if state is not None:
                return state
    checkpoint = version - version % CHECKPOINT_EVERY
    while checkpoint > 0:
        state = _cached(match, checkpoint)
        if state is not None:
            return state
        checkpoint -= CHECKPOINT_EVERY
    return initial_state(match)


def state_at(match: Match, version: int) -> State:
    """The match's state right after move ``version`` (0: the deal). Raises ReplayError if the
    log does not replay, ValueError for a version the match has not reached."""
    if not 0 <= version <= match.version:
        raise ValueError(f"version {version} is outside 0..{match.version}")
    state = _start_from(match, version)
    if state.version < version:
        actions = (
            Move.objects.filter(match=match, seq__gt=state.version, seq__lte=version)
            .order_by("seq")
            .values_list("seq", "action")
        )
        for seq, action in actions:
            state = apply_move(state, seq, action)
            if seq % CHECKPOINT_EVERY == 0:
                _store(match, state)
    if state.version != version:
        raise ReplayError(f"the log stops at version {state.version}, not {version}")
    _store(match, state)
    return state


def load_state(match: Match) -> State:
    """The live engine state stored on ``match`` (every hand: project it before showing)."""
    return state_from_json(match.state)


def state_or_deal(match: Match, version: int) -> State:
    """``state_at(match, version)``, or the deal when the log does not replay (a bug, logged):
    a viewer then sees the deal, never a state past what they may see."""
    try:
        return state_at(match, version)
    except ReplayError:
        log.exception("match %s: the move log does not replay", match.pk)
        return initial_state(match)


def replay_all(match: Match) -> Iterator[tuple[Move, State]]:
    """Every (move, state after it) from the first move to the last, in order: the whole log
    replayed once. The move rows are yielded as stored (``Move`` instances)."""
    state = initial_state(match)
    for move in Move.objects.filter(match=match).order_by("seq"):
        state = apply_move(state, move.seq, move.action)
        yield move, state
