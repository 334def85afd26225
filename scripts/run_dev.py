"""Run 414 Club for development: private Redis, migrations, demo account, Celery, Daphne.

`make run` calls this with the project's virtualenv. It owns every process it starts:
Redis first (so the others can reach it), then the three Celery workers and Daphne, each told
REDIS_URL through its environment. Ctrl-C (or SIGTERM) stops them in reverse order.

Three workers, as in production (deploy/): the main one (every queue but the AI's and the
reviews'; it runs the timer clock and the beat schedule), the AI one (only
``settings.GAMES_AI_QUEUE``: AI seats' decisions, an expert's taking up to 0.5 s) and the review
one (only ``settings.GAMES_REVIEW_QUEUE``, one process: the expert's round reviews, issue 20).
Not one worker taking every queue with a larger pool: a pool hands its next task to whichever
process is free, whatever queue it came from, so a burst of searches (or reviews) can occupy
every process while a turn timer or a claim window's close waits; a bigger pool makes that
rarer, never impossible. Separate pools make it impossible, for a few more processes.

It also supervises them, as systemd does in production (deploy/): a worker, Daphne or private
Redis that exits is started again after a pause that doubles from 1 s up to 15 s while it keeps
crashing (``RESTART_PAUSES``; one that ran a minute starts over at 1 s), with one line saying
what exited, how, and when it comes back. The site never stops because one part did.

With REDIS_URL already set, that Redis is used and none is started. With DATABASE_URL
unset, the embedded SQLite file is used.
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE_DIR))  # run as a script: make `config` and the apps importable

from config import embedded_redis  # noqa: E402


def _parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument(
        "--state-dir",
        type=Path,
        default=BASE_DIR / "var",
        help="where the private Redis keeps its socket and log (default: var/)",
    )
    return parser.parse_args(argv)


def _prepare_database() -> None:
    """Migrate and create the demo account, in this process, before any child starts."""
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", interactive=False, verbosity=1)
    call_command("ensure_demo_user")


#: How long Daphne may take to listen before the launcher gives up (seconds). Its start imports
#: the whole site beside three Celery workers doing the same: ~10 s on a quiet 2-core machine,
#: over 30 s on a busy one (a new user's first `make run` failed at a 30 s limit).
DAPHNE_START_SECONDS = 300.0
#: How often the launcher says that Daphne is still starting (seconds).
STILL_STARTING_EVERY = 15.0


def _wait_for_port(host: str, port: int, child: subprocess.Popen[bytes], timeout: float) -> None:
    """Return once ``child`` (Daphne) listens on ``host:port``, saying every
    ``STILL_STARTING_EVERY`` seconds that it is still starting. RuntimeError if it exits first
    or ``timeout`` seconds pass."""
    started = time.monotonic()
    said = started
    while time.monotonic() < started + timeout:
        if child.poll() is not None:
            raise RuntimeError(f"Daphne exited with {child.returncode} before serving")
        try:
            with socket.create_connection((host, port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
        if time.monotonic() - said >= STILL_STARTING_EVERY:
            said = time.monotonic()
            _say(f"still starting: Daphne not listening yet ({said - started:.0f} s; "
                 "a busy machine takes longer)")  # fmt: skip
    raise RuntimeError(f"Daphne did not listen on {host}:{port} within {timeout:.0f} s")


def _stop(children: dict[str, subprocess.Popen[bytes] | None], timeout: float = 15.0) -> None:
    """Stop children newest first (Daphne, then the workers), so nothing outlives its broker."""
    for child in reversed(children.values()):
        if child is not None and child.poll() is None:
            child.send_signal(signal.SIGTERM)
            try:
                child.wait(timeout)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()


class _StopRequested(Exception):
    """Raised from the SIGINT/SIGTERM handler so any step in progress unwinds to `finally`."""


def _request_stop(signum: int, frame: object) -> None:
    raise _StopRequested


def _spawn(*command: str, env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    # Own process group: Ctrl-C reaches only this launcher, which then stops the children
    # in order instead of all of them racing to exit at once.
    return subprocess.Popen([sys.executable, "-m", *command], process_group=0,
                            stdin=subprocess.DEVNULL, env=env)  # fmt: skip


#: The start of the warning a Celery worker prints when it runs as root (celery.platforms'
#: ROOT_DISCOURAGED: a container, a fresh VM), up to its first colon: a -W filter's fields are
#: split on colons, and its message field matches the start of a warning's text.
ROOT_WARNING = "You're running the worker with superuser privileges"


def worker_env(environ: dict[str, str]) -> dict[str, str]:
    """``environ`` for a development worker: the same, with Celery's warning about running as
    root ignored, and only that one. A new user took its eight lines, once per worker, for an
    error; on a developer's own machine there is no other user to run as. Celery offers no
    switch for it (C_FORCE_ROOT only lets a root worker accept pickle), so it is Python's own
    filter, PYTHONWARNINGS, for that message alone, after any the developer set (the later
    filter wins for it; theirs still apply to every other warning). Not in Daphne's
    environment, nor in production's units (deploy/ runs the workers as their own user)."""
    ignore = f"ignore:{ROOT_WARNING}:UserWarning"  # celery's SecurityWarning is a UserWarning
    mine = environ.get("PYTHONWARNINGS", "")
    return {**environ, "PYTHONWARNINGS": f"{mine},{ignore}" if mine else ignore}


