"""Browser tests: Playwright drives Debian's chromium against a live Daphne server and the
site's Celery workers (main and AI), all on the test database (PostgreSQL) and the real Redis.

No browser is ever downloaded: chromium comes from Debian (`apt-get install chromium`).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.db import connection

from tests import servers

ROOT = servers.ROOT
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")


@pytest.fixture(scope="session")
def server_env(django_db_setup, django_db_blocker) -> dict:
    """The environment of the live processes: the test database, fast AI and round pauses."""
    with django_db_blocker.unblock():
        db = connection.settings_dict
    return servers.test_database_env(
        db,
        GAMES_AI_DELAY_SECONDS="0.05",
        GAMES_NEXT_ROUND_SECONDS="3",
        # Every browser signs up from 127.0.0.1, and the count lives in Redis for the whole run.
        ACCOUNTS_SIGNUP_RATE="1000/h",
    )


@pytest.fixture(scope="module")
def live_url(server_env) -> Iterator[str]:
    """Daphne serving the ASGI app (HTTP + WebSockets) and the two Celery workers (main, AI).

    Module-scoped: once a browser module is done, its worker must not go on writing while the
    suite's later transactional tests flush the database (a flush deadlocked once)."""
    port = servers.free_port()
    logs = ROOT / "var" / "e2e"
    logs.mkdir(parents=True, exist_ok=True)
    with (logs / "daphne.log").open("wb") as out, (logs / "worker.log").open("wb") as wout:
        daphne = servers.start_daphne(port, server_env, out)
        workers = servers.start_workers(server_env, stdout=wout, pool="threads", concurrency=4)
    url = f"http://127.0.0.1:{port}"
    try:
        servers.wait_http(f"{url}/", daphne)
        yield url
    finally:
        servers.stop(daphne, *workers)


@pytest.fixture(scope="module")
def browser():
    """Debian's chromium, headless, with the flags this closed network needs.

    Module-scoped: Playwright's sync API runs an event loop in this thread while it is open,
    which the suite's async tests and async_to_sync calls cannot share, so it closes with each
    browser module. Meanwhile the database flushes between tests run beside that loop: allow it.
    """
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        yield from _launch()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


def _launch():
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install -y chromium")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        yield browser
        browser.close()


@pytest.fixture
def new_page(browser, live_url):
    """Open pages in fresh browser contexts (separate cookies: separate people)."""
    contexts = []

    def open_page(width: int = 1280, height: int = 900):
        context = browser.new_context(
            base_url=live_url, viewport={"width": width, "height": height}
        )
        context.set_default_timeout(15_000)
        contexts.append(context)
        return context.new_page()

    yield open_page
    for context in contexts:
        context.close()
