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
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
REPO_DIR = BENCH_DIR.parent
sys.path.insert(0, str(BENCH_DIR))

import load_db  # noqa: E402
import load_procs  # noqa: E402
import load_report  # noqa: E402

REDIS_URL = "redis://127.0.0.1:6379/0"
TABLE_OPTIONS = {"turn_seconds": 60, "claim_window_seconds": 5}
QUICK = {
    "tables": "1,3",
    "bare_tables": "1,10,50",
    "duration": 5.0,
    "spectators": 20,
    "rated": 3,
    "processes": "1",
    "settle": 1.0,
}


@dataclass
class Stack:
    """The servers of one measured setup."""

    mode: str  # app | bare
    processes: int
    proxy: str
    services: list = field(default_factory=list)
    endpoints: list = field(default_factory=list)
    roots: dict = field(default_factory=dict)  # role -> pids, for the Meter

    def stop(self) -> None:
        for service in reversed(self.services):  # nginx first, the worker last
            service.stop()


class Bench:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
        # A run of its own: two benches (or a fault script) on one machine never share data.
        self.db_name, self.namespace = f"club414_{args.name}", f"{args.name}-"
        self.out = Path(args.out).resolve()  # nginx takes its paths from its own prefix
        self.work = self.out / f"run-{stamp}"
        self.logs = self.work / "logs"
        self.sqldir = self.work / "sql"
        for path in (self.logs, self.sqldir):
            path.mkdir(parents=True, exist_ok=True)
        self.python = sys.executable
        self.bin = Path(sys.executable).parent
        self.app_dir = self.prepare_app(args.app_rev) if args.app_rev else Path(args.app_dir)
        self.steps: list[dict] = []
        self.clients_started: list = []
        self.bare_next_id = 1

    # --- environment and setup ---------------------------------------------------------------

    def prepare_app(self, rev: str) -> Path:
        """A copy of the app at ``rev`` (git archive), for measuring another commit."""
        target = self.work / "app"
        target.mkdir()
        archive = subprocess.run(
            ["git", "-C", str(REPO_DIR), "archive", rev], check=True, capture_output=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(target)], input=archive, check=True)
        return target

    def env(self, role: str = "bench") -> dict:
        env = dict(os.environ)
        env.update(
            {
                "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{self.db_name}",
                "REDIS_URL": REDIS_URL,
                "REDIS_NAMESPACE": self.namespace,
                # Production settings, as the README's Production section runs the site.
                "DJANGO_DEBUG": "0",
                "DJANGO_SECRET_KEY": "bench-only-" + "k" * 40,
                "DJANGO_ALLOWED_HOSTS": "localhost,127.0.0.1",
                "DJANGO_SETTINGS_MODULE": "config.settings",
                "GAMES_NEXT_ROUND_SECONDS": "1",
                # Every bench client comes from this one address: no per-address socket cap.
                "GAMES_MAX_SOCKETS_PER_IP": "0",
                "PYTHONPATH": os.pathsep.join([str(self.app_dir), str(BENCH_DIR)]),
                "LOAD_SQLCOUNT_DIR": str(self.sqldir),
                "LOAD_SQLCOUNT_ROLE": role,
                "PYTHONUNBUFFERED": "1",
            }
        )
        return env

    def setup(self) -> None:
        say(f"app: {self.app_dir}; database {self.db_name}; Redis namespace {self.namespace}")
        load_db.create_database(self.db_name)
        load_db.clear_redis(REDIS_URL, self.namespace)
        load_db.migrate(self.python, self.app_dir, self.env())
        os.environ.update(
            {
                k: v
                for k, v in self.env().items()
                if k not in ("LOAD_SQLCOUNT_DIR", "LOAD_SQLCOUNT_ROLE")
            }
        )
        self.django = load_db.Django(self.app_dir)
        most = max([*self.args.tables, self.args.rated_overload, 1])
        self.users = self.django.users(4 * most)
        self.sessions = self.django.session_keys(self.users)
        self.pg = load_db.PgStats(self.db_name)
        self.postgres_pid = load_procs.find_pid("postgres")
        self.redis_pid = load_procs.find_pid("redis-server", "6379") or load_procs.find_pid(
            "redis-server"
        )

    def cleanup(self) -> None:
        for service in self.clients_started:
            service.stop(2)
        if hasattr(self, "pg"):
            self.pg.close()
        try:
            from django.db import connections

            connections.close_all()
        except Exception:  # noqa: BLE001 - Django may not be set up yet
            pass
        load_db.clear_redis(REDIS_URL, self.namespace)
        if not self.args.keep_db:
            load_db.drop_database(self.db_name)

    # --- servers -------------------------------------------------------------------------------

    def start_stack(self, mode: str, processes: int, proxy: str) -> Stack:
        stack = Stack(mode, processes, proxy)
        try:
            self._start_stack(stack)
        except BaseException:
            stack.stop()
            raise
        return stack

    def _start_stack(self, stack: Stack) -> None:
        app = (
            "bare_app:application"
            if stack.mode == "bare"
            else ("load_sqlcount:application" if self.args.count_sql else "config.asgi:application")
        )
        daphnes = []
        for n in range(stack.processes):
            port = load_procs.free_port()
            role = f"daphne{n + 1}" if stack.mode == "app" else f"bare{n + 1}"
            daphnes.append(
                load_procs.start(
                    role,
                    [str(self.bin / "daphne"), "-b", "127.0.0.1", "-p", str(port), app],
                    env=self.env("daphne"),
                    cwd=self.app_dir,
                    logdir=self.logs,
                    port=port,
                )
            )
        stack.services += daphnes
        stack.roots["daphne"] = [d.proc.pid for d in daphnes]
        if stack.mode == "app":
            self.start_worker(stack)
        for daphne in daphnes:
            load_procs.wait_port(daphne)
        ports = [d.port for d in daphnes]
        if stack.proxy == "nginx":
            nginx = self.start_nginx(stack.mode, ports)
            stack.services.append(nginx)
            stack.roots["nginx"] = [nginx.proc.pid]
            ports = [nginx.port]
        stack.endpoints = [f"ws://127.0.0.1:{p}" for p in ports]
        if stack.mode == "app":
            check_http(ports[0])
        stack.roots["postgres"] = [self.postgres_pid] if self.postgres_pid else []
        stack.roots["redis"] = [self.redis_pid] if self.redis_pid else []
        say(
            f"started {stack.mode}: {stack.processes} Daphne, proxy {stack.proxy}, "
            f"endpoints {stack.endpoints}"
        )

    def start_worker(self, stack: Stack) -> None:
        app = "load_sqlcount" if self.args.count_sql else "config"
        before = set(self.sqldir.glob("worker-*.json"))
        # The main worker takes every queue but the AI's, the AI worker only that one (the
        # tables here are people's: it idles, as beside people's tables in production).
        workers = []
        for role, queues in (("worker", "-X"), ("ai-worker", "-Q")):
            workers.append(
                load_procs.start(
                    role,
                    [
                        str(self.bin / "celery"),
                        "-A",
                        app,
                        "worker",
                        "-l",
                        "warning",
                        "--concurrency",
                        "2",
                        "-n",
                        f"bench-{role}-{os.getpid()}@%h",
                        queues,
                        f"{self.namespace}ai",
                    ],
                    env=self.env("worker"),
                    cwd=self.app_dir,
                    logdir=self.logs,
                )
            )
        worker = workers[0]
        stack.services[0:0] = workers
        stack.roots["worker"] = [w.proc.pid for w in workers]
        if self.args.beat:
            beat = load_procs.start(
                "beat",
                [
                    str(self.bin / "celery"),
                    "-A",
                    "config",
                    "beat",
                    "-l",
                    "warning",
                    "-s",
                    str(self.work / "celerybeat-schedule"),
                ],
                env=self.env("beat"),
                cwd=self.app_dir,
                logdir=self.logs,
            )
            stack.services.insert(len(workers), beat)
            stack.roots["beat"] = [beat.proc.pid]
        if self.args.count_sql:  # ready = the startup sweep ran (its SQL wrote a count file)
            deadline = time.monotonic() + 60
            while set(self.sqldir.glob("worker-*.json")) <= before:
                if time.monotonic() > deadline or not worker.alive():
                    raise RuntimeError(f"the worker did not start:\n{worker.tail()}")
                time.sleep(0.2)

    def start_nginx(self, mode: str, ports: list[int]) -> load_procs.Service:
        port = load_procs.free_port()
        nginx_bin = "/usr/sbin/nginx"
        if not Path(nginx_bin).exists():
            raise SystemExit("--proxy nginx needs nginx: apt-get install nginx")
        root = self.work / f"nginx-{mode}"
        root.mkdir(exist_ok=True)
        conf = root / "nginx.conf"
        conf.write_text(
            nginx_conf((REPO_DIR / "deploy" / "nginx.conf").read_text(), ports, port, root)
        )
        service = load_procs.start(
            f"nginx-{mode}",
            [nginx_bin, "-c", str(conf), "-p", str(root), "-e", str(root / "error.log")],
            env=self.env(),
            cwd=root,
            logdir=self.logs,
            port=port,
        )
        load_procs.wait_port(service)
        return service

    # --- one step --------------------------------------------------------------------------------

    def step(self, stack: Stack, scenario: str, tables: int, spectators: int = 0) -> dict:
        args = self.args
        label = f"{scenario} {stack.mode} {stack.processes}p {tables}t"
        say(f"-- {label}" + (f" + {spectators} spectators" if spectators else ""))
        began = time.monotonic()
        background = background_cpu(1.5)
        specs = self.table_specs(stack, tables, spectators)
        frame_bytes = self.bare_frame_bytes(stack.processes, stack.proxy)
        sockets = sum(len(t["seats"]) + t.get("spectators", 0) for t in specs)
        clients = args.clients or (1 if sockets <= 200 else 2)
        common = {
            "mode": stack.mode,
            "endpoints": stack.endpoints,
            "rate": args.rate,
            "path": "/ws/bare/{table}/" if stack.mode == "bare" else "/ws/table/{table}/",
            "duration": args.duration,
            "action_timeout": args.action_timeout,
            "connect_timeout": args.connect_timeout,
            "connect_concurrency": 50,
            "heartbeat": args.heartbeat,
            "p_pass": 0.15,
            "p_hook": 0.3,
            "frame_bytes": frame_bytes,
        }
        groups = [specs[n::clients] for n in range(clients)]
        info = {
            "scenario": scenario,
            "mode": stack.mode,
            "processes": stack.processes,
            "proxy": stack.proxy,
            "tables": tables,
            "spectators": spectators,
            "rate": args.rate,
            "duration": args.duration,
            "clients": clients,
            "frame_bytes_sent": frame_bytes if stack.mode == "bare" else None,
            "background_cpu_percent": background,
        }
        try:
            readings = self.drive(stack, label, [g for g in groups if g], common)
        finally:
            if stack.mode == "app":
                self.django.abandon([t["id"] for t in specs])
        results, server = readings
        info["step_seconds"] = round(time.monotonic() - began, 1)  # setup to teardown
        summary = load_report.summarise({**info, **server}, load_report.merge(results))
        self.steps.append(summary)
        lat = summary["latency_ms"]
        say(
            f"   {summary['actions']} actions, p50 {lat['p50']} p99 {lat['p99']} max "
            f"{lat['max']} ms, errors {summary['errors']}, load {summary['loadavg']}, "
            f"held: {summary['held']}"
            + (
                " (a client was saturated: its delay is in the figures)"
                if summary["client_saturated"]
                else ""
            )
            + (
                f" (client loop lag p99 {summary['client']['loop_lag_ms']['p99']} ms with CPU to "
                "spare: the machine is oversubscribed)"
                if summary["client_starved"]
                else ""
            )
        )
        time.sleep(args.settle)
        return summary

    def table_specs(self, stack: Stack, tables: int, spectators: int) -> list[dict]:
        if stack.mode == "bare":
            specs = [
                {
                    "id": self.bare_next_id + n,
                    "seats": [{"seat": k, "cookie": ""} for k in range(4)],
                }
                for n in range(tables)
            ]
            self.bare_next_id += tables
        else:
            specs = self.django.open_tables(tables, self.users, TABLE_OPTIONS, "bench")
            for table in specs:
                for seat in table["seats"]:
                    seat["cookie"] = self.sessions[seat.pop("user")]
        for table in specs:
            table["spectators"] = spectators
        return specs

    def bare_frame_bytes(self, processes: int, proxy: str) -> int:
        if self.args.frame_bytes:
            return self.args.frame_bytes
        sizes = [
            s["mean_seat_frame_bytes"]
            for s in self.steps
            if s["mode"] == "app"
            and s["processes"] == processes
            and s["proxy"] == proxy
            and s["mean_seat_frame_bytes"]
        ]
        return round(sum(sizes) / len(sizes)) if sizes else 15000

    def drive(self, stack: Stack, label: str, groups: list[list], common: dict):
        """Run the client processes through READY, GO, STOPPED, CLOSE, DONE; read the servers."""
        args = self.args
        clients = []
        slug = re.sub(r"\W+", "-", label)
        for n, group in enumerate(groups):
            spec = self.work / f"spec-{slug}-{n}.json"
            spec.write_text(json.dumps({**common, "tables": group, "seed": n + 1}))
            result = self.work / f"result-{slug}-{n}.json"
            proc = subprocess.Popen(
                [self.python, str(BENCH_DIR / "load_client.py"), str(spec), str(result)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                bufsize=0,
                stderr=open(self.logs / f"client-{slug}-{n}.log", "w"),  # noqa: SIM115
                env=self.env("client"),
                start_new_session=True,
            )
            service = load_procs.Service(f"client{n}", proc, self.logs / f"client-{slug}-{n}.log")
            clients.append((service, result))
            self.clients_started.append(service)
        try:
            ready = [expect(c.proc, "READY", args.connect_timeout * 2 + 30) for c, _ in clients]
            failed = sum(int(line.split()[2]) for line in ready)
            if failed:
                say(f"   {failed} sockets failed to connect")
            time.sleep(0.5)
            roots = {**stack.roots, "clients": [c.proc.pid for c, _ in clients]}
            meter = load_procs.Meter(
                {k: v for k, v in roots.items() if v}, extra=[self.pg.sample_backends]
            )
            self.pg.peak_backends = 0
            sql0, pg0 = read_sql(self.sqldir), self.pg.read()
            meter.begin()
            for client, _ in clients:
                tell(client.proc, "GO")
            for client, _ in clients:
                expect(client.proc, "STOPPED", args.duration + args.action_timeout + 30)
            time.sleep(0.5)
            sql1, pg1 = read_sql(self.sqldir), self.pg.read()
            processes = meter.end()
            loadavg = round(os.getloadavg()[0], 2)
            for client, _ in clients:
                tell(client.proc, "CLOSE")
            for client, _ in clients:
                expect(client.proc, "DONE", 60)
                client.proc.wait(10)
            results = [json.loads(path.read_text()) for _, path in clients]
        finally:
            for client, _ in clients:
                client.stop(2)
                self.clients_started.remove(client)
        server = {
            "loadavg": loadavg,
            "processes_cost": processes,
            "sql": {k: sql1.get(k, 0) - sql0.get(k, 0) for k in sql1},
            "pg": {k: pg1[k] - pg0[k] for k in pg1 if k != "numbackends"},
            "pg_peak_backends": self.pg.peak_backends,
        }
        return results, server

    # --- the plan ----------------------------------------------------------------------------

    def run(self) -> None:
        args = self.args
        for processes in args.processes:
            last = processes == args.processes[-1]
            for mode in ("app", "bare"):
                stack = self.start_stack(mode, processes, args.proxy)
                try:
                    steps = args.tables if mode == "app" else args.bare_tables
                    misses = 0
                    for tables in steps:
                        misses = 0 if self.try_step(stack, "tables", tables) else misses + 1
                        if misses >= args.stop_after and not args.keep_going:
                            break
                    if last and args.spectators:
                        self.try_step(stack, "spectators", 1, args.spectators)
                    if last and mode == "app" and args.rated_overload:
                        self.try_step(stack, "overload", args.rated_overload)
                finally:
                    stack.stop()
            self.report_ratio(processes)

    def try_step(self, stack: Stack, scenario: str, tables: int, spectators: int = 0) -> bool:
        """Run a step; a step that breaks down (a client that never got ready, a server that
        died) is reported and counts as not held."""
        try:
            return self.step(stack, scenario, tables, spectators)["held"]
        except RuntimeError as error:
            say(f"   the step broke down: {error}")
            self.broken = getattr(self, "broken", []) + [
                f"{scenario} {stack.mode} {stack.processes}p {tables}t: {error}"
            ]
            if not all(s.alive() for s in stack.services):
                raise
            return False

    def report_ratio(self, processes: int) -> None:
        app = load_report.capacity(self.steps, "app", processes, self.args.proxy)
        bare = load_report.capacity(self.steps, "bare", processes, self.args.proxy)
        top = max(self.args.bare_tables)
        bound = "≥" if bare == top else ""  # the floor held every step: its capacity is more
        ratio = f"{'≤' if bound and app else ''}{app / bare:.3f}" if bare else "n/a"
        line = (
            f"capacity with {processes} Daphne (proxy {self.args.proxy}): app {app} "
            f"tables{' (no step held)' if not app else ''}, bare {bound}{bare} tables, "
            f"ratio app/bare {ratio}"
        )
        self.ratios = getattr(self, "ratios", []) + [line]
        say(line)

    def write(self) -> None:
        out = self.out
        results = {
            "machine": machine(),
            "args": {k: v for k, v in vars(self.args).items()},
            "app_dir": str(self.app_dir),
            "pg_settings": getattr(self.pg, "settings", {}),
            "capacity": getattr(self, "ratios", []),
            "broken_steps": getattr(self, "broken", []),
            "steps": self.steps,
        }
        (out / "results.json").write_text(json.dumps(results, indent=1, default=str))
        if self.steps:
            load_report.plot(self.steps, out / "p99.png")
        table = load_report.markdown(self.steps)
        (out / "results.md").write_text(
            table + "\n\n" + "\n".join(getattr(self, "ratios", [])) + "\n"
        )
        print()
        print(table)
        print()
        for line in getattr(self, "ratios", []):
            print(line)
        print(
            f"\nwrote {out / 'results.json'}, {out / 'results.md'}, {out / 'p99.png'}; "
            f"logs in {self.logs}"
        )


# --- helpers ---------------------------------------------------------------------------------


def nginx_conf(template: str, upstream_ports: list[int], port: int, root: Path) -> str:
    """``deploy/nginx.conf`` with the benchmark's upstreams, listen port and paths."""
    servers = "".join(f"        server 127.0.0.1:{p};\n" for p in upstream_ports)
    text = re.sub(
        r"(upstream club414 \{\n)((?:[^}]*\n)*?)(\s*\})",
        lambda m: (
            m.group(1)
            + re.sub(r"^\s*server .*\n", "", m.group(2), flags=re.M).replace(
                "least_conn;\n", "least_conn;\n" + servers, 1
            )
            + m.group(3)
        ),
        template,
    )
    text = re.sub(r"^(\s*)listen \[::\].*\n", "", text, flags=re.M)
    text = re.sub(r"^(\s*)listen [^;]*;", rf"\1listen 127.0.0.1:{port};", text, flags=re.M)
    text = re.sub(r"^(\s*)access_log [^;]*;", rf"\1access_log {root}/access.log;", text, flags=re.M)
    text = re.sub(
        r"^(\s*)error_log [^;]*;", rf"\1error_log {root}/error.log warn;", text, flags=re.M
    )
    text = re.sub(r"^\s*(user|pid|daemon) [^;]*;\n", "", text, flags=re.M)
    return f"daemon off;\npid {root}/nginx.pid;\n" + text


def background_cpu(seconds: float) -> float:
    """Machine CPU % (all cores; 200 = both of two) used while this benchmark idles between
    steps: other work on the box, plus the idle servers."""
    before = load_procs.machine_busy()
    time.sleep(seconds)
    return round(100 * (load_procs.machine_busy() - before) / seconds, 1)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def check_http(port: int) -> None:
    """The lobby answers over HTTP (through nginx when it is in front): the page itself, or —
    nginx here speaks plain HTTP, and production settings want HTTPS — the redirect to it."""
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/", headers={"Host": "localhost", "X-Forwarded-Proto": "https"}
    )
    opener = urllib.request.build_opener(_NoRedirect)
    try:
        with opener.open(request, timeout=30) as response:
            status = response.status
    except urllib.error.HTTPError as answer:
        status = answer.code
    if status not in (200, 301):
        raise RuntimeError(f"GET / answered {status}")


