"""The processes of a load run: starting and stopping them, and what they cost (psutil).

Every process the benchmark starts is a ``Service``: its own session (process group), its
output in a log file, stopped by its id with SIGTERM, then SIGKILL after a bound. ``Meter``
reads CPU seconds and RSS of whole process trees (a Celery worker and its pool, nginx and its
workers, the PostgreSQL postmaster and its backends) — including children that exited
(``children_user``/``children_system``), which matters for PostgreSQL backends that live for one
request.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import psutil


@dataclass
class Service:
    role: str
    proc: subprocess.Popen
    log: Path
    port: int | None = None

    def alive(self) -> bool:
        return self.proc.poll() is None

    def stop(self, grace: float = 10.0) -> None:
        """SIGTERM to this service's own process group, then SIGKILL after ``grace`` s."""
        if self.proc.poll() is not None:
            return
        try:
            os.killpg(self.proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            return
        try:
            self.proc.wait(grace)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.proc.wait(5)

    def tail(self, lines: int = 15) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""


def start(
    role: str,
    argv: list[str],
    *,
    env: dict,
    cwd: Path,
    logdir: Path,
    port: int | None = None,
    stdin=subprocess.DEVNULL,
) -> Service:
    log = logdir / f"{role}.log"
    out = open(log, "ab")  # noqa: SIM115 - kept open by the child
    proc = subprocess.Popen(
        argv,
        env=env,
        cwd=cwd,
        stdout=out,
        stderr=subprocess.STDOUT,
        stdin=stdin,
        start_new_session=True,
    )
    out.close()
    return Service(role, proc, log, port)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(service: Service, timeout: float = 30.0) -> None:
    """Until ``service`` accepts TCP on its port; raise with its log if it dies or times out."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not service.alive():
            raise RuntimeError(f"{service.role} exited:\n{service.tail()}")
        try:
            with socket.create_connection(("127.0.0.1", service.port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"{service.role} did not listen on {service.port}:\n{service.tail()}")


def wait_log(service: Service, text: str, timeout: float = 60.0) -> None:
    """Until ``text`` appears in the service's log (e.g. a Celery worker's "ready")."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not service.alive():
            raise RuntimeError(f"{service.role} exited:\n{service.tail()}")
        if text in service.log.read_text(errors="replace"):
            return
        time.sleep(0.2)
    raise RuntimeError(f"{service.role} not ready ({text!r}):\n{service.tail()}")


# --- what processes cost -------------------------------------------------------------------------


def tree_cpu(pid: int) -> float:
    """CPU seconds of a process, its live descendants and its reaped children."""
    try:
        root = psutil.Process(pid)
        procs = [root, *root.children(recursive=True)]
    except psutil.NoSuchProcess:
        return 0.0
    total = 0.0
    for proc in procs:
        try:
            t = proc.cpu_times()
        except psutil.NoSuchProcess:
            continue
        total += t.user + t.system + t.children_user + t.children_system
    return total


def tree_rss(pid: int) -> int:
    """Bytes resident in a process and its descendants (shared pages count in each)."""
    try:
        root = psutil.Process(pid)
        procs = [root, *root.children(recursive=True)]
    except psutil.NoSuchProcess:
        return 0
    total = 0
    for proc in procs:
        try:
            total += proc.memory_info().rss
        except psutil.NoSuchProcess:
            continue
    return total


def find_pid(name: str, needle: str = "") -> int | None:
    """The oldest process called ``name`` whose parent is not also ``name`` (a server's root)."""
    found = []
    for proc in psutil.process_iter(["name", "cmdline", "ppid", "create_time"]):
        info = proc.info
        if info["name"] != name:
            continue
        if needle and needle not in " ".join(info["cmdline"] or []):
            continue
        try:
            if psutil.Process(info["ppid"]).name() == name:
                continue
        except psutil.NoSuchProcess:
            pass
        found.append((info["create_time"], proc.pid))
    return min(found)[1] if found else None


@dataclass
class Meter:
    """CPU seconds between ``begin`` and ``end`` and peak RSS in between, per role."""

    roots: dict[str, list[int]]
    interval: float = 0.5
    peaks: dict[str, int] = field(default_factory=dict)
    extra: list = field(default_factory=list)  # callables sampled with the RSS (pg backends)

    def begin(self) -> None:
        self.machine0 = machine_busy()
        self.cpu0 = {role: sum(tree_cpu(p) for p in pids) for role, pids in self.roots.items()}
        self.t0 = time.monotonic()
        self.peaks = {role: 0 for role in self.roots}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    def _sample(self) -> None:
        while not self._stop.is_set():
            for role, pids in self.roots.items():
                self.peaks[role] = max(self.peaks[role], sum(tree_rss(p) for p in pids))
            for sample in self.extra:
                sample()
            self._stop.wait(self.interval)

    def end(self) -> dict:
        self._stop.set()
        self._thread.join(5)
        wall = time.monotonic() - self.t0
        out = {}
        for role, pids in self.roots.items():
            cpu = sum(tree_cpu(p) for p in pids) - self.cpu0[role]
            out[role] = {
                "cpu_seconds": round(cpu, 2),
                "cpu_percent": round(100 * cpu / wall, 1),
                "peak_rss_mb": round(self.peaks[role] / 2**20, 1),
            }
        busy = machine_busy() - self.machine0
        out["machine"] = {
            "cpu_seconds": round(busy, 2),
            "cpu_percent": round(100 * busy / wall, 1),
            "cores": psutil.cpu_count(),
        }
        return out


def machine_busy() -> float:
    """CPU seconds the whole machine spent on anything but idle and I/O wait, all cores."""
    t = psutil.cpu_times()
    return (
        sum(t)
        - t.idle
        - getattr(t, "iowait", 0.0)
        - getattr(t, "guest", 0.0)
        - getattr(t, "guest_nice", 0.0)
    )


def machine() -> dict:
    """The machine a run's figures come from (written into its results)."""
    import platform

    return {
        "cpus": os.cpu_count(),
        "memory_gb": round(psutil.virtual_memory().total / 2**30, 1),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "loadavg_at_end": os.getloadavg(),
        "when": datetime.now(UTC).isoformat(),
    }
