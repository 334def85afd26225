"""Replay and the JSON codec are exact."""

from __future__ import annotations

import json

from hypothesis import given, seed, settings

from games.engine import (
    Options,
    Rejection,
    apply,
    new_match,
)
from games.engine.codec import (
    action_from_json,
    action_to_json,
    event_from_json,
    event_to_json,
    state_from_json,
    state_to_json,
)
from games.engine.views import event_for

from .driver import GAMES_SEED, PLAYERS, SETTINGS, examples, game, seeds, table_options


@PLAYERS
@seed(GAMES_SEED)
@settings(max_examples=examples(10), **SETTINGS)
@given(table=table_options, seed=seeds, choices=seeds)
def test_replay_and_codec_are_exact(players, table, seed, choices):
    """Re-applying the recorded actions to ``new_match(options, seed)`` reproduces every event
    and the exact final state; the JSON codec round-trips every state, action and event (as
    every viewer sees it too) exactly, both ways."""
    options = Options(players=players, **table)
    actions, events, final = [], [], None
    for step in game(options, seed, choices, rounds=3):
        actions.append(step.action)
        events.append(step.events)
        final = step.after
        wire = json.loads(json.dumps(state_to_json(step.after)))
        assert state_from_json(wire) == step.after
        assert action_from_json(json.loads(json.dumps(action_to_json(step.action)))) == (
            step.action
        )
        for event in step.events:
            for shown in {event_for(event, v) for v in [None, *range(options.players)]} - {None}:
                assert shown is not None
                stored = json.loads(json.dumps(event_to_json(shown)))
                assert event_from_json(stored) == shown
                assert event_to_json(event_from_json(stored)) == stored
    state = new_match(options, seed)
    for action, expected in zip(actions, events, strict=True):
        outcome = apply(state, action)
        assert not isinstance(outcome, Rejection)
        assert outcome.events == expected
        state = outcome.state
    assert state == final
    assert state.version == len(actions)
