"""Real processes for the tests that need them: Daphne and the Celery workers on the test database.

One place for what the log, socket-size, browser and worker tests each started on their own: a
free port, the environment that points a child process at the test database, Daphne's and the
workers' command lines, waiting until Daphne answers, and stopping what was started.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_database_env(db: dict, **extra: str) -> dict[str, str]:
    """This process's environment for a child serving the test database ``db`` (Django's
    ``connection.settings_dict``) in development mode, plus ``extra``."""
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env["DATABASE_URL"] = f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    env["DJANGO_DEBUG"] = "1"
    env.update(extra)
    return env


def start_daphne(port: int, env: dict[str, str], stdout, stderr=subprocess.STDOUT):
    """Daphne serving ``config.asgi:application`` on 127.0.0.1:``port`` (a ``Popen``)."""
    argv = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port)]
    return subprocess.Popen([*argv, "config.asgi:application"], cwd=ROOT, env=env,
                            stdout=stdout, stderr=stderr)  # fmt: skip


#: The queues each worker of the site takes, as in production (deploy/, docs/AI.md): the main
#: worker everything but the AI seats' decisions (and it runs the timer clock), the AI worker
#: those alone. ``both`` is one worker taking every queue.
WORKER_QUEUES = ("main", "ai", "review", "both")


def worker_argv(
    env: dict[str, str],
    queues: str = "main",
    *,
    pool: str = "solo",
    concurrency: int | None = None,
    loglevel: str = "warning",
    isolated: bool = True,
) -> list[str]:
    """The ``celery worker`` command line of a worker taking ``queues`` (one of
    ``WORKER_QUEUES``) on the Redis namespace of ``env``, with the given pool, concurrency and
    log level; ``isolated``: gossip, mingle and heartbeats off (a test's worker talks to no
    other), else on as in production. Raises ValueError for other ``queues``."""
    if queues not in WORKER_QUEUES:
        raise ValueError(f"queues must be one of {WORKER_QUEUES}, not {queues!r}")
    ai_queue = f"{env.get('REDIS_NAMESPACE', '')}ai"  # settings.GAMES_AI_QUEUE
    argv = [sys.executable, "-m", "celery", "-A", "config", "worker", "-P", pool, "-l", loglevel,
            "-n", f"{queues}-{os.getpid()}@%h"]  # fmt: skip
    if isolated:
        argv += ["--without-gossip", "--without-mingle", "--without-heartbeat"]
    if concurrency is not None:
        argv += ["-c", str(concurrency)]
    review_queue = f"{env.get('REDIS_NAMESPACE', '')}review"  # settings.GAMES_REVIEW_QUEUE
    if queues == "main":
        argv += ["-X", f"{ai_queue},{review_queue}"]
    elif queues == "ai":
        argv += ["-Q", ai_queue]
    elif queues == "review":
        argv += ["-Q", review_queue]
    return argv


def purge_queues(env: dict[str, str]) -> None:
    """Empty the Celery queues of ``env``'s namespace (tasks an earlier test left), through
    kombu in this process (a ``celery purge`` process costs seconds of start-up per worker)."""
    from kombu import Connection

    from config import embedded_redis

    namespace = env.get("REDIS_NAMESPACE", "")
    with Connection(embedded_redis.kombu_url(env["REDIS_URL"])) as broker:
        for queue in (f"{namespace}celery", f"{namespace}ai", f"{namespace}review"):
            broker.default_channel.queue_purge(queue)


def start_worker(
    env: dict[str, str],
    queues: str = "main",
    *,
    stdout=subprocess.PIPE,
    pool: str = "solo",
    concurrency: int | None = None,
    loglevel: str = "warning",
    isolated: bool = True,
) -> subprocess.Popen:
    """A Celery worker (a ``Popen``, text output to ``stdout``, stderr with it) on ``env``,
    taking ``queues`` (``worker_argv``). It does not wait for the worker to be ready: tasks sent
    meanwhile wait in Redis. The ``worker`` fixture's pair, if running, is stopped first: a test
    that starts its own worker counts on no other taking its namespace's queues."""
    stop_shared_workers()
    argv = worker_argv(env, queues, pool=pool, concurrency=concurrency, loglevel=loglevel,
                       isolated=isolated)  # fmt: skip
    return subprocess.Popen(argv, cwd=ROOT, env=env, stdout=stdout, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL, text=True)  # fmt: skip


