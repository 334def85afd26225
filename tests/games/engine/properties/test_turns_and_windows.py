"""Rounds terminate, turns skip finished seats, and every claim window resolves."""

from __future__ import annotations

from hypothesis import given, seed, settings

from games.engine import (
    MATCH_OVER,
    ROUND_OVER,
    WINDOW,
    Options,
    Timeout,
)
from games.engine.claims import answerers
from games.engine.rules import seats_to_act

from .driver import GAMES_SEED, PLAYERS, SETTINGS, examples, game, seeds, table_options


@PLAYERS
@seed(GAMES_SEED)
@settings(max_examples=examples(15), **SETTINGS)
@given(table=table_options, seed=seeds, choices=seeds)
def test_rounds_terminate_and_turns_skip_finished_seats(players, table, seed, choices):
    """Every round ends within the bound with one team out; the turn never lands on a finished
    seat; the finish order lists exactly the seats without cards; the version grows by one per
    accepted action."""
    options = Options(players=players, **table)
    rounds_over = 0
    for step in game(options, seed, choices, rounds=3):
        state = step.after
        assert state.version == step.before.version + 1
        assert len(set(state.finished)) == len(state.finished)
        assert set(state.finished) == {s for s, h in enumerate(state.hands) if not h}
        if state.phase == "play":
            assert state.hands[state.turn], "turn on a finished seat"
            assert state.window is None
        elif state.phase in (ROUND_OVER, MATCH_OVER):
            rounds_over += 1
            team = state.result.team
            assert all(not state.hands[s] for s in range(team, options.players, 2))
            assert list(state.result.caught) == [
                s for s in range(1 - team, options.players, 2) if state.hands[s]
            ]
            assert (state.turn, state.top, state.window) == (None, None, None)
        else:
            assert state.turn is None
    assert rounds_over >= 1


@PLAYERS
@seed(GAMES_SEED)
@settings(max_examples=examples(15), **SETTINGS)
@given(table=table_options, seed=seeds, choices=seeds)
def test_every_window_resolves(players, table, seed, choices):
    """An open window always waits for someone: some active non-owner seat has not answered (a
    window whose answers settle it is resolved at once); after a Timeout the window is gone or a
    new, unanswered chain window opened; no window ever opens with hooking disabled."""
    options = Options(players=players, **table)
    for step in game(options, seed, choices):
        state = step.after
        if state.phase == WINDOW:
            assert options.claim_window_seconds > 0
            window = state.window
            asked = answerers(state)
            assert asked and window.owner not in asked
            assert any(window.answers[s] is None for s in asked)
            assert all(window.answers[s] is None for s in range(options.players) if s not in asked)
            assert seats_to_act(state) == [s for s in asked if window.answers[s] is None]
            assert state.top is not None and state.turn is None
        else:
            assert state.window is None
        if isinstance(step.action, Timeout) and step.before.phase == WINDOW:
            assert state.window is None or (
                state.window.chain and all(a is None for a in state.window.answers)
            )
