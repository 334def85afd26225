"""Fixtures for live-play tests: tables with people and AI seats, matches from chosen hands;
``page`` and ``seat_of`` for the tests of the pages.
(The site's Celery workers: the ``worker`` fixture of tests/conftest.py.)"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest
from django.urls import reverse

from accounts.models import User
from games.engine.codec import state_to_json
from games.engine.deal import start_round
from games.engine.state import State
from games.models import Match, Seat, Table
from games.play import services, tables
from tests.conftest import PASSWORD


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


# --- finished matches for the player statistics and site rating tests --------------------------
# Ended through the real writer (its last commit's callbacks run, so ``match_finished`` arrives
# as in production); tests/leagues/conftest.py shares them for the leaderboard.

#: A quick match to 3 without claim windows (RULES.md §10).
FINISH_QUICK = {"target_level": "3", "claim_window_seconds": 0}


def finished_table(names, options: dict, **fields) -> Table:
    """A table with the people ``names`` (created on first use; None: an AI seat), the first
    hosting at seat 0."""

    def person(name: str) -> User:
        user = User.objects.filter(username=name).first()
        return user or User.objects.create_user(username=name, password=PASSWORD)

    host = person(names[0])
    table = tables.create_table(
        host, name="stats table", players=len(names), options=options, **fields
    )
    for number, name in enumerate(names):
        if number and name:
            tables.take_seat(table.pk, person(name), number)
    tables.fill_with_ai(table.pk, host, Seat.Policy.HEURISTIC)
    return table


def people_of(table: Table) -> dict:
    return {s.number: s.user for s in Seat.objects.filter(table=table).select_related("user")}


@pytest.fixture
def bomb_to_win(db, django_capture_on_commit_callbacks) -> Callable[..., Match]:
    """A four-person table (``names``, seats 0–3) whose team 1 (seats 0, 2) is at the target
    level 3 and wins in one trick: seat 2 leads its last card (out first), seat 3 beats it,
    seat 0 bombs 5-5-5 with its last cards. Team 2 (seats 1, 3) is caught whole: match won."""

    def play(names=("ana", "bo", "cy", "di"), **fields) -> Match:
        table = finished_table(list(names), FINISH_QUICK, **fields)
        match = tables.start(table.pk, table.host, seed=11)
        hands = [("5S", "5H", "5D"), ("3D", "4D"), ("JH",), ("3C", "QC")]
        state = start_round(table.engine_options(), hands, 3, (3, 2), leader=2, seed=11)
        install_state(match, state)
        Match.objects.filter(pk=match.pk).update(level_team0=3)
        match.rounds.update(level=3, levels_before=[3, 2])
        people = people_of(table)

        def act(number: int, **payload) -> None:
            version = Match.objects.get(pk=match.pk).version
            result = services.submit(match.pk, people[number], {"version": version, **payload})
            assert result.ok, result

        act(2, action="play", cards=["JH"])
        act(3, action="play", cards=["QC"])
        with django_capture_on_commit_callbacks(execute=True):
            act(0, action="play", cards=["5S", "5H", "5D"])
        match = Match.objects.select_related("table").get(pk=match.pk)
        assert match.winner_team == 0
        return match

    return play


@pytest.fixture
def resigned(db, django_capture_on_commit_callbacks) -> Callable[..., Match]:
    """A started table of ``names`` (None: an AI seat) where seat ``by`` resigns at once."""

    def play(names, by: int = 0, callbacks: bool = True, **fields) -> Match:
        table = finished_table(list(names), FINISH_QUICK, **fields)
        match = tables.start(table.pk, table.host, seed=5)
        person = people_of(table)[by]
        payload = {"action": "resign", "version": match.version}
        if callbacks:
            with django_capture_on_commit_callbacks(execute=True):
                assert services.submit(match.pk, person, payload).ok
        else:
            assert services.submit(match.pk, person, payload).ok
        return Match.objects.select_related("table").get(pk=match.pk)

    return play


def page(client, table: Table) -> str:
    """The table page as ``client`` gets it (asserted 200)."""
    response = client.get(reverse("games:table", args=[table.pk]))
    assert response.status_code == 200
    return response.content.decode()


def seat_of(table: Table, number: int) -> Seat:
    """Seat ``number`` of ``table``."""
    return Seat.objects.get(table=table, number=number)


@pytest.fixture
def open_table(make_user) -> Table:
    """A 4-seat table "open" of the host, nobody else seated, not started."""
    host = make_user("host")
    return tables.create_table(host, name="open", players=4, options={})


@pytest.fixture
def started_two_seats(make_user) -> tuple[Table, Match]:
    """A 2-seat table (one deck: no two hands share a card), ana at 0 and bo at 1, fresh deal."""
    ana, bo = make_user("ana"), make_user("bo")
    table = tables.create_table(ana, name="duel", players=2, options={})
    tables.take_seat(table.pk, bo, 1)
    match = tables.start(table.pk, ana, seed=414)
    return table, match