#: Pauses before restarting a child that exited (seconds): the n-th crash in a row waits the
#: n-th, the last one repeats. Bounded, so a child that cannot start is retried every 15 s
#: with a line each time, never in a tight loop.
RESTART_PAUSES = (1.0, 2.0, 4.0, 8.0, 15.0)
#: A child that ran at least this long before it exited counts as a first crash again.
STABLE_SECONDS = 60.0


def exit_reason(returncode: int) -> str:
    """How a process ended, for the log: ``exit code 1`` or ``signal SIGKILL``."""
    if returncode < 0:
        try:
            return f"signal {signal.Signals(-returncode).name}"
        except ValueError:
            return f"signal {-returncode}"
    return f"exit code {returncode}"


@dataclass
class Supervised:
    """A child the launcher keeps running.

    ``start`` makes its process (a Popen, or an EmbeddedRedis holding one); ``check(now)``,
    called every few tenths of a second, notices that it exited and starts it again once its
    pause is over. ``name`` is what the log lines call it; ``restarts`` counts the restarts.
    """

    name: str
    start: Callable[[], subprocess.Popen[bytes] | embedded_redis.EmbeddedRedis]
    process: subprocess.Popen[bytes] | None = None
    handle: object = None
    started_at: float = 0.0
    crashes: int = 0
    restart_at: float | None = None
    restarts: int = 0

    def launch(self, now: float) -> None:
        """Start the process now (raises what ``start`` raises)."""
        self.handle = self.start()
        self.process = getattr(self.handle, "process", self.handle)
        self.started_at, self.restart_at = now, None

    def check(self, now: float) -> None:
        """Restart the child if it exited and its pause is over; say so in one line each."""
        if self.restart_at is not None:
            if now >= self.restart_at:
                try:
                    self.launch(now)
                except (OSError, RuntimeError) as error:  # e.g. the port is still taken
                    self._pause(now, f"could not start again ({error})")
                    return
                self.restarts += 1
                _say(f"{self.name} restarted (pid {self.process.pid})")
            return
        code = self.process.poll()
        if code is None:
            return
        if now - self.started_at >= STABLE_SECONDS:
            self.crashes = 0
        try:  # what is left of its process group (a worker's pool, its embedded beat)
            os.killpg(self.process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        self._pause(now, f"(pid {self.process.pid}) exited with {exit_reason(code)}")

    def _pause(self, now: float, what: str) -> None:
        pause = RESTART_PAUSES[min(self.crashes, len(RESTART_PAUSES) - 1)]
        self.crashes += 1
        self.restart_at = now + pause
        _say(f"{self.name} {what}; restarting it in {pause:g} s (crash {self.crashes} in a row)")


def _say(line: str) -> None:
    print(f"[make run] {line}", flush=True)


def main(argv: list[str] | None = None) -> int:
    args = _parse_args(argv)
    os.chdir(BASE_DIR)
    os.environ.setdefault("DJANGO_DEBUG", "1")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    # The worker's and beat's line per task received, succeeded or sent (every few seconds for
    # the sweep alone) are not what a developer watches for: warnings and errors still show.
    os.environ.setdefault("WORKER_TASK_LOG_LEVEL", "WARNING")
    # Nor are the JSON lines per request and per game action (Daphne prints its access line
    # per request anyway); export DJANGO_LOG_LEVEL=INFO to see them.
    os.environ.setdefault("DJANGO_LOG_LEVEL", "WARNING")
    signal.signal(signal.SIGINT, _request_stop)
    signal.signal(signal.SIGTERM, _request_stop)

    redis_server: Supervised | None = None
    children: list[Supervised] = []
    try:
        if not os.environ.get("REDIS_URL"):
            redis_server = Supervised("private Redis", lambda: embedded_redis.start(args.state_dir))
            redis_server.launch(time.monotonic())
            # Exported before Django reads its settings, and inherited by both children:
            # this is how Daphne and the Celery worker meet on the same private Redis.
            os.environ["REDIS_URL"] = redis_server.handle.url
            print(f"Private Redis on {redis_server.handle.socket_path}", flush=True)
            _say(f"{redis_server.name} started (pid {redis_server.process.pid})")
        _prepare_database()
        # -B: the worker also runs the beat schedule (the sweep for lost timers); production
        # runs `celery -A config beat` as its own process instead. -X/-Q: see the docstring.
        ai_queue = f"{os.environ.get('REDIS_NAMESPACE', '')}ai"  # settings.GAMES_AI_QUEUE
        review_queue = f"{os.environ.get('REDIS_NAMESPACE', '')}review"  # GAMES_REVIEW_QUEUE
        # --quiet: no start-up banner (the config and every task's name, ~35 lines a worker);
        # each worker's "ready" line still says it is up.
        celery = ("celery", "-A", "config", "--quiet", "worker")
        worker = (*celery, "-B",
                  "--schedule", str(args.state_dir / "celerybeat-schedule"),
                  "--loglevel=INFO", "-X", f"{ai_queue},{review_queue}")  # fmt: skip
        ai_worker = (*celery, "-n", "ai@%h", "--loglevel=INFO",
                     "-Q", ai_queue)  # fmt: skip
        review_worker = (*celery, "-n", "review@%h", "-c", "1",
                         "--loglevel=INFO", "-Q", review_queue)  # fmt: skip
        daphne = ("daphne", "-b", args.host, "-p", str(args.port), "config.asgi:application")

        def workers() -> dict[str, str]:  # at each start: the environment as it is then
            return worker_env(dict(os.environ))

        children = [Supervised("worker", lambda: _spawn(*worker, env=workers())),
                    Supervised("AI worker", lambda: _spawn(*ai_worker, env=workers())),
                    Supervised("review worker", lambda: _spawn(*review_worker, env=workers())),
                    Supervised("daphne", lambda: _spawn(*daphne))]  # fmt: skip
        for child in children:
            child.launch(time.monotonic())
            _say(f"{child.name} started (pid {child.process.pid})")
        _wait_for_port(args.host, args.port, children[-1].process, DAPHNE_START_SECONDS)
        shown_host = "localhost" if args.host in {"127.0.0.1", "0.0.0.0"} else args.host
        print(
            f"\n414 Club is running at http://{shown_host}:{args.port}/"
            "  (demo account: demo / demo414club; Ctrl-C stops it)\n"
            "A staff account (admin, leagues, tournaments): make manage CMD=createsuperuser\n"
            "An all-AI table to watch:                      make manage CMD=demo_table\n",
            flush=True,
        )
        while True:
            now = time.monotonic()
            for child in ([redis_server] if redis_server else []) + children:
                child.check(now)
            time.sleep(0.3)
    except _StopRequested:
        return 0
    finally:
        # A second Ctrl-C must not cut the orderly shutdown short; _stop has its own timeouts.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        print("Stopping 414 Club...", flush=True)
        _stop({child.name: child.process for child in children})
        if redis_server is not None and redis_server.handle is not None:
            redis_server.handle.stop()


if __name__ == "__main__":
    sys.exit(main())
