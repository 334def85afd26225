"""Page flood against live play (issue 17 item 7): does a crowd reading a long match record slow
the moves of the tables being played?

A benchmark, not a test: bounded in time, loopback only, it stops every process it started. It
reuses the load bench (``bench/load.py``): its database and environment, Daphne processes, the
two Celery workers and beat, nginx from ``deploy/nginx.conf`` rewritten with the bench's ports,
and its socket clients (``load_client.py``). One run:

1. (re)creates the database ``club414_NAME`` (``--name``, default ``flood``) and plays one match
   to ``--target-level`` in this process (``flood_match.py``: heuristic seats through the app's
   writer; a full match is about 1,500 moves);
2. ``--repeats`` times, in alternating order, starts each configuration with the same number of
   Daphne processes (``--sockets`` + ``--pages``):

   - ``one pool``: every Daphne in both upstreams, serving pages and sockets (main before the
     split);
   - ``two pools``: ``--sockets`` Daphnes in ``upstream club414`` (``/ws/``), ``--pages`` of
     their own in ``upstream club414_pages`` (everything else), as ``deploy/nginx.conf`` has it;

3. on each, in alternating order, a floor step and a flood step: ``--tables`` 4-seat tables of
   people with their sockets, a move every 1/``--rate`` s per table, for ``--duration`` s (the
   load bench's step), while ``flood_http.py`` runs a lobby probe (GET / every 0.25 s) and, in
   the flood step, ``--readers`` clients from this one address GET the record (the last round),
   ``?round=N`` and the export as fast as they can;
4. prints and writes (``--out``: ``flood.md``, ``flood.json``) each step's move latency (a
   seat's send to the last socket of its table, p50/p99, as load.py measures), the lobby's HTTP
   latency, pages read per second, the 1-minute load average at the step's end, and the ratio of
   each flood step to the floor of the same configuration and repeat.

The per-address page limits (nginx ``limit_req``, ``SITE_PAGE_RATE``) are lifted, as in load.py:
every client here is 127.0.0.1, and what is measured is whether the pools isolate play from a
crowd that got past the limits (many addresses). nginx tells Daphne the requests came by HTTPS
(``X-Forwarded-Proto https``, as a TLS terminator in front would), so pages are rendered, not
redirected. Setup as for load.py (nginx, ``pip install -e '.[bench]'``); then::

    .venv/bin/python bench/page_flood.py                  # 2 repeats, ~8 minutes
    .venv/bin/python bench/page_flood.py --readers 200 --repeats 3 --duration 30

``--target lobby`` floods the lobby page (``/``) instead of the record (no long match is
played), after ``--lobby-tables`` public open tables were made (so its lists are full: 30 open
tables, the live ones of the step). ``--configs`` picks the configurations compared, from
``CONFIGS``: the pools as above, and each with ``no lobby cache`` (its Daphnes run with
``GAMES_LOBBY_CACHE_SECONDS=0``: the lobby's public lists rendered for every page, as before
``games.live.lobby_cache``)::

    nice -n 10 .venv/bin/python bench/page_flood.py --target lobby --lobby-tables 40 \
        --configs "two pools,two pools no lobby cache" --repeats 1 --duration 15
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
REPO_DIR = BENCH_DIR.parent
sys.path.insert(0, str(BENCH_DIR))

import flood_http  # noqa: E402
import flood_match  # noqa: E402
import load_procs  # noqa: E402
from load_stack import Stack, say  # noqa: E402
from load_steps import Bench, expect, tell  # noqa: E402

#: Each configuration: whether pages get Daphnes of their own (``deploy/nginx.conf``'s split),
#: and the settings its Daphnes run with beside the bench's.
CONFIGS: dict[str, tuple[bool, dict[str, str]]] = {
    "one pool": (False, {}),
    "two pools": (True, {}),
    "one pool no lobby cache": (False, {"GAMES_LOBBY_CACHE_SECONDS": "0"}),
    "two pools no lobby cache": (True, {"GAMES_LOBBY_CACHE_SECONDS": "0"}),
}
DEFAULT_CONFIGS = "one pool,two pools"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    add = parser.add_argument
    add("--readers", type=int, default=80, help="HTTP clients of the flood (default 80)")
    add("--tables", type=int, default=8, help="live 4-seat tables (default %(default)s)")
    add("--rate", type=float, default=1.0, help="moves per second per table")
    add("--duration", type=float, default=20.0, help="seconds of play per step")
    add("--repeats", type=int, default=2, help="rounds of every configuration (alternating)")
    add("--sockets", type=int, default=2, help="Daphnes for sockets in the two-pool setup")
    add("--pages", type=int, default=1, help="Daphnes for pages in the two-pool setup")
    add("--target-level", default="A", help="the record's match is played to this level")
    add("--name", default="flood", help="database club414_NAME, Redis namespace NAME-")
    add("--out", default=str(REPO_DIR / "var" / "bench-flood"))
    add("--settle", type=float, default=3.0, help="seconds of rest between steps")
    add(
        "--limits",
        action="store_true",
        help="keep the per-address page limits as deployed (nginx limit_req, SITE_PAGE_RATE)",
    )
    add(
        "--target",
        choices=("record", "lobby"),
        default="record",
        help="what the readers flood: the long match's record (default) or the lobby page",
    )
    add("--lobby-tables", type=int, default=0, help="public open tables made first (default 0)")
    add(
        "--configs",
        default=DEFAULT_CONFIGS,
        help=f"comma-separated configurations to compare, of: {', '.join(CONFIGS)} "
        "(default %(default)s)",
    )
    add("--keep-db", action="store_true")
    args = parser.parse_args(argv)
    args.config_names = [c.strip() for c in args.configs.split(",") if c.strip()]
    unknown = [c for c in args.config_names if c not in CONFIGS]
    if unknown or not args.config_names:
        parser.error(f"unknown configuration {unknown}: choose from {list(CONFIGS)}")
    # What the load bench's Servers and Bench.step read, at load.py's values.
    args.tables_list = [args.tables]
    args.__dict__.update(
        app_rev="",
        app_dir=str(REPO_DIR),
        beat=True,
        count_sql=False,
        clients=0,
        heartbeat=5.0,
        frame_bytes=0,
        action_timeout=10.0,
        connect_timeout=60.0,
        rated_overload=0,
        forwarded_proto="https",
    )
    return args


class FloodBench(Bench):
    """The load bench's servers and steps, with a page flood beside the steps."""

    def __init__(self, args: argparse.Namespace) -> None:
        tables = args.tables
        args.tables = args.tables_list  # Servers.setup sizes its users by the list
        super().__init__(args)
        self.live_tables = tables
        self.rows: list[dict] = []
        self.config_env: dict[str, str] = {}  # the running configuration's settings

    def setup(self) -> None:
        super().setup()
        if self.args.lobby_tables:
            say(f"opening {self.args.lobby_tables} public tables for the lobby ...")
            flood_match.open_lobby_tables(self.args.lobby_tables)
        if self.args.target == "lobby":
            self.record = {"target": "lobby", "lobby_tables": self.args.lobby_tables}
            self.urls = ["/"]
            return
        say(f"playing a match to {self.args.target_level} for the record ...")
        self.record = flood_match.play_long_match(self.args.target_level)
        say(f"   {self.record}")
        base = f"/matches/{self.record['match']}/"
        rounds = range(1, self.record["rounds"] + 1)
        # Thirds: the record as opened (the last round), one round, the export.
        self.urls = [u for n in rounds for u in (base, f"{base}?round={n}", f"{base}export.json")]

    def run(self) -> None:
        args = self.args
        configs = args.config_names
        for repeat in range(args.repeats):
            order = configs if repeat % 2 == 0 else configs[::-1]
            for config in order:
                split, self.config_env = CONFIGS[config]
                if split:
                    stack = self.start_stack("app", args.sockets, "nginx", args.pages)
                else:
                    stack = self.start_stack("app", args.sockets + args.pages, "nginx")
                try:
                    self.warm(stack)
                    first_floor = (repeat + configs.index(config)) % 2 == 0
                    for flooded in (False, True) if first_floor else (True, False):
                        self.phase(stack, config, repeat, flooded)
                finally:
                    stack.stop()
                    self.config_env = {}

    def warm(self, stack: Stack) -> None:
        """Every URL once, so the first step does not pay the record's renders (the cache is
        Redis, shared by the processes and kept across stacks); notes each kind's largest
        body (bytes as sent) beside the record's figures. From 127.0.0.3: no reader's limit."""
        reader = flood_http.Reader(nginx_port(stack), "127.0.0.1", "127.0.0.3")
        sizes = self.record.setdefault("bytes", {})
        for url in self.urls:
            before = reader.bytes
            reader.get(url)
            kind = "export" if "export" in url else ("round" if "round=" in url else "record")
            kind = "lobby" if url == "/" else kind
            sizes[kind] = max(sizes.get(kind, 0), reader.bytes - before)
        self.record["warm_statuses"] = dict(reader.statuses)

    def env(self, role: str = "bench") -> dict:
        env = super().env(role)
        if self.args.limits:  # the app's default SITE_PAGE_RATE, as deployed
            env.pop("SITE_PAGE_RATE", None)
        if role == "daphne":
            env.update(self.config_env)
        return env

    def phase(self, stack: Stack, config: str, repeat: int, flooded: bool) -> None:
        readers = self.args.readers if flooded else 0
        name = f"{config} {'flood' if flooded else 'floor'} r{repeat + 1}"
        spec = self.work / f"flood-{len(self.rows)}.json"
        result = self.work / f"flood-{len(self.rows)}-result.json"
        spec.write_text(
            json.dumps(
                {
                    "port": nginx_port(stack),
                    "host": "127.0.0.1",
                    "clients": readers,
                    "urls": self.urls,
                    "lobby_url": "/",
                    "lobby_every": 0.25,
                    "lobby_source": "127.0.0.2",
                    "max_seconds": self.args.duration + 300,
                }
            )
        )
        proc = subprocess.Popen(
            [self.python, str(BENCH_DIR / "flood_http.py"), str(spec), str(result)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=open(self.logs / f"flood-{len(self.rows)}.log", "w"),  # noqa: SIM115
            bufsize=0,
            env=self.env("flood"),
            start_new_session=True,
        )
        service = load_procs.Service("flood", proc, self.logs / f"flood-{len(self.rows)}.log")
        self.clients_started.append(service)
        try:
            expect(proc, "READY", 90)
            time.sleep(2.0)  # the flood at full speed before the tables open
            stack.roots["readers"] = [proc.pid]  # the flood's own CPU, metered with the step's
            try:
                summary = self.step(stack, name, self.live_tables)
            finally:
                stack.roots.pop("readers")
            tell(proc, "STOP")
            expect(proc, "DONE", 90)
            http = json.loads(result.read_text())
        finally:
            service.stop(5)
            self.clients_started.remove(service)
        lat = summary["latency_ms"]
        row = {
            "config": config,
            "flood": flooded,
            "repeat": repeat + 1,
            "move_p50": lat["p50"],
            "move_p99": lat["p99"],
            "move_max": lat["max"],
            "actions": summary["actions"],
            "errors": summary["errors"],
            "lobby_p50": http["lobby"]["p50"],
            "lobby_p99": http["lobby"]["p99"],
            "lobby_max": http["lobby"]["max"],
            "pages_per_second": http["pages_per_second"],
            "page_ms": http["page_ms"],
            "statuses": http["statuses"],
            "loadavg": summary["loadavg"],
            "background_cpu_percent": summary.get("background_cpu_percent"),
            # CPU % (100 = one core) of each process tree during the step: daphne, nginx,
            # readers (the flood process), clients (the sockets), machine (everything).
            "cpu_percent": {
                role: cost["cpu_percent"] for role, cost in summary["processes_cost"].items()
            },
        }
        self.rows.append(row)
        say(
            f"   {name}: moves p50 {row['move_p50']} p99 {row['move_p99']} ms; lobby p50 "
            f"{row['lobby_p50']} p99 {row['lobby_p99']} ms; {row['pages_per_second']} pages/s "
            f"{row['statuses']}; load {row['loadavg']}"
        )

    def write(self) -> None:
        self.out.mkdir(parents=True, exist_ok=True)
        table = markdown(self.rows)
        (self.out / "flood.json").write_text(
            json.dumps(
                {
                    "machine": load_procs.machine(),
                    "args": vars(self.args),
                    "record": getattr(self, "record", None),
                    "rows": self.rows,
                },
                indent=1,
                default=str,
            )
        )
        (self.out / "flood.md").write_text(table + "\n")
        print("\n" + table)
        print(f"\nwrote {self.out / 'flood.md'}, {self.out / 'flood.json'}; logs in {self.logs}")


def nginx_port(stack: Stack) -> int:
    return int(stack.endpoints[0].rsplit(":", 1)[1])


def ratio(value: float | None, floor: float | None) -> str:
    """``value / floor`` as ``"×2.3"``, or ``"–"`` when either is missing or the floor is 0."""
    if value is None or not floor:
        return "–"
    return f"×{value / floor:.1f}"


def median_ratio(pairs: list[tuple[dict, dict]], key: str) -> str:
    """The median over (flood step, its floor) pairs of ``flood[key] / floor[key]``."""
    ratios = [r[key] / f[key] for r, f in pairs if r[key] and f[key]]
    return f"×{statistics.median(ratios):.1f}" if ratios else "–"


def markdown(rows: list[dict]) -> str:
    """One line per step, each flood step with its ratios to the floor of the same
    configuration and repeat; then the medians over repeats per configuration."""
    floors = {(r["config"], r["repeat"]): r for r in rows if not r["flood"]}
    lines = [
        "| configuration | step | repeat | moves done (errors) | move p50 ms | p50 / floor "
        "| move p99 ms | p99 / floor | lobby p50 ms | lobby p99 ms | lobby p99 / floor | pages/s "
        "| load avg |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        floor = floors.get((r["config"], r["repeat"]), {}) if r["flood"] else {}
        lines.append(
            f"| {r['config']} | {'flood' if r['flood'] else 'floor'} | {r['repeat']} "
            f"| {r['actions']} ({r['errors']}) "
            f"| {r['move_p50']} | {ratio(r['move_p50'], floor.get('move_p50'))} "
            f"| {r['move_p99']} | {ratio(r['move_p99'], floor.get('move_p99'))} "
            f"| {r['lobby_p50']} | {r['lobby_p99']} "
            f"| {ratio(r['lobby_p99'], floor.get('lobby_p99'))} | {r['pages_per_second']} "
            f"| {r['loadavg']} |"
        )
    lines += [
        "",
        "| configuration | median move p50 / floor | median move p99 / floor "
        "| median lobby p99 / floor |",
        "|---|---|---|---|",
    ]
    for config in dict.fromkeys(r["config"] for r in rows):
        pairs = [
            (r, floors[(config, r["repeat"])])
            for r in rows
            if r["config"] == config and r["flood"] and (config, r["repeat"]) in floors
        ]
        cells = [median_ratio(pairs, key) for key in ("move_p50", "move_p99", "lobby_p99")]
        lines.append(f"| {config} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    bench = FloodBench(parse_args(argv))
    started = time.monotonic()
    try:
        bench.setup()
        bench.run()
    except KeyboardInterrupt:
        say("interrupted: stopping")
    finally:
        bench.cleanup()
        bench.write()
        say(f"total {time.monotonic() - started:.0f} s; load average {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
