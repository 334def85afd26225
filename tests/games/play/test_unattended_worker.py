"""A casual match nobody is at stops through the real clock and Celery workers (Redis broker,
PostgreSQL), with ``GAMES_UNATTENDED_STOP_SECONDS`` of 1 in the workers: a person who does
nothing is timed out twice and their stand-in plays; while their page is open the match goes
on, and once it has closed the AI stops the match about a second later, after which nothing
moves any more."""

from __future__ import annotations

import time

import pytest

from games.live import away
from games.models import Match, Move, Seat, Table
from games.play import tables
from tests.games.conftest import install_state
from tests.games.play.test_standins_worker import HANDS
from tests.servers import wait_for

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.worker_env(GAMES_UNATTENDED_STOP_SECONDS="1")
def test_the_worker_stops_a_match_once_nobody_is_there(worker, make_table, settings):
    from games.engine.deal import start_round

    settings.GAMES_AWAY_GRACE_SECONDS = 0  # ana's page, closed below, is gone at once
    table = make_table(["ana", None], {"claim_window_seconds": 0, "turn_seconds": 2})
    match = tables.start(table.pk, table.host, seed=6)
    install_state(match, start_round(table.engine_options(), HANDS, 2, leader=0, seed=6))
    away.check(table.pk, (0, "ana-tab"))  # ana's page is open, but she never plays

    def seat() -> Seat:
        return Seat.objects.get(table=table, number=0)

    def moves() -> int:
        return Move.objects.filter(match=match).count()

    def status() -> str:
        return Table.objects.values_list("status", flat=True).get(pk=table.pk)

    def heard(check):
        """``check``, ana's open page heard from first (her socket's heartbeat renews it)."""

        def polled() -> bool:
            away.check(table.pk, (0, "ana-tab"))
            return check()

        return polled

    assert wait_for(heard(lambda: seat().stand_in == "away"), 40), "two timeouts: the stand-in"
    handed = moves()
    assert wait_for(heard(lambda: moves() >= handed + 3), 40), "the stand-in and the AI play on"
    time.sleep(1.5)
    assert status() == Table.Status.PLAYING, "her page is open: the match goes on past the wait"

    away.closed(table.pk, 0, "ana-tab")
    closed_at = time.monotonic()
    assert wait_for(lambda: status() == Table.Status.ABANDONED, 30), "nobody there: stopped"
    assert time.monotonic() - closed_at >= 1.0, "not before the wait"
    stopped = Match.objects.get(pk=match.pk)
    assert stopped.deadline is None and stopped.winner_team is None
    count = moves()
    time.sleep(3)  # the AI pauses and turn time the stop made moot
    assert moves() == count, "nothing moves after the stop"
