"""What the timer bench (``bench/timers.py``) reads while a path runs: the worker's process tree
from /proc (CPU seconds, RSS), Redis's command counters and PostgreSQL's transactions and
sessions, and their peaks sampled in a thread."""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass, field

import redis

CLK = os.sysconf("SC_CLK_TCK")


def _tree(pid: int) -> list[int]:
    pids, stack = [pid], [pid]
    while stack:
        parent = stack.pop()
        try:
            threads = os.listdir(f"/proc/{parent}/task")
        except OSError:
            continue
        for tid in threads:
            try:
                with open(f"/proc/{parent}/task/{tid}/children") as f:
                    kids = [int(k) for k in f.read().split()]
            except OSError:
                continue
            pids += kids
            stack += kids
    return pids


def _cpu(pid: int) -> float:
    """CPU seconds of a process and its reaped children."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return sum(int(x) for x in fields[11:15]) / CLK


def tree_cpu(pid: int) -> float:
    """CPU seconds of the worker: its main process and live pool children (and reaped ones)."""
    total = 0.0
    for p in _tree(pid):
        try:
            total += _cpu(p)
        except OSError:
            pass
    return total


def rss(pid: int) -> int:
    """Resident set size of one process, in bytes."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


# --- Redis and PostgreSQL counters --------------------------------------------------------------


@dataclass
class Counters:
    at: float
    worker_cpu: float
    redis_calls: int
    lpush: int
    redis_bytes: int
    redis_cpu: float
    xacts: tuple[int, int] = (0, 0)


def redis_counters(r: redis.Redis) -> tuple[int, int, int, float]:
    stats = r.info("commandstats")
    calls = sum(v["calls"] for v in stats.values())
    lpush = stats.get("cmdstat_lpush", {}).get("calls", 0)
    net = r.info("stats")
    cpu = r.info("cpu")
    return (
        calls,
        lpush,
        net["total_net_input_bytes"] + net["total_net_output_bytes"],
        cpu["used_cpu_sys"] + cpu["used_cpu_user"],
    )


def xacts(dsn_admin: str, dbname: str) -> tuple[int, int]:
    """(transactions, sessions opened) on the bench database so far."""
    import psycopg

    with psycopg.connect(dsn_admin, autocommit=True) as conn:
        row = conn.execute(
            "SELECT xact_commit + xact_rollback, sessions FROM pg_stat_database WHERE datname = %s",
            (dbname,),
        ).fetchone()
    return int(row[0]), int(row[1])


def snapshot(r: redis.Redis, worker_pid: int) -> Counters:
    calls, lpush, nbytes, rcpu = redis_counters(r)
    return Counters(time.monotonic(), tree_cpu(worker_pid), calls, lpush, nbytes, rcpu)


@dataclass
class Peaks:
    """Sampled every 0.25 s while a path runs: the most the worker and Redis held."""

    unacked: int = 0
    zcard: int = 0
    main_rss: int = 0
    redis_mem: int = 0
    stop: threading.Event = field(default_factory=threading.Event)

    def sample(self, r: redis.Redis, worker_pid: int, due_key: str) -> None:
        while not self.stop.is_set():
            try:
                self.unacked = max(self.unacked, r.hlen("unacked"))
                self.zcard = max(self.zcard, r.zcard(due_key))
                self.redis_mem = max(self.redis_mem, r.info("memory")["used_memory"])
                self.main_rss = max(self.main_rss, rss(worker_pid))
            except Exception:  # noqa: BLE001 - a sample missed is not a failed run
                pass
            self.stop.wait(0.25)
