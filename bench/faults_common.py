"""What the fault bench's modules share (``bench/faults.py``): its database and Redis namespace,
the pauses of the supervisor and of a page, the tables' options, ``say`` and ``wait_until``."""

from __future__ import annotations

import time
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
REPO_DIR = BENCH_DIR.parent

DB_NAME = "club414_faults"
NAMESPACE = "faults-"
ORIGIN = "http://localhost"
#: The supervisor's pause before it starts a dead process again (systemd's RestartSec).
RESTART_SECONDS = 1.0
#: How long a page waits before it reconnects a dropped socket (table.js: 1-3 s).
RECONNECT_SECONDS = 1.0
#: How often a page tells its socket the version it shows (table.js; a lost push is repaired).
HEARTBEAT_SECONDS = 5.0
PEOPLE_OPTIONS = {"turn_seconds": 60, "claim_window_seconds": 5}
AI_OPTIONS = {"turn_seconds": 30, "claim_window_seconds": 3}
FAULTS = ("daphne", "worker-window", "worker-ai", "redis")


def say(line: str) -> None:
    print(line, flush=True)


def wait_until(check, timeout: float, step: float = 0.02) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(step)
    return False
