"""Run 414 Club for development: private Redis, migrations, demo account, Celery, Daphne.

`make run` calls this with the project's virtualenv. It owns every process it starts:
Redis first (so both others can reach it), then the Celery worker and Daphne, each told
REDIS_URL through its environment. Ctrl-C (or SIGTERM) stops them in reverse order.

With REDIS_URL already set, that Redis is used and none is started. With DATABASE_URL
unset, the embedded SQLite file is used.
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(BASE_DIR))  # run as a script: make `config` and the apps importable

from config import embedded_redis  # noqa: E402


def _parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument(
        "--state-dir",
        type=Path,
        default=BASE_DIR / "var",
        help="where the private Redis keeps its socket and log (default: var/)",
    )
    return parser.parse_args(argv)


def _prepare_database() -> None:
    """Migrate and create the demo account, in this process, before any child starts."""
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", interactive=False, verbosity=1)
    call_command("ensure_demo_user")


def _wait_for_port(host: str, port: int, child: subprocess.Popen[bytes], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if child.poll() is not None:
            raise RuntimeError(f"Daphne exited with {child.returncode} before serving")
        try:
            with socket.create_connection((host, port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"Daphne did not listen on {host}:{port} within {timeout}s")


def _stop(children: dict[str, subprocess.Popen[bytes]], timeout: float = 15.0) -> None:
    """Stop children newest first (Daphne, then the worker), so nothing outlives its broker."""
    for child in reversed(children.values()):
        if child.poll() is None:
            child.send_signal(signal.SIGTERM)
            try:
                child.wait(timeout)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()


class _StopRequested(Exception):
    """Raised from the SIGINT/SIGTERM handler so any step in progress unwinds to `finally`."""


def _request_stop(signum: int, frame: object) -> None:
    raise _StopRequested


def _spawn(*command: str) -> subprocess.Popen[bytes]:
    # Own process group: Ctrl-C reaches only this launcher, which then stops the children
    # in order instead of all of them racing to exit at once.
    return subprocess.Popen([sys.executable, "-m", *command], process_group=0,
                            stdin=subprocess.DEVNULL)  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    args = _parse_args(argv)
    os.chdir(BASE_DIR)
    os.environ.setdefault("DJANGO_DEBUG", "1")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    signal.signal(signal.SIGINT, _request_stop)
    signal.signal(signal.SIGTERM, _request_stop)

    redis_server = None
    children: dict[str, subprocess.Popen[bytes]] = {}
    try:
        if not os.environ.get("REDIS_URL"):
            redis_server = embedded_redis.start(args.state_dir)
            # Exported before Django reads its settings, and inherited by both children:
            # this is how Daphne and the Celery worker meet on the same private Redis.
            os.environ["REDIS_URL"] = redis_server.url
            print(f"Private Redis on {redis_server.socket_path}", flush=True)
        _prepare_database()
        # -B: the worker also runs the beat schedule (the sweep for lost timers); production
        # runs `celery -A config beat` as its own process instead.
        children["celery"] = _spawn("celery", "-A", "config", "worker", "-B",
                                    "--schedule", str(args.state_dir / "celerybeat-schedule"),
                                    "--loglevel=INFO")
        children["daphne"] = _spawn(
            "daphne", "-b", args.host, "-p", str(args.port), "config.asgi:application"
        )
        _wait_for_port(args.host, args.port, children["daphne"], timeout=30)
        shown_host = "localhost" if args.host in {"127.0.0.1", "0.0.0.0"} else args.host
        print(
            f"\n414 Club is running at http://{shown_host}:{args.port}/"
            "  (demo account: demo / demo414club; Ctrl-C stops it)\n",
            flush=True,
        )
        while True:
            for name, child in children.items():
                if child.poll() is not None:
                    print(f"{name} exited with {child.returncode}; stopping.", flush=True)
                    return 1
            time.sleep(0.3)
    except _StopRequested:
        return 0
    finally:
        # A second Ctrl-C must not cut the orderly shutdown short; _stop has its own timeouts.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        print("Stopping 414 Club...", flush=True)
        _stop(children)
        if redis_server is not None:
            redis_server.stop()


if __name__ == "__main__":
    sys.exit(main())