def start_workers(env: dict[str, str], stdout=subprocess.PIPE, **options) -> list[subprocess.Popen]:
    """The site's two workers on ``env``, the main one and the AI one (``start_worker`` with
    ``options``), after emptying the queues. Returns ``[main, ai]``."""
    purge_queues(env)
    return [start_worker(env, queues, stdout=stdout, **options) for queues in ("main", "ai")]


class _Shared:
    """The ``worker`` fixture's pair of workers in this test process, kept between its tests."""

    env: dict[str, str] | None = None
    procs: list[subprocess.Popen] = []
    log = None  # their output: a file, as a pipe nobody reads would fill and block them


def _same_env(env: dict[str, str]) -> dict[str, str]:
    """``env`` without what pytest changes for each test (the current test's id)."""
    return {k: v for k, v in env.items() if k != "PYTEST_CURRENT_TEST"}


def shared_workers_running(env: dict[str, str]) -> bool:
    """Whether the kept pair runs, on ``env``."""
    procs = _Shared.procs
    return _Shared.env == _same_env(env) and bool(procs) and all(p.poll() is None for p in procs)


def shared_workers(env: dict[str, str]) -> list[subprocess.Popen]:
    """The site's two workers on ``env`` (``start_workers``), kept running for the next test of
    this process that asks for them: each start imports the whole project in two processes
    (seconds of CPU), and the worker tests do not depend on a fresh worker. The queues are
    purged of older tests' tasks either way; a pair that stopped (a test may stop it, or start
    its own workers: ``start_worker``) or ran on another environment is started afresh."""
    if shared_workers_running(env):
        purge_queues(env)
        return _Shared.procs
    stop_shared_workers()
    log = tempfile.TemporaryFile("w+")
    procs = start_workers(env, stdout=log)
    _Shared.env, _Shared.procs, _Shared.log = _same_env(env), procs, log
    return procs


def shared_workers_log() -> str:
    """The last lines the kept pair wrote (for a failure's message)."""
    if _Shared.log is None:
        return ""
    _Shared.log.seek(0)
    return "".join(_Shared.log.readlines()[-30:])


def stop_shared_workers() -> None:
    """Stop the kept pair, if any (the end of a test session, or a test's own workers)."""
    procs, log = _Shared.procs, _Shared.log
    _Shared.env, _Shared.procs, _Shared.log = None, [], None
    if procs:
        stop(*procs)
    if log is not None:
        log.close()


def wait_for(check: Callable[[], object], seconds: float = 30.0) -> bool:
    """Poll ``check`` every 0.1 s until it is true (True) or ``seconds`` pass (False)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check():
            return True
        time.sleep(0.1)
    return False


#: How long a server started by a test may take to answer. A Daphne imports the whole project
#: before it listens: ~5 s of CPU, over 60 s of wall time when the box runs at load 20 (seen in
#: a CI run). A start that never comes still fails, through ``proc`` exiting or this bound.
START_SECONDS = 240


def wait_http(url: str, proc: subprocess.Popen, seconds: float = START_SECONDS) -> None:
    """Wait until ``url`` answers. Raises RuntimeError if ``proc`` exits or ``seconds`` pass."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}")
        try:
            urllib.request.urlopen(url, timeout=2).read()
            return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"{url} did not answer within {seconds} s")


def stop(*procs: subprocess.Popen, seconds: float = 20) -> None:
    """SIGTERM each process, then SIGKILL whichever is still running after ``seconds``."""
    for proc in procs:
        proc.terminate()
    for proc in procs:
        try:
            proc.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            proc.kill()
