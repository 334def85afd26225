"""One path of the timer bench (``bench/timers.py``): its database, the matches whose deadlines it
re-arms, the main worker that rings them, and ``run_path``, one measured run of the old or the
new path."""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import redis
from timers_measure import Peaks, rss, snapshot, xacts

ROOT = Path(__file__).resolve().parent.parent
NAMESPACE = "bench-timers-"
#: A token no armed timer carries: every ring is the no-op a superseded deadline is.
ROW_TOKEN = 2_000_000_000


def prepare_database(url: str) -> tuple[str, str]:
    """Create the bench database if missing. Returns (admin DSN, database name)."""
    import psycopg

    parts = urlsplit(url)
    dbname = parts.path.lstrip("/")
    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (dbname,)).fetchone():
            conn.execute(f'CREATE DATABASE "{dbname}"')
    return admin, dbname


def make_matches(n: int) -> list[int]:
    """n matches (minimal rows: the timers only lock and compare them), ids returned."""
    from accounts.models import User
    from games.models import Match, Table

    host, _ = User.objects.get_or_create(username="bench-timers")
    Table.objects.filter(host=host).delete()
    tables = Table.objects.bulk_create(
        [Table(name=f"bench timers {i}", host=host, status=Table.Status.PLAYING) for i in range(n)]
    )
    matches = Match.objects.bulk_create(
        [
            Match(table=t, seed=0, state={}, phase="play", deadline=None, deadline_token=ROW_TOKEN)
            for t in tables
        ]
    )
    return [m.pk for m in matches]


def start_worker(env: dict[str, str], concurrency: int) -> subprocess.Popen:
    """The site's main worker (every queue but the AI's: the timers' ``expire`` is its work)."""
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "-l",
            "warning",
            "-c",
            str(concurrency),
            "-X",
            f"{NAMESPACE}ai",
        ],
        cwd=ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def stop_worker(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def wait_until(check: Callable[[], object], seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check():
            return True
        time.sleep(0.1)
    return False


# --- one path -----------------------------------------------------------------------------------


def run_path(
    path: str,
    args: argparse.Namespace,
    env: dict[str, str],
    r: redis.Redis,
    ids: list[int],
    admin: str,
    dbname: str,
) -> dict:
    from games import tasks
    from games.play import clock

    due_key, _, marker = clock.keys()
    r.flushall()
    load_before = os.getloadavg()
    worker = start_worker(env, args.concurrency)
    try:
        # Ready: the clock made its first pop, and the start-up rearm and sweep have run.
        if not wait_until(lambda: r.exists(marker), 60):
            raise RuntimeError("the worker did not start (no timer clock marker)")
        time.sleep(2.0)
        peaks = Peaks()
        sampler = threading.Thread(target=peaks.sample, args=(r, worker.pid, due_key), daemon=True)
        sampler.start()
        idle0 = snapshot(r, worker.pid)
        idle0.xacts = xacts(admin, dbname)
        time.sleep(args.idle)
        start = snapshot(r, worker.pid)
        start.xacts = xacts(admin, dbname)
        base_rss, base_mem = rss(worker.pid), r.info("memory")["used_memory"]
        peaks.main_rss, peaks.redis_mem = base_rss, base_mem

        sender_cpu = 0.0
        armed = 0
        t0 = time.monotonic()
        for second in range(args.seconds):
            for i, match_id in enumerate(ids):
                delay = t0 + second + i / len(ids) - time.monotonic()
                if delay > 0:
                    time.sleep(delay)
                token = second + 1
                c0 = time.process_time()
                if path == "old":
                    tasks.expire.apply_async((match_id, token), countdown=args.turn)
                else:
                    deadline = datetime.now(UTC) + timedelta(seconds=args.turn)
                    clock.arm(match_id, token, deadline)
                sender_cpu += time.process_time() - c0
                armed += 1
        last_arm = time.monotonic()
        # Every deadline passes, the old path's held tasks all run, the clock rings the last.
        time.sleep(max(0.0, last_arm + args.turn + 1.0 - time.monotonic()))
        wait_until(
            lambda: (
                r.hlen("unacked") == 0
                and r.zcard(due_key) == 0
                and r.llen(f"{NAMESPACE}celery") == 0
            ),
            60,
        )
        time.sleep(1.0)
        end = snapshot(r, worker.pid)
        peaks.stop.set()
        sampler.join()
    finally:
        stop_worker(worker)
    # The worker's exit flushed its backends' statistics.
    time.sleep(1.0)
    end.xacts = xacts(admin, dbname)
    idle_s = start.at - idle0.at
    window = end.at - start.at

    def above_idle(name: str) -> float:
        idle_rate = (getattr(start, name) - getattr(idle0, name)) / idle_s
        return getattr(end, name) - getattr(start, name) - idle_rate * window

    return {
        "armed": armed,
        "window": window,
        "lpush": end.lpush - start.lpush,
        "redis_calls": above_idle("redis_calls"),
        "redis_bytes": above_idle("redis_bytes"),
        "redis_cpu": above_idle("redis_cpu"),
        "worker_cpu": above_idle("worker_cpu"),
        "xacts": end.xacts[0] - start.xacts[0],
        "sessions": end.xacts[1] - start.xacts[1],
        "idle_worker_cpu_per_s": (start.worker_cpu - idle0.worker_cpu) / idle_s,
        "idle_redis_calls_per_s": (start.redis_calls - idle0.redis_calls) / idle_s,
        "idle_xacts": start.xacts[0] - idle0.xacts[0],
        "unacked": peaks.unacked,
        "zcard": peaks.zcard,
        "rss_growth": peaks.main_rss - base_rss,
        "redis_mem_growth": peaks.redis_mem - base_mem,
        "sender_cpu": sender_cpu,
        "load_before": load_before,
        "load_after": os.getloadavg(),
    }
