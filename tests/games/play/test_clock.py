"""The timer clock (games.play.clock) on the real Redis, and through a real Celery worker.

The first tests run clocks in this process with a recording ``fire``; the last ones start a
worker (its clock thread sends ``tasks.expire``) on the test database, as production runs it.
"""

from __future__ import annotations

import re
import subprocess
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import redis
from django.conf import settings as django_settings
from django.db import connection
from django.utils import timezone

from games.engine.deal import start_round
from games.models import Match, Move
from games.play import clock, tables
from tests import servers
from tests.games.conftest import install_state

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def clean_keys(settings) -> Iterator[None]:
    """This test's own clock keys (a fresh namespace), removed afterwards."""
    settings.REDIS_NAMESPACE = f"{django_settings.REDIS_NAMESPACE}timers-{uuid.uuid4().hex[:8]}-"
    yield
    clock._redis().delete(*clock.keys())


class Recorder:
    """A ``fire`` that notes (match id, token, when) instead of sending a task."""

    def __init__(self) -> None:
        self.rung: list[tuple[int, int, float]] = []
        self.rearms = 0
        self.lock = threading.Lock()

    def fire(self, match_id: int, token: int) -> None:
        with self.lock:
            self.rung.append((match_id, token, time.time()))

    def rearm(self) -> None:
        self.rearms += 1


@pytest.fixture
def ringing(clean_keys) -> Iterator[tuple[clock.Clock, Recorder]]:
    """A running in-process clock that records what it rings."""
    recorder = Recorder()
    running = clock.Clock(fire=recorder.fire, rearm=recorder.rearm)
    running.start()
    yield running, recorder
    running.stop()


def at(seconds: float) -> datetime:
    return datetime.now(UTC) + timedelta(seconds=seconds)


def test_an_armed_deadline_rings_once_at_its_time_not_before(ringing):
    """arm → the clock rings (match, token) once, after the deadline and well inside a window."""
    _, recorder = ringing
    deadline = at(0.6)
    clock.arm(41, 3, deadline)
    assert clock.pending() == {41: (3, pytest.approx(deadline.timestamp()))}
    # Polled until rung and gone from the set (nothing left to ring twice), not slept on.
    assert wait_for(lambda: bool(recorder.rung) and clock.pending() == {}, seconds=10)
    assert [(m, t) for m, t, _ in recorder.rung] == [(41, 3)]
    late = recorder.rung[0][2] - deadline.timestamp()
    assert 0 <= late < 0.3
    assert clock.pending() == {}


def test_a_later_arm_supersedes_the_earlier_deadline(ringing):
    """Re-arming a match replaces its deadline, sooner or later: the old one never rings."""
    _, recorder = ringing
    clock.arm(1, 1, at(0.3))
    later = at(0.8)
    clock.arm(1, 2, later)  # the next action pushed the deadline back
    clock.arm(2, 1, at(1.5))
    sooner = at(0.4)
    clock.arm(2, 2, sooner)  # a claim window opened: a shorter deadline
    # Polled until both rang and the set is empty (a superseded deadline still in it would
    # ring by 1.5 s and be caught below), not slept on.
    assert wait_for(lambda: len(recorder.rung) >= 2 and clock.pending() == {}, seconds=10)
    assert sorted((m, t) for m, t, _ in recorder.rung) == [(1, 2), (2, 2)]
    when = {m: w for m, _, w in recorder.rung}
    assert later.timestamp() <= when[1] < later.timestamp() + 0.3
    assert sooner.timestamp() <= when[2] < sooner.timestamp() + 0.3


def test_an_older_token_arriving_late_never_replaces_a_newer_one(clean_keys):
    """Arms run after commit in several processes: a late arm of an older token is ignored."""
    clock.arm(5, 7, at(10))
    clock.arm(5, 6, at(1))
    assert clock.pending()[5][0] == 7
    clock.arm(5, 7, at(20))  # the same token again (a re-arm from the database) is taken
    assert clock.pending()[5][1] == pytest.approx(at(20).timestamp(), abs=0.1)


def test_a_naive_deadline_is_refused(clean_keys):
    """A deadline without a time zone would be read in local time: refused."""
    with pytest.raises(ValueError):
        clock.arm(1, 1, datetime.now())


