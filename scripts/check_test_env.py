"""Check what the test suite needs before it runs, and say exactly what is missing.

The tests run against a real PostgreSQL (DATABASE_URL), a real Redis (REDIS_URL) and
Debian's chromium (Playwright drives it; no browser is ever downloaded). Exit 1 with a
how-to for each thing missing, 0 when all is there.

Which chromium: ``CHROMIUM_PATH`` if set, else Debian's ``chromium-headless-shell`` when it
is installed, else ``chromium``. The headless shell is the same Blink and V8 built as the
old headless mode alone (what Playwright's own headless runs use); it renders the same pages
for ~20 % less CPU than the full browser's new headless mode (docs/PERFORMANCE.md, "The
browser tests' chromium"), and the browser tests are most of the suite's CPU.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import psycopg
import redis

#: Debian's browsers the tests can drive, the cheaper first.
CHROMIUM_CANDIDATES = (Path("/usr/bin/chromium-headless-shell"), Path("/usr/bin/chromium"))


def chromium_path() -> Path:
    """The chromium the browser tests drive: ``CHROMIUM_PATH``, else the first of
    ``CHROMIUM_CANDIDATES`` that is installed (the last one when none is, for the message)."""
    if os.environ.get("CHROMIUM_PATH"):
        return Path(os.environ["CHROMIUM_PATH"])
    return next((path for path in CHROMIUM_CANDIDATES if path.is_file()), CHROMIUM_CANDIDATES[-1])


def check_postgres(url: str) -> str | None:
    try:
        with psycopg.connect(url, connect_timeout=3) as connection:
            connection.execute("SELECT 1")
    except psycopg.Error as error:
        first_line = str(error).strip().splitlines()[0] if str(error).strip() else repr(error)
        return (
            f"PostgreSQL is not reachable at DATABASE_URL={url}\n    ({first_line})\n"
            "    Install: apt-get install -y postgresql\n"
            "    Start:   pg_ctlcluster --skip-systemctl-redirect "
            "$(ls /etc/postgresql) main start\n"
            "    Or set DATABASE_URL to a PostgreSQL database the tests may use."
        )
    return None


def check_redis(url: str) -> str | None:
    try:
        redis.Redis.from_url(url, socket_connect_timeout=3, socket_timeout=3).ping()
    except (redis.RedisError, OSError) as error:
        return (
            f"Redis is not reachable at REDIS_URL={url}\n    ({error})\n"
            "    Install: apt-get install -y redis-server\n"
            "    Start:   redis-server --daemonize yes --bind 127.0.0.1 --port 6379 "
            '--save "" --appendonly no\n'
            "    Or set REDIS_URL to a Redis the tests may use."
        )
    return None


def check_chromium(path: Path) -> str | None:
    if path.is_file() and os.access(path, os.X_OK):
        return None
    return (
        f"Chromium is missing at {path} (browser tests drive Debian's chromium).\n"
        "    Install: apt-get update && apt-get install -y chromium chromium-headless-shell\n"
        "    Never `playwright install`: the tests use the system browser."
    )


def main(argv: list[str]) -> int:
    """``--no-browser``: chromium is not needed (``make test-fast``)."""
    browser = "--no-browser" not in argv
    problems = [
        problem
        for problem in (
            check_postgres(os.environ.get("DATABASE_URL", "")),
            check_redis(os.environ.get("REDIS_URL", "")),
            check_chromium(chromium_path()) if browser else None,
        )
        if problem
    ]
    if not problems:
        print(f"Test environment: PostgreSQL, Redis{' and chromium' if browser else ''} are there.")
        return 0
    print("The tests cannot run; missing:\n", file=sys.stderr)
    for problem in problems:
        print(f"  - {problem}\n", file=sys.stderr)
    print(
        "`bash .ci/run` starts PostgreSQL and Redis and installs chromium "
        "and chromium-headless-shell.",
        file=sys.stderr,
    )
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