def read_sql(directory: Path) -> dict:
    """Statements and new connections counted so far, in total and per role."""
    totals: dict[str, int] = {}
    for path in directory.glob("*.json"):
        try:
            data = json.loads(path.read_text())
        except (OSError, ValueError):
            continue
        # "connects": Django's connection_created, also when a pool hands out a connection;
        # new server sessions are pg_stat_database.sessions.
        for key, name in (("statements", "statements"), ("connections", "django_connects")):
            totals[name] = totals.get(name, 0) + data[key]
            per_role = f"{name} ({data['role']})"
            totals[per_role] = totals.get(per_role, 0) + data[key]
    return totals


def expect(proc: subprocess.Popen, word: str, timeout: float) -> str:
    """The client's next line starting with ``word``, within ``timeout`` s (raw reads of its
    stdout, so lines that arrive together are not left in a buffer select cannot see)."""
    import selectors

    pending = getattr(proc, "pending_output", b"")
    deadline = time.monotonic() + timeout
    with selectors.DefaultSelector() as selector:
        selector.register(proc.stdout, selectors.EVENT_READ)
        while True:
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                if line.decode(errors="replace").startswith(word):
                    proc.pending_output = pending
                    return line.decode().strip()
            left = deadline - time.monotonic()
            if left <= 0:
                raise RuntimeError(f"no {word} from a client within {timeout:.0f} s")
            if selector.select(min(1.0, left)):
                chunk = os.read(proc.stdout.fileno(), 65536)
                if not chunk:
                    raise RuntimeError(f"a client exited before {word}")
                pending += chunk


def tell(proc: subprocess.Popen, word: str) -> None:
    proc.stdin.write(f"{word}\n".encode())
    proc.stdin.flush()


def machine() -> dict:
    import platform

    import psutil

    return {
        "cpus": os.cpu_count(),
        "memory_gb": round(psutil.virtual_memory().total / 2**30, 1),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "loadavg_at_end": os.getloadavg(),
        "when": datetime.now(UTC).isoformat(),
    }


def say(line: str) -> None:
    print(line, flush=True)


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
