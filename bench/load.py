"""Load benchmark of live play (issue #8): the app as in production, against a bare Channels floor.

A benchmark, not a test: bounded in time, loopback only, it stops by itself and stops every
process it started. One run:

1. (re)creates the PostgreSQL database ``club414_bench`` on 127.0.0.1:5432 and migrates it;
   clears the Redis keys of its namespace ``bench-`` (REDIS_NAMESPACE) on 127.0.0.1:6379
   (``--name NAME``: ``club414_NAME`` and ``NAME-``, for runs side by side);
2. for each ``--processes`` count: starts N Daphne processes, the two Celery workers (the main
   one and the AI one, ``--concurrency 2`` each, as ``deploy/`` runs them) and beat, with
   production settings (DJANGO_DEBUG off, a bench secret key, static files
   collected), DJANGO_ALLOWED_HOSTS=localhost,127.0.0.1,
   GAMES_NEXT_ROUND_SECONDS=1; with ``--proxy nginx`` a real nginx from ``deploy/nginx.conf``
   in front;
3. steps through ``--tables``: opens that many started 4-seat tables of people (the app's own
   ``games.play.stewarding.open_table``), opens every seat's socket in 1-2 client processes
   (``bench/load_client.py``) and plays legal moves at ``--rate`` actions per second per table,
   answering claim windows and tributes, for ``--duration`` seconds; stops after two steps in a
   row not held (p99 < 100 ms with no errors; ``--stop-after``, ``--keep-going``);
4. the same steps on the bare floor (``bench/bare_app.py``: same Daphne count, same channel
   layer, frames of the app's mean seat frame size), then the capacity ratio;
5. a spectator scenario (one table, ``--spectators`` anonymous sockets) and an overload step
   (1.5 × ``--rated`` tables) on the app;
6. prints a markdown table (with ``os.getloadavg()`` after each step), writes ``results.json``
   and ``p99.png`` into ``--out``, drops the database and clears its Redis keys.

Setup, once per machine (Debian; the README's PostgreSQL and Redis must be running)::

    apt-get install nginx                      # only for --proxy nginx
    .venv/bin/pip install -e '.[bench]'        # websockets, psutil, matplotlib

Run it with the project's venv, from anywhere::

    .venv/bin/python bench/load.py --quick                       # smoke run, < 2 minutes
    .venv/bin/python bench/load.py                               # the full run (see --help)
    .venv/bin/python bench/load.py --processes 2 --proxy nginx   # production shape
    .venv/bin/python bench/load.py --tables 1,10,50 --processes 1 --duration 20
    .venv/bin/python bench/load.py --app-rev HEAD~3 --quick      # an older commit of the app

A step takes its ``--duration`` plus 10-40 s (tables, connects, drain, rest). The full run with
the defaults (1 and 2 processes, up to 200 app and 400 bare tables, spectators, overload) is
about 31 steps, 20-25 minutes, when the app holds every step; an app that holds none stops each
setup after two steps (the app of issue #8's start: about 6.5 minutes).

What is counted, and how: latency is from a seat's send to the moment the last socket of its
table applied a frame at or past the resulting version. SQL statements are counted inside
Daphne and the worker (``bench/load_sqlcount.py``: one execute wrapper; also Django's
``connection_created``, which fires for pooled connections too) and, as a cross-check, from
``pg_stat_database`` of the bench database: ``xact_commit``, and ``sessions`` = new PostgreSQL
connections (the "PG sessions/action" column). Both include all background work
in the step (timers, heartbeats, pushes), divided by the actions completed. CPU seconds and
peak RSS per process tree come from psutil (PostgreSQL and Redis: the whole server, so other
work on the machine shows there too).

This script is the command line; the servers are ``load_stack.py``, the steps, readings and
results ``load_steps.py``, the client processes ``load_client.py``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
REPO_DIR = BENCH_DIR.parent
sys.path.insert(0, str(BENCH_DIR))

from load_stack import say  # noqa: E402
from load_steps import Bench  # noqa: E402

QUICK = {
    "tables": "1,3",
    "bare_tables": "1,10,50",
    "duration": 5.0,
    "spectators": 20,
    "rated": 3,
    "processes": "1",
    "settle": 1.0,
}


def numbers(text: str) -> list[int]:
    return [int(x) for x in text.split(",") if x.strip()]


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--tables",
        default="1,10,25,50,100,150,200",
        help="app steps, tables per step (default %(default)s)",
    )
    parser.add_argument(
        "--bare-tables",
        default="1,10,50,100,200,300,400",
        help="bare floor steps (default %(default)s)",
    )
    parser.add_argument(
        "--duration",
        type=float,
        default=20.0,
        help="seconds of play per step (default %(default)s)",
    )
    parser.add_argument(
        "--rate", type=float, default=1.0, help="actions per second per table (default %(default)s)"
    )
    parser.add_argument(
        "--processes",
        default="1,2",
        help="Daphne process counts to measure, e.g. 1 or 1,2 (default 1,2)",
    )
    parser.add_argument("--proxy", choices=("none", "nginx"), default="none")
    parser.add_argument(
        "--spectators",
        type=int,
        default=200,
        help="spectators of the one-table scenario, 0 to skip (default 200)",
    )
    parser.add_argument(
        "--spectator-languages",
        default="en,es",
        help="the spectators' languages, in turn (default %(default)s: two audiences)",
    )
    parser.add_argument(
        "--rated",
        type=int,
        default=100,
        help="the rated load in tables; overload runs 1.5x it, 0 to skip",
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="a smoke run in under 2 minutes: " + ", ".join(f"{k}={v}" for k, v in QUICK.items()),
    )
    parser.add_argument("--out", default=str(REPO_DIR / "var" / "bench-load"))
    parser.add_argument(
        "--app-dir", default=str(REPO_DIR), help="the app to run (default: this checkout)"
    )
    parser.add_argument(
        "--app-rev", default="", help="run the app at this git revision (git archive into --out)"
    )
    parser.add_argument(
        "--clients",
        type=int,
        default=0,
        help="client processes (default: 1 up to 200 sockets, else 2)",
    )
    parser.add_argument(
        "--heartbeat",
        type=float,
        default=5.0,
        help="seconds between a page's heartbeats (new protocol; 0: none)",
    )
    parser.add_argument(
        "--frame-bytes",
        type=int,
        default=0,
        help="bare frame size (default: the app's mean seat frame)",
    )
    parser.add_argument(
        "--action-timeout",
        type=float,
        default=10.0,
        help="an action not seen by every socket after this is lost",
    )
    parser.add_argument("--connect-timeout", type=float, default=60.0)
    parser.add_argument("--settle", type=float, default=2.0, help="seconds of rest between steps")
    parser.add_argument(
        "--stop-after",
        type=int,
        default=2,
        help="stop stepping a setup after this many steps in a row not held "
        "(default 2: one noisy step does not end it)",
    )
    parser.add_argument("--keep-going", action="store_true", help="run every step, held or not")
    parser.add_argument("--no-beat", dest="beat", action="store_false")
    parser.add_argument(
        "--seat-affinity",
        action="store_true",
        help="a table's seat sockets all on one Daphne process (by table id), as "
        "deploy/nginx.conf routes them; spectators still spread in turn",
    )
    parser.add_argument(
        "--no-count-sql",
        dest="count_sql",
        action="store_false",
        help="run config.asgi:application as is (no statement counts)",
    )
    parser.add_argument(
        "--name",
        default="bench",
        help="names the run's database (club414_NAME) and Redis namespace (NAME-)",
    )
    parser.add_argument("--keep-db", action="store_true", help="keep the database at the end")
    args = parser.parse_args(argv)
    if args.quick:
        for key, value in QUICK.items():
            if parser.get_default(key) == getattr(args, key):
                setattr(args, key, value)
    args.tables, args.bare_tables = numbers(args.tables), numbers(args.bare_tables)
    args.processes = numbers(str(args.processes))
    args.rated_overload = round(1.5 * args.rated) if args.rated else 0
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    bench = Bench(args)
    started = time.monotonic()
    try:
        bench.setup()
        bench.run()
    except KeyboardInterrupt:
        say("interrupted: stopping")
    finally:
        bench.cleanup()
        bench.write()
        say(f"total {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
