"""The random driver of the properties reaches the interesting paths."""

from __future__ import annotations

from collections import Counter

from games.engine import (
    Options,
)

from .driver import game


def test_the_driver_reaches_windows_claims_tributes_and_timeouts():
    """The random driver exercises the interesting paths (so the properties above mean
    something): windows, hooks, unhooks, bombs into windows, timeouts, tributes and returns."""
    seen: Counter = Counter()
    for n, players in enumerate((2, 4, 6, 8)):
        options = Options(players=players, bomb_in_window=True, joker_hook=players >= 6)
        for step in game(options, 100 + n, 200 + n, rounds=3):
            seen.update(e.kind for e in step.events)
            seen[type(step.action).__name__] += 1
    for kind in (
        "window",
        "hook",
        "unhook",
        "bomb",
        "outranked",
        "tribute",
        "return",
        "trick_won",
        "round_over",
        "Timeout",
        "Return",
        "NextRound",
        "finished",
    ):
        assert seen[kind] > 0, kind
