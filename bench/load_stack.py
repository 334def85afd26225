"""The load bench's servers (``bench/load.py``): the run's database and environment, a stack of
Daphne processes (the app's or the bare floor's), the two Celery workers and beat, nginx in
front (``deploy/nginx.conf`` with the bench's ports), and the check that the app answers."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import load_db
import load_procs
from nginx_conf import nginx_conf

BENCH_DIR = Path(__file__).resolve().parent
REPO_DIR = BENCH_DIR.parent
REDIS_URL = "redis://127.0.0.1:6379/0"


@dataclass
class Stack:
    """The servers of one measured setup."""

    mode: str  # app | bare
    processes: int
    proxy: str
    # Daphnes of their own for the pages (nginx's `club414_pages`); 0: every Daphne serves both.
    page_processes: int = 0
    services: list = field(default_factory=list)
    endpoints: list = field(default_factory=list)
    roots: dict = field(default_factory=dict)  # role -> pids, for the Meter

    def stop(self) -> None:
        for service in reversed(self.services):  # nginx first, the worker last
            service.stop()


class Servers:
    """A run's database, Redis namespace and environment, and the stacks of servers it starts
    and stops (``Bench`` adds the steps played on them)."""

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
                # ... and no per-address page limit (config.page_limits).
                "SITE_PAGE_RATE": "off",
                # An event's table takes every spectator the run brings (300 by default).
                "GAMES_MAX_SPECTATORS_PER_TABLE": str(max(300, self.args.spectators)),
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

    def start_stack(self, mode: str, processes: int, proxy: str, page_processes: int = 0) -> Stack:
        stack = Stack(mode, processes, proxy, page_processes=page_processes)
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
        for n in range(stack.processes + stack.page_processes):
            port = load_procs.free_port()
            role = f"daphne{n + 1}" if stack.mode == "app" else f"bare{n + 1}"
            role += "-pages" if n >= stack.processes else ""
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
        ports = [d.port for d in daphnes[: stack.processes]]
        pools = None
        if stack.page_processes:
            if stack.proxy != "nginx":
                raise ValueError("page processes need nginx in front (its two upstreams)")
            pools = {"club414": ports, "club414_pages": [d.port for d in daphnes[len(ports) :]]}
        if stack.proxy == "nginx":
            nginx = self.start_nginx(stack.mode, ports, pools)
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
        # The main worker takes every queue but the AI's and the reviews', the AI worker only
        # the AI's (no review worker: reviews of the bench's rounds wait in Redis; the
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
                        f"{self.namespace}ai"
                        + (f",{self.namespace}review" if queues == "-X" else ""),
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

    def start_nginx(
        self, mode: str, ports: list[int], pools: dict[str, list[int]] | None = None
    ) -> load_procs.Service:
        port = load_procs.free_port()
        nginx_bin = "/usr/sbin/nginx"
        if not Path(nginx_bin).exists():
            raise SystemExit("--proxy nginx needs nginx: apt-get install nginx")
        root = self.work / f"nginx-{mode}"
        root.mkdir(exist_ok=True)
        conf = root / "nginx.conf"
        conf.write_text(
            nginx_conf(
                (REPO_DIR / "deploy" / "nginx.conf").read_text(),
                ports,
                port,
                root,
                pools=pools,
                forwarded_proto=getattr(self.args, "forwarded_proto", None),
                keep_limits=getattr(self.args, "limits", False),
            )
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


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def check_http(port: int) -> None:
    """The lobby answers over HTTP (through nginx when it is in front): the page itself, or —
    nginx here speaks plain HTTP, and production settings want HTTPS — the redirect to it, or
    the page limit's 429."""
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/", headers={"Host": "localhost", "X-Forwarded-Proto": "https"}
    )
    opener = urllib.request.build_opener(_NoRedirect)
    try:
        with opener.open(request, timeout=30) as response:
            status = response.status
    except urllib.error.HTTPError as answer:
        status = answer.code
    # 429: this address went over the app's page limit (bench/page_flood.py --limits keeps it):
    # the app answered all the same.
    if status not in (200, 301, 429):
        raise RuntimeError(f"GET / answered {status}")


def say(line: str) -> None:
    print(line, flush=True)
