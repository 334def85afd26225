"""`make run`'s wait for Daphne (scripts/run_dev.py): it waits as long as Daphne is starting,
saying so, and stops at once if Daphne exits. A new user's first `make run` on a busy machine
failed at the old 30 s limit while Daphne was still importing the site."""

from __future__ import annotations

import socket
import subprocess
import sys

import pytest

from scripts import run_dev
from tests.servers import free_port

#: A process that listens on its port after ``delay`` seconds, then waits to be killed.
LISTENS_LATE = (
    "import socket, sys, time; time.sleep(float(sys.argv[2])); s = socket.socket(); "
    "s.bind(('127.0.0.1', int(sys.argv[1]))); s.listen(); time.sleep(60)"
)


def late_listener(port: int, delay: float) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-c", LISTENS_LATE, str(port), str(delay)])


def test_a_slow_daphne_is_waited_for_with_a_line_saying_so(monkeypatch, capsys) -> None:
    monkeypatch.setattr(run_dev, "STILL_STARTING_EVERY", 0.3)
    port = free_port()
    child = late_listener(port, 1.2)
    try:
        run_dev._wait_for_port("127.0.0.1", port, child, timeout=30)
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            pass  # it listens: the wait returned because it does
    finally:
        child.kill()
        child.wait()
    assert "[make run] still starting: Daphne not listening yet" in capsys.readouterr().out


def test_a_daphne_that_exits_is_not_waited_for() -> None:
    child = subprocess.Popen([sys.executable, "-c", "raise SystemExit(3)"])
    with pytest.raises(RuntimeError, match="Daphne exited with 3 before serving"):
        run_dev._wait_for_port("127.0.0.1", free_port(), child, timeout=30)