def test_two_clocks_never_ring_one_deadline_twice(clean_keys):
    """Two clocks (own connections, own threads) share 300 deadlines: each rings exactly once."""
    recorder = Recorder()
    url = django_settings.REDIS_URL
    clocks = [
        clock.Clock(
            fire=recorder.fire,
            rearm=recorder.rearm,
            poll_seconds=0.01,
            client=redis.Redis.from_url(url),
        )
        for _ in range(2)
    ]
    clock.arm_many([(m, m * 10, at(0.2 + (m % 50) / 100)) for m in range(300)])
    for c in clocks:
        c.start()
    try:  # polled until all rang and the set is empty, not slept on
        wait_for(lambda: len(recorder.rung) >= 300 and clock.pending() == {}, seconds=10)
    finally:
        for c in clocks:
            c.stop()
    rung = sorted((m, t) for m, t, _ in recorder.rung)
    assert rung == [(m, m * 10) for m in range(300)]
    assert sum(c.fired for c in clocks) == 300


def test_a_clock_asks_for_a_rearm_when_it_starts_and_when_redis_lost_the_set(clean_keys):
    """The first tick re-arms from the database; so does the first tick after Redis lost the set
    (its marker key is gone); ticks in between do not."""
    recorder = Recorder()
    c = clock.Clock(fire=recorder.fire, rearm=recorder.rearm)
    c.tick()
    c.tick()
    assert recorder.rearms == 1
    clock._redis().delete(*clock.keys())  # what a Redis restart does to the set
    c.tick()
    c.tick()
    assert recorder.rearms == 2


def test_a_deadline_whose_task_cannot_be_sent_is_kept_for_the_next_tick(clean_keys):
    """If sending the task fails (the broker is down), the deadline goes back into the set."""
    calls: list[tuple[int, int]] = []

    def flaky(match_id: int, token: int) -> None:
        calls.append((match_id, token))
        if len(calls) == 1:
            raise ConnectionError("broker down")

    c = clock.Clock(fire=flaky, rearm=lambda: None)
    clock.arm(8, 2, at(-1))
    with pytest.raises(ConnectionError):
        c.tick()
    assert clock.pending()[8][0] == 2
    c.tick()
    assert calls == [(8, 2), (8, 2)] and clock.pending() == {}


@pytest.mark.django_db
def test_rearm_from_db_arms_every_running_deadline(clean_keys, make_table):
    """Running matches with a deadline are armed with their stored token; finished ones and
    matches without a deadline are not."""
    # Matches straight from the models: the test needs rows, not play.
    rows = []
    for n, (deadline, winner) in enumerate(
        [(at(30), None), (at(-5), None), (None, None), (at(30), 1)]
    ):
        table = make_table([f"q{n}", None, None, None])
        rows.append(
            Match.objects.create(
                table=table,
                seed=n,
                state={},
                deadline=deadline,
                deadline_token=10 + n,
                winner_team=winner,
            )
        )
    assert clock.rearm_from_db() == 2
    armed = clock.pending()
    assert {m: t for m, (t, _) in armed.items()} == {rows[0].pk: 10, rows[1].pk: 11}
    assert armed[rows[0].pk][1] == pytest.approx(rows[0].deadline.timestamp())


# --- through a real worker ------------------------------------------------------------------


@pytest.fixture
def start_worker(settings) -> Iterator[Callable[[], subprocess.Popen]]:
    """Starts (when the test says) the site's main Celery worker on the test database
    (``servers.start_worker``; it runs the clock and takes ``expire``), its queues purged of
    older tests' tasks; ``-l info`` so the test can count the tasks it received."""
    env = servers.test_database_env(connection.settings_dict)
    procs: list[subprocess.Popen] = []

    def start() -> subprocess.Popen:
        servers.purge_queues(env)
        procs.append(servers.start_worker(env, "main", loglevel="info"))
        return procs[-1]

    clock._redis().delete(*clock.keys())
    yield start
    servers.stop(*procs)
    clock._redis().delete(*clock.keys())


def output(proc: subprocess.Popen) -> str:
    """A stopped worker's log."""
    proc.terminate()
    out, _ = proc.communicate(timeout=20)
    return out


def wait_for(check: Callable[[], bool], seconds: float = 20.0) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check():
            return True
        time.sleep(0.05)
    return False


