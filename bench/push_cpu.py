"""CPU per action of the process that takes a move (issue #8): the writer and its push, in-process.

A benchmark, not a test. ``bench/load.py`` measures the whole site over real sockets, where a
busy machine makes latencies noisy; this one measures the part a Daphne process spends per
action on its own, as CPU time (``time.process_time``: every thread of this process, so the
channel layer's sending loop too), which a busy machine disturbs much less.

One run, in this process (production settings: DJANGO_DEBUG off):

1. (re)creates the PostgreSQL database ``--db`` (default ``h_perf_bench``) and migrates it,
   unless ``--no-migrate``; uses Redis on 127.0.0.1:6379 under its own namespace;
2. opens ``--tables`` started 4-seat tables of people through the app's own code
   (``games.play.stewarding.open_table``) and registers every seat's audience in English (and
   spectators' audiences in ``--watchers`` languages), as open sockets would;
3. plays ``--warmup`` then ``--actions`` legal actions through ``games.play.services.submit`` (the
   call a socket makes), round robin over the tables, choosing as ``bench/load_client.py``
   does: a claim window is passed (a claim 30 % of the time), a tribute returned, a turn
   played with the weakest hint (passed 15 % of the time when allowed). Each call is timed
   alone, CPU and wall; choosing the action and ending a round are not counted;
4. the floor, in the same run: every action's channel-layer messages, as the app sent them
   (same groups, same frames), sent again with ``notify.send_many`` and timed the same way;
5. prints one JSON line: CPU ms per action (median, mean, p90) for the app and the floor,
   their ratio, frame bytes, the load average before and after; then deletes its Redis keys
   (the database stays, for ``--no-migrate`` runs).

``--cold`` forgets, before each action, the views this process kept from the table's previous
push (``frames._recent``), as a Daphne process that did not send that push must rebuild them:
the cost of spreading a table's sockets over several processes.
``--profile FILE`` writes a cProfile of the measured calls (``python -m pstats FILE``).
``--against REV`` measures another commit too: it exports REV with ``git archive`` into a
temporary folder and runs this script there and here alternately (``--rounds`` times each,
the first side swapped every round, in child processes, on one database), then prints
both and the ratio of their medians.

Run from the repository root with the project's venv::

    .venv/bin/python bench/push_cpu.py                           # about a minute
    .venv/bin/python bench/push_cpu.py --against HEAD~3 --rounds 3
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO_DIR = Path(__file__).resolve().parents[1]
ADMIN_URL = "postgres://postgres@127.0.0.1:5432/postgres"
REDIS_URL = "redis://127.0.0.1:6379/0"
# Long enough that no deadline passes between two actions of a table on a saturated box (a
# claim window of 5 s ran out at load average 17: the run stopped on a refused "late").
TABLE_OPTIONS = {"turn_seconds": 120, "claim_window_seconds": 60}
P_PASS, P_HOOK = 0.15, 0.3


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--actions", type=int, default=600, help="measured actions")
    parser.add_argument("--warmup", type=int, default=80)
    parser.add_argument("--watchers", default="", help="spectators' languages, e.g. en,es")
    parser.add_argument("--seed", type=int, default=414)
    parser.add_argument("--db", default="h_perf_bench")
    parser.add_argument("--no-migrate", action="store_true")
    parser.add_argument("--app-dir", default=str(REPO_DIR))
    parser.add_argument(
        "--cold",
        action="store_true",
        help="forget the views of the previous push before each action (another process sent it)",
    )
    parser.add_argument("--profile", default="", help="write a cProfile of the measured calls")
    parser.add_argument(
        "--seasoned",
        action="store_true",
        help="players past their first claim windows (no claim help, their rows unchanged), "
        "as most live players are; default: new players",
    )
    parser.add_argument("--against", default="", help="another commit, measured alternately")
    parser.add_argument("--rounds", type=int, default=2, help="runs of each with --against")
    return parser.parse_args(argv)


def environment(args: argparse.Namespace) -> dict[str, str]:
    return {
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{args.db}",
        "REDIS_URL": REDIS_URL,
        "REDIS_NAMESPACE": f"pushcpu{os.getpid()}-",
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": "bench-only-" + "k" * 40,
        "DJANGO_ALLOWED_HOSTS": "localhost,127.0.0.1",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "GAMES_MAX_SOCKETS_PER_IP": "0",
    }


def create_database(args: argparse.Namespace) -> None:
    import psycopg

    with psycopg.connect(ADMIN_URL, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{args.db}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{args.db}"')
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v0"],
        cwd=args.app_dir,
        env={**os.environ, **environment(args)},
        check=True,
        timeout=600,
    )


def choose(state, rng: random.Random) -> tuple[int, dict] | None:
    """The seat to act and its payload, as the load bench's clients choose (see the module
    docstring), or None when no person may act (a round over: the clock's turn)."""
    from games.engine import Hook, Pass, Play, Return, Unhook, legal_actions
    from games.engine.rules import seats_to_act
    from games.engine.state import PLAY, TRIBUTE, WINDOW
    from games.live.presenters import _weakest_first, view_for

    acting = list(seats_to_act(state))
    if not acting:
        return None
    version = state.version
    if state.phase == WINDOW:
        seat = rng.choice(acting)
        legal = legal_actions(state, seat)
        claim = next((a for a in legal if isinstance(a, (Hook, Unhook))), None)
        if claim is not None and rng.random() < P_HOOK:
            kind = "hook" if isinstance(claim, Hook) else "unhook"
            return seat, {"action": kind, "cards": list(claim.cards), "version": version}
        return seat, {"action": "pass", "cards": [], "version": version}
    seat = acting[0]
    legal = legal_actions(state, seat)
    if state.phase == TRIBUTE:
        card = next(a.card for a in legal if isinstance(a, Return))
        return seat, {"action": "return", "card": card, "version": version}
    if state.phase != PLAY:
        return None
    plays = _weakest_first(
        [list(a.cards) for a in legal if isinstance(a, Play)], view_for(state, seat)
    )
    can_pass = any(isinstance(a, Pass) for a in legal)
    if can_pass and (not plays or rng.random() < P_PASS):
        return seat, {"action": "pass", "cards": [], "version": version}
    return seat, {"action": "play", "cards": plays[0], "version": version}


def measure(args: argparse.Namespace) -> dict:
    """Steps 2-5 of the module docstring, in this process; returns the figures."""
    os.environ.update(environment(args))
    os.chdir(args.app_dir)  # Celery's Django fixup puts the working directory first on sys.path
    sys.path.insert(0, args.app_dir)
    import django

    django.setup()
    import logging

    from django.utils import timezone

    from accounts.models import User
    from games.engine.codec import state_from_json
    from games.engine.state import MATCH_OVER, ROUND_OVER
    from games.live import audiences, frames, notify
    from games.live.audiences import Audience
    from games.models import Match
    from games.play import deadlines, services, stewarding

    try:  # the site's processes freeze their start-up heap (config/heap.py)
        from config import heap

        heap.settle()
    except ImportError:
        pass
    for handler in logging.getLogger().handlers:  # one JSON line per action: formatted, unread
        if isinstance(handler, logging.StreamHandler):
            handler.setStream(open(os.devnull, "w"))  # noqa: SIM115 - for the whole run

    rng = random.Random(args.seed)
    stamp = f"{os.getpid()}"
    users = [
        User.objects.create_user(f"pc{stamp}-{n}", password=None) for n in range(4 * args.tables)
    ]
    if args.seasoned:
        from games.play.first_windows import EXPLAINED_WINDOWS

        User.objects.filter(pk__in=[u.pk for u in users]).update(
            claim_windows_explained=EXPLAINED_WINDOWS
        )
        for user in users:
            user.claim_windows_explained = EXPLAINED_WINDOWS
    watchers = [w for w in args.watchers.split(",") if w]

    def open_table(n: int) -> dict:
        four = users[4 * n : 4 * n + 4]
        table = stewarding.open_table(
            four[0],
            name=f"cpu {n}",
            options=TABLE_OPTIONS,
            seats=[(u, "") for u in four],
            start=True,
        )
        return {"id": table.pk, "users": four, "n": n}

    def register(table: dict) -> None:
        for seat in range(4):
            audiences.register(table["id"], Audience(seat, "en"))
        for language in watchers:
            audiences.register(table["id"], Audience(None, language))

    tables = [open_table(n) for n in range(args.tables)]
    for table in tables:
        register(table)
    registered_at = time.monotonic()

    sent: list[list[tuple[str, dict]]] = []
    real_send_many = notify.send_many

    def recording_send_many(messages) -> None:
        messages = list(messages)
        sent[-1].extend(messages)
        real_send_many(messages)

    notify.send_many = recording_send_many
    profiler = None
    if args.profile:
        import cProfile

        profiler = cProfile.Profile(time.process_time)  # CPU, not waits

    cpu_ms: list[float] = []
    wall_ms: list[float] = []
    app_sends: list[list[tuple[str, dict]]] = []
    done = 0
    turn = 0
    load_before = os.getloadavg()
    while done < args.warmup + args.actions:
        if time.monotonic() - registered_at > audiences.TTL_SECONDS / 3:
            for table in tables:
                register(table)
            registered_at = time.monotonic()
        table = tables[turn % len(tables)]
        turn += 1
        match = Match.objects.get(table_id=table["id"])
        state = state_from_json(match.state)
        if state.phase == MATCH_OVER:
            tables[table["n"]] = table = open_table(table["n"])
            register(table)
            continue
        picked = choose(state, rng)
        if picked is None:
            if state.phase == ROUND_OVER:  # the clock deals the next round (not counted)
                Match.objects.filter(pk=match.pk).update(deadline=timezone.now())
                sent.append([])
                deadlines.expire(match.pk, match.deadline_token)
            continue
        seat, payload = picked
        payload["client_id"] = f"c{done}-{rng.random()}"
        sent.append([])
        if args.cold:  # as a process that did not send this table's previous push
            with frames._recent_lock:
                frames._recent.clear()
        measured = done >= args.warmup
        if measured and profiler is not None:
            profiler.enable()
        cpu0, wall0 = time.process_time(), time.perf_counter()
        result = services.submit(match.pk, table["users"][seat], payload)
        cpu1, wall1 = time.process_time(), time.perf_counter()
        if measured and profiler is not None:
            profiler.disable()
        if not result.ok:
            raise SystemExit(f"refused: {payload} -> {result}")
        done += 1
        if measured:
            cpu_ms.append((cpu1 - cpu0) * 1000)
            wall_ms.append((wall1 - wall0) * 1000)
            app_sends.append(sent[-1])
    notify.send_many = real_send_many
    if profiler is not None:
        profiler.dump_stats(args.profile)

    # The floor: the same messages to the same groups, sent again with nothing else.
    floor_ms: list[float] = []
    for messages in app_sends:
        cpu0 = time.process_time()
        real_send_many(messages)
        floor_ms.append((time.process_time() - cpu0) * 1000)
    load_after = os.getloadavg()
    forget_namespace(os.environ["REDIS_NAMESPACE"])

    seat_frames = [
        len(m["text"].encode())
        for messages in app_sends
        for group, m in messages
        if m.get("type") == "table.frame" and ".s" in group
    ]

    def figures(values: list[float]) -> dict:
        ordered = sorted(values)
        return {
            "median": round(statistics.median(ordered), 3),
            "mean": round(statistics.fmean(ordered), 3),
            "p90": round(ordered[int(0.9 * (len(ordered) - 1))], 3),
        }

    app, floor = figures(cpu_ms), figures(floor_ms)
    return {
        "app_dir": args.app_dir,
        "commit": subprocess.run(
            ["git", "-C", args.app_dir, "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
        ).stdout.strip()
        or None,
        "tables": args.tables,
        "actions": len(cpu_ms),
        "audiences_per_table": 4 + len(watchers),
        "cpu_ms_per_action": app,
        "wall_ms_per_action": figures(wall_ms),
        "floor_cpu_ms_per_action": floor,
        "ratio_app_to_floor": round(app["mean"] / floor["mean"], 2) if floor["mean"] else None,
        "messages_per_action": round(sum(len(m) for m in app_sends) / len(app_sends), 2),
        "seat_frame_bytes_mean": round(statistics.fmean(seat_frames)) if seat_frames else 0,
        "load_average_before": [round(x, 2) for x in load_before],
        "load_average_after": [round(x, 2) for x in load_after],
    }


def forget_namespace(prefix: str) -> None:
    """Delete this run's Redis keys (audiences, latest versions, timers)."""
    import redis

    client = redis.Redis.from_url(REDIS_URL)
    keys = list(client.scan_iter(match=f"{prefix}*", count=1000))
    for start in range(0, len(keys), 500):
        client.delete(*keys[start : start + 500])
    client.close()


def against(args: argparse.Namespace) -> dict:
    """This tree and ``args.against`` measured alternately in child processes."""
    with tempfile.TemporaryDirectory(prefix="push-cpu-") as work:
        old = Path(work) / "app"
        old.mkdir()
        archive = subprocess.run(
            ["git", "-C", str(REPO_DIR), "archive", args.against], check=True, capture_output=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(old)], input=archive, check=True)
        runs: dict[str, list[dict]] = {"old": [], "new": []}
        common = [
            f"--tables={args.tables}",
            f"--actions={args.actions}",
            f"--warmup={args.warmup}",
            f"--watchers={args.watchers}",
            *(["--cold"] if args.cold else []),
            *(["--seasoned"] if args.seasoned else []),
            f"--seed={args.seed}",
            f"--db={args.db}",
            "--no-migrate",
        ]
        sides = (("old", old), ("new", REPO_DIR))
        for round_no in range(args.rounds):
            # Which side goes first alternates (old-new, new-old, …): on a box that drifts
            # faster or slower as the run goes, a fixed order counts the drift against one side.
            for name, app_dir in sides if round_no % 2 == 0 else sides[::-1]:
                out = subprocess.run(
                    [sys.executable, __file__, *common, f"--app-dir={app_dir}"],
                    check=True,
                    capture_output=True,
                    text=True,
                ).stdout
                runs[name].append(json.loads(out.strip().splitlines()[-1]))
                print(name, json.dumps(runs[name][-1]), file=sys.stderr)

    def median_of(name: str, field: str, stat: str = "mean") -> float:
        return round(statistics.median(r[field][stat] for r in runs[name]), 3)

    old_cpu, new_cpu = median_of("old", "cpu_ms_per_action"), median_of("new", "cpu_ms_per_action")
    return {
        "against": args.against,
        "old_cpu_ms_mean": old_cpu,
        "new_cpu_ms_mean": new_cpu,
        "old_cpu_ms_median": median_of("old", "cpu_ms_per_action", "median"),
        "new_cpu_ms_median": median_of("new", "cpu_ms_per_action", "median"),
        "floor_cpu_ms_mean": median_of("new", "floor_cpu_ms_per_action"),
        "old_over_new": round(old_cpu / new_cpu, 2),
        "old_seat_frame_bytes": statistics.median(r["seat_frame_bytes_mean"] for r in runs["old"]),
        "new_seat_frame_bytes": statistics.median(r["seat_frame_bytes_mean"] for r in runs["new"]),
        "load_average": [
            runs["old"][0]["load_average_before"],
            runs["new"][-1]["load_average_after"],
        ],
        "runs": args.rounds,
    }


def main() -> None:
    args = parse_args()
    if not args.no_migrate:
        create_database(args)
    result = against(args) if args.against else measure(args)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
