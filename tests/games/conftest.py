"""Fixtures for live-play tests: tables with people and AI seats, matches from chosen hands.
(The site's Celery workers: the ``worker`` fixture of tests/conftest.py.)"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from games import tables
from games.engine.codec import state_to_json
from games.engine.deal import start_round
from games.engine.state import State
from games.models import Match, Seat, Table


@pytest.fixture
def make_table(make_user) -> Callable[..., Table]:
    """A table with people at the given seats (names) and AI seats elsewhere, not started.

    ``make_table(["ana", None, "bo", None])``: ana hosts at seat 0, bo sits at seat 2.
    """

    def make(people: Sequence[str | None], options: dict | None = None, **fields) -> Table:
        host = make_user(people[0])
        table = tables.create_table(
            host, name="test table", players=len(people), options=options or {}, **fields
        )
        for number, name in enumerate(people):
            if number and name:
                tables.take_seat(table.pk, make_user(name), number)
        tables.fill_with_ai(table.pk, host, Seat.Policy.HEURISTIC)
        return table

    return make


def install_state(match: Match, state: State) -> Match:
    """Replace a match's state (e.g. a round from chosen hands) as a fresh turn would be."""
    match.state = state_to_json(state)
    match.version = state.version
    match.phase = state.phase
    match.deadline_token = state.version
    match.save()
    return match


@pytest.fixture
def start_with_hands() -> Callable[..., Match]:
    """Start a table's match, then give the seats chosen hands (RULES.md notation)."""

    def start(
        table: Table, hands: Sequence[Sequence[str]], leader: int = 0, level: int = 2
    ) -> Match:
        match = tables.start(table.pk, table.host, seed=1)
        state = start_round(
            table.engine_options(), [tuple(h) for h in hands], level, leader=leader, seed=1
        )
        return install_state(match, state)

    return start