def turn_at(make_table, seconds: float) -> Match:
    """A started 4-person match whose leader's turn has a deadline ``seconds`` from now, stored
    in the database but not armed (the test arms it, or not)."""
    table = make_table(["ana", "bo", "cy", "di"], {"turn_seconds": 120})
    match = tables.start(table.pk, table.host, seed=3)
    state = start_round(
        table.engine_options(),
        [("9H", "3C"), ("9D", "4C"), ("5H", "6C"), ("7S", "8C")],
        2,
        leader=0,
    )
    install_state(match, state)
    Match.objects.filter(pk=match.pk).update(
        deadline=timezone.now() + timedelta(seconds=seconds),
        deadline_kind="turn",
        deadline_token=state.version,
    )
    return Match.objects.get(pk=match.pk)


def rearmed(match: Match) -> bool:
    """The worker's start-up rearm has armed the match's stored deadline (its first tick sent
    the rearm; until it ran, a test's own arm could be overwritten by it)."""
    token, score = clock.pending().get(match.pk, (None, 0.0))
    return token == match.deadline_token and abs(score - match.deadline.timestamp()) < 1e-3


def timeouts(match: Match) -> list[Move]:
    return list(Move.objects.filter(match=match, seat__isnull=True, action__type="timeout"))


@pytest.mark.django_db(transaction=True)
def test_the_worker_rings_an_armed_turn_once_at_its_deadline(start_worker, make_table):
    """arm → the worker applies the turn's timeout once, after its deadline and within a
    fraction of a second; a deadline superseded before it was due sends no task at all."""
    # Not due before the worker is up (at load 8 its start took over 30 s: it rang this one at
    # once, and the next turn's deadline replaced it before the test saw it armed).
    match = turn_at(make_table, 2 * servers.START_SECONDS)
    proc = start_worker()
    assert wait_for(lambda: rearmed(match), servers.START_SECONDS)
    clock.arm(match.pk, 0, timezone.now() + timedelta(seconds=0.5))
    # The next "action": a new token and deadline replace the one above before it is due.
    deadline = timezone.now() + timedelta(seconds=1.0)
    Match.objects.filter(pk=match.pk).update(deadline=deadline, deadline_token=5)
    clock.arm(match.pk, 5, deadline)
    assert wait_for(lambda: timeouts(match), 10)
    moved_at = timezone.now()
    assert deadline <= moved_at < deadline + timedelta(seconds=1.5)
    time.sleep(1.0)
    assert len(timeouts(match)) == 1
    log = output(proc)
    # Until the deadline was applied, one expire task reached the worker: the superseded
    # deadline sent none. (Later lines may be the next turn's timer.)
    applied = re.search(r"games\.tasks\.expire\[[^]]+\] succeeded in [^:]+: True", log)
    assert applied, log
    received = re.findall(r"games\.tasks\.expire\[[^]]+\] received", log[: applied.start()])
    assert len(received) == 1, log


@pytest.mark.django_db(transaction=True)
def test_a_restarted_worker_rearms_deadlines_from_the_database(start_worker, make_table):
    """Redis lost the set (nothing armed) and a worker starts: it re-arms the stored deadline
    and rings it on time, long before the sweep's grace would."""
    match = turn_at(make_table, 6.0)  # a worker takes a second or two to start
    clock._redis().delete(*clock.keys())  # what a Redis restart does to the set
    deadline = match.deadline
    start_worker()
    assert wait_for(lambda: rearmed(match) or timeouts(match), servers.START_SECONDS)
    # On a slow machine the worker may only start after the deadline: then it rings at once.
    armed_at = timezone.now()
    assert wait_for(lambda: timeouts(match), 15)
    moved_at = timezone.now()
    assert deadline <= moved_at < max(deadline, armed_at) + timedelta(seconds=1.5)
    assert len(timeouts(match)) == 1


@pytest.mark.django_db(transaction=True)
def test_a_running_worker_rearms_when_redis_loses_the_set(start_worker, make_table):
    """The set vanishes under a running worker (a Redis restart): its clock notices the missing
    marker, re-arms from the database and still rings the deadline on time."""
    match = turn_at(make_table, 2 * servers.START_SECONDS)  # not due before the worker is up
    start_worker()
    assert wait_for(lambda: rearmed(match), servers.START_SECONDS)
    deadline = timezone.now() + timedelta(seconds=1.5)
    Match.objects.filter(pk=match.pk).update(deadline=deadline)
    clock.arm(match.pk, match.deadline_token, deadline)
    clock._redis().delete(*clock.keys())
    assert wait_for(lambda: timeouts(match), 15)
    assert deadline <= timezone.now() < deadline + timedelta(seconds=1.5)
