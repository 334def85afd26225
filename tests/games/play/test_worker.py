"""Timers and AI seats through a real Celery worker and the real Redis broker (DESIGN.md rule 3)."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest
from django.db import connection

from config import health
from games.engine.deal import start_round
from games.engine.rules import seats_to_act
from games.live import redis_store
from games.models import Match, Move, Seat
from games.play import services, tables
from tests import servers
from tests.games.conftest import install_state
from tests.servers import wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.live]


def test_a_claim_window_closes_on_time(worker, make_table):
    """Nobody answers a 1-second window: the worker closes it after its deadline, not before."""
    table = make_table(["ana", "bo", "cy", "di"], {"claim_window_seconds": 1, "turn_seconds": 120})
    match = tables.start(table.pk, table.host, seed=3)
    state = start_round(
        table.engine_options(),
        [("9H", "3C"), ("9D", "4C"), ("5H", "6C"), ("7S", "8C")],
        2,
        leader=0,
    )
    install_state(match, state)
    sent = time.monotonic()
    assert services.submit(
        match.pk, table.host, {"action": "play", "cards": ["9H"], "version": 0}
    ).ok
    assert Match.objects.get(pk=match.pk).phase == "window"
    assert wait_for(lambda: Match.objects.get(pk=match.pk).phase != "window", 60)
    waited = time.monotonic() - sent
    closed = services.load_state(Match.objects.get(pk=match.pk))
    assert (closed.phase, closed.turn, closed.top.cards) == ("play", 1, ("9H",))
    assert waited >= 0.95
    last = Move.objects.filter(match=match).order_by("-seq").first()
    assert last.seat is None and last.action == {"type": "timeout"}


def test_ai_seats_move_by_themselves(worker, make_user):
    """An all-AI table starts and its seats play through the worker, no person involved."""
    host = make_user("host")
    table = tables.create_table(
        host, name="demo", players=4, options={"claim_window_seconds": 1, "turn_seconds": 30}
    )
    # AI seats before the host stands up: a table left with every seat empty closes.
    tables.fill_with_ai(table.pk, host, Seat.Policy.HEURISTIC)
    tables.leave_seat(table.pk, host)
    tables.fill_with_ai(table.pk, host, Seat.Policy.HEURISTIC)
    match = tables.start(table.pk, host, seed=11)
    assert wait_for(lambda: Move.objects.filter(match=match, seat__isnull=False).count() >= 6)
    moves = Move.objects.filter(match=match, seat__isnull=False)
    assert {m.action["type"] for m in moves} <= {"play", "pass", "hook", "unhook"}
    replayed = services.load_state(Match.objects.get(pk=match.pk))
    assert replayed.version == Move.objects.filter(match=match).count()


HANDS = [("9H", "3C"), ("9D", "4C"), ("5H", "6C"), ("7S", "8C")]
#: Every other seat holds a pair of 9s: each may hook the 9H, so each expert searches its full
#: budget before answering (with nothing to claim it would answer at once).
CLAIMING_HANDS = [("9H", "3C"), ("9D", "9D"), ("9C", "9C"), ("9S", "9S")]


def open_window(table, hands=HANDS) -> Match:
    """Start ``table``'s match from ``hands`` and play its host's 9H at seat 0: a claim window
    opens that the three other seats may answer (hook with a pair of 9s, or pass)."""
    match = tables.start(table.pk, table.host, seed=3)
    install_state(match, start_round(table.engine_options(), hands, 2, leader=0))
    play = {"action": "play", "cards": ["9H"], "version": 0}
    assert services.submit(match.pk, table.host, play).ok
    assert Match.objects.get(pk=match.pk).phase == "window"
    return match


def signal_tree(proc, sig: int) -> None:
    """Send ``sig`` to ``proc`` and every process under it (a prefork worker's pool processes
    keep running the decisions they prefetched when only their parent is stopped)."""
    pids, todo = [], [proc.pid]
    while todo:
        pid = todo.pop()
        pids.append(pid)
        try:
            children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        except OSError:
            children = []
        todo.extend(int(child) for child in children)
    for pid in pids:
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            pass


def test_a_claim_window_closes_on_time_while_the_ai_worker_is_busy(make_table, settings):
    """The site's two workers as in production (main and AI, prefork pools of two processes).
    Ten tables open a long claim window with three expert seats to answer each: 30 decisions
    queued for the AI worker, each holding a process for the expert's full 0.5 s budget. Once
    the AI worker answers, it is held (SIGSTOP: it takes no further decision, the backlog
    stays), and a people's table opens a 1-second window: its ``expire`` goes to the main
    worker, which closes it after its deadline, with the AI decisions queued ahead of it still
    waiting; let go, the AI worker answers on. One worker taking both queues would hold the
    expire behind the AI decisions (it closed 3.2 s after it opened, 20 decisions queued), and
    held, never close it: it fails this test. Nothing here depends on the machine's speed."""
    # The workers' AI sweep would take the queued decisions for lost (they are older than the
    # longest AI pause by the time the workers are up) and make them a second time, faster:
    # with a long pause it leaves them to their own tasks, as in production.
    env = servers.test_database_env(connection.settings_dict, GAMES_AI_DELAY_SECONDS="30")
    redis_store.client().delete(health.heartbeat_key())
    settings.GAMES_AI_DELAY_SECONDS = 0.1
    servers.purge_queues(env)
    busy = []
    for n in range(10):
        table = make_table([f"host{n}", None, None, None], {"claim_window_seconds": 300})
        Seat.objects.filter(table=table, ai_policy__gt="").update(ai_policy=Seat.Policy.EXPERT)
        busy.append(open_window(table, CLAIMING_HANDS))

    def answered() -> int:
        return Move.objects.filter(match__in=busy, seq__gt=1, seat__isnull=False).count()

    def answers_waiting() -> int:
        """Expert seats still to answer the busy tables' windows."""
        states = [services.load_state(m) for m in Match.objects.filter(pk__in=[m.pk for m in busy])]
        return sum(len(seats_to_act(st)) for st in states if st.phase == "window")

    assert answers_waiting() == 30 and answered() == 0  # all queued, none answered yet
    main = servers.start_worker(env, "main", pool="prefork", concurrency=2)
    workers = [main]
    try:
        # The main worker's clock beats; then the AI worker starts on the queued decisions.
        assert wait_for(lambda: health.check_worker() == "ok", 120), main.poll()
        ai = servers.start_worker(env, "ai", pool="prefork", concurrency=2)
        workers.append(ai)
        assert wait_for(lambda: answered() >= 1, 120), [w.poll() for w in workers]
        signal_tree(ai, signal.SIGSTOP)  # busy for as long as it takes: no further decision
        people = make_table(["ana", "bo", "cy", "di"], {"claim_window_seconds": 1})
        match = open_window(people)
        sent = time.monotonic()
        assert wait_for(lambda: Match.objects.get(pk=match.pk).phase != "window", 60)
        waited = time.monotonic() - sent
        last = Move.objects.filter(match=match).order_by("-seq").first()
        assert last.seat is None and last.action == {"type": "timeout"}
        assert waited >= 0.95, waited  # not before its deadline
        waiting, answered_before = answers_waiting(), answered()
        assert waiting > 0, waiting  # not behind the AI decisions queued ahead of it
        signal_tree(ai, signal.SIGCONT)
        # The AI worker goes on answering the windows that opened before the people's one.
        assert wait_for(lambda: answered() > answered_before, 60), [w.poll() for w in workers]
        assert Move.objects.filter(
            match__in=busy, seq__gt=1, seat__isnull=False, pk__gt=last.pk
        ).exists()
    finally:
        for proc in workers:
            signal_tree(proc, signal.SIGCONT)
        servers.stop(*workers)


