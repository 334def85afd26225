"""Real processes for the tests that need them: Daphne serving the app on the test database.

One place for what the log, socket-size and browser tests each started on their own: a free
port, the environment that points a child process at the test database, Daphne's command line,
waiting until it answers, and stopping what was started.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
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


def wait_http(url: str, proc: subprocess.Popen, seconds: float = 60) -> None:
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