def test_only_the_main_worker_runs_the_clock(make_table, tmp_path):
    """The AI worker (``-Q <namespace>ai``) runs no timer clock: alone, it writes no heartbeat
    for ``/healthz`` and rings no deadline; the main worker, started beside it, does both."""
    env = servers.test_database_env(connection.settings_dict)
    redis_store.client().delete(health.heartbeat_key())
    table = make_table(["ana", "bo", "cy", "di"], {"claim_window_seconds": 1})
    servers.purge_queues(env)
    with (tmp_path / "ai.log").open("w") as out:
        ai = servers.start_worker(env, "ai", stdout=out, loglevel="info")
    main = None
    try:
        assert wait_for(lambda: "ready." in (tmp_path / "ai.log").read_text(), 90)
        match = open_window(table)
        time.sleep(3)  # past the window's deadline and a heartbeat period
        assert health.check_worker() == "failing: no heartbeat"
        assert Match.objects.get(pk=match.pk).phase == "window"
        main = servers.start_worker(env, "main")  # its start-up sweep may close the window first
        assert wait_for(lambda: Match.objects.get(pk=match.pk).phase != "window", 90)
        assert wait_for(lambda: health.check_worker() == "ok", 30)
    finally:
        servers.stop(*[p for p in (ai, main) if p is not None])
