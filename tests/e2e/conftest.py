"""Browser tests: Playwright drives Debian's chromium against a live Daphne server and the
site's Celery workers (main and AI), all on the test database (PostgreSQL) and the real Redis.

No browser is ever downloaded: chromium comes from Debian (`apt-get install chromium
chromium-headless-shell`; ``scripts/check_test_env.chromium_path`` says which one runs).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.db import connection, transaction
from playwright.sync_api import expect

from accounts.models import User
from games.models import Match
from games.play import stewarding
from scripts.check_test_env import chromium_path
from tests import kept_rows, servers
from tests.e2e.helpers import (
    PASSWORD,
    stop_tables_after_the_test,  # noqa: F401 - autouse, every test here
)
from tests.games.drivers import drive

ROOT = servers.ROOT
CHROMIUM = str(chromium_path())
#: How long a browser test waits for what it expects (``expect``) or acts on (the contexts'
#: default): generous, so a busy machine makes a test slower, never red. Playwright polls, so
#: a test waits no longer than the page needs.
WAIT_MS = 30_000

expect.set_options(timeout=WAIT_MS)


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
        SITE_PAGE_RATE="off",  # every browser is 127.0.0.1 too
        STATIC_MAX_AGE_SECONDS="3600",  # a context's later pages take the files it has
    )


class LiveStack:
    """Daphne serving the ASGI app (HTTP + WebSockets), the two Celery workers (main, AI) and
    chromium: started by the first browser test, stopped after the last one of a run of them
    (``pytest_runtest_teardown`` below), so a session starts it once when the browser tests
    run together, as ``pytest_collection_modifyitems`` (tests/conftest.py) orders them and
    ``--dist loadgroup`` sends them (one xdist group, one worker).

    Stopped as soon as the browser tests are over: its workers must not go on writing while
    the suite's later transactional tests flush the database (a flush deadlocked once), and
    Playwright's sync API runs an event loop in this thread while it is open, which the
    suite's async tests and async_to_sync calls cannot share."""

    def __init__(self) -> None:
        self.url: str | None = None
        self.procs: list = []
        self.logs: list = []
        self.playwright = None
        self.browser = None
        self.previous_async_unsafe: str | None = None

    @property
    def running(self) -> bool:
        return self.url is not None

    def start(self, env: dict) -> None:
        if self.running:
            return
        if not Path(CHROMIUM).exists():
            pytest.fail(f"{CHROMIUM} is missing: apt-get install -y chromium-headless-shell")
        port = servers.free_port()
        logs = ROOT / "var" / "e2e"
        logs.mkdir(parents=True, exist_ok=True)
        # One pair of logs per xdist worker: each browser group's worker has its own stack.
        name = os.environ.get("PYTEST_XDIST_WORKER", "main")
        self.logs = [
            (logs / f"daphne-{name}.log").open("ab"),
            (logs / f"worker-{name}.log").open("ab"),
        ]
        daphne = servers.start_daphne(port, env, self.logs[0])
        self.procs = [daphne]
        self.procs += servers.start_workers(env, stdout=self.logs[1], pool="threads", concurrency=4)
        url = f"http://127.0.0.1:{port}"
        try:
            # Meanwhile the database flushes between tests run beside Playwright's loop: allow it.
            self.previous_async_unsafe = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
            self.browser = self._launch()
            servers.wait_http(f"{url}/", daphne)
        except BaseException:
            self.stop()
            raise
        self.url = url

    def _launch(self):
        from playwright.sync_api import sync_playwright

        self.playwright = sync_playwright().start()
        return self.playwright.chromium.launch(
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

    def stop(self) -> None:
        try:
            if self.browser is not None:
                self.browser.close()
            if self.playwright is not None:
                self.playwright.stop()
        finally:
            self.browser = self.playwright = None
            servers.stop(*self.procs)
            for log in self.logs:
                log.close()
            self.procs, self.logs, self.url = [], [], None
            if self.previous_async_unsafe is None:
                os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
            else:
                os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = self.previous_async_unsafe


_stack = LiveStack()


@pytest.fixture(scope="session")
def live_stack(server_env) -> Iterator[LiveStack]:
    """The session's ``LiveStack`` (stopped at the latest when the session ends)."""
    yield _stack
    _stack.stop()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item, nextitem):
    """Stop the live stack after the last browser test of a run of them."""
    try:
        return (yield)
    finally:
        if _stack.running and (nextitem is None or nextitem.get_closest_marker("browser") is None):
            _stack.stop()


#: How many log lines a failed browser test shows (``pytest_runtest_makereport``).
LOG_TAIL_LINES = 60


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    """Note where the live stack's logs stand when a browser test starts, so a failure can show
    what Daphne and the workers wrote during it (CI keeps no var/ folder)."""
    item.stash[_log_starts] = [
        (Path(log.name), Path(log.name).stat().st_size) for log in _stack.logs
    ]
    return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """A failed browser test's report ends with the server and worker log lines of that test:
    its warnings and errors, then the last ``LOG_TAIL_LINES`` lines."""
    report = yield
    if report.when == "call" and report.failed:
        for path, start in item.stash.get(_log_starts, []):
            with path.open("rb") as log:
                log.seek(start)
                lines = log.read().decode("utf-8", "replace").splitlines()
            loud = [
                line
                for line in lines
                if "WARNING" in line or "ERROR" in line or "Traceback" in line
            ]
            shown = loud[-LOG_TAIL_LINES:] + ["…"] + lines[-LOG_TAIL_LINES:]
            report.sections.append((f"live stack: {path.name}", "\n".join(shown)))
    return report


_log_starts = pytest.StashKey[list]()


@pytest.fixture
def live_url(live_stack, server_env) -> str:
    """The live stack's address (``LiveStack``), started if it is not running."""
    live_stack.start(server_env)
    return live_stack.url


@pytest.fixture
def browser(live_stack, live_url):
    """Debian's chromium (``LiveStack``), headless, with the flags this closed network needs."""
    return live_stack.browser


@pytest.fixture
def new_page(browser, live_url):
    """Open pages in fresh browser contexts (separate cookies: separate people)."""
    contexts = []

    def open_page(width: int = 1280, height: int = 900):
        context = browser.new_context(
            base_url=live_url, viewport={"width": width, "height": height}
        )
        context.set_default_timeout(WAIT_MS)
        contexts.append(context)
        return context.new_page()

    yield open_page
    for context in contexts:
        context.close()


def _play_replayed_match() -> tuple[int, int]:
    """A quick match (target level 3) of a person and an AI seat of each difficulty, played to
    its end in this process (the person sends the heuristic's moves: ``drive(people=True)``).
    (The person's pk, the match's pk.)"""
    host = User.objects.create_user("replayer_all", password=PASSWORD)
    table = stewarding.open_table(
        host,
        name="replay on a phone",
        options={"target_level": "3"},
        seats=[(host, "heuristic"), (None, "heuristic"), (None, "random"), (None, "expert")],
        start=True,
        seed=414,
    )
    return host.pk, drive(Match.objects.get(table=table).pk, people=True)[0].pk


@pytest.fixture(scope="session")
def _replayed_match_rows(django_db_setup, django_db_blocker) -> kept_rows.Kept:
    """``_play_replayed_match``'s rows, played once per test process (``tests.kept_rows``: in a
    transaction rolled back, so none of its moves reaches the live stack's workers)."""
    with django_db_blocker.unblock():
        return kept_rows.capture(_play_replayed_match)


@pytest.fixture
def replayed_match(_replayed_match_rows, live_url) -> tuple[User, Match]:
    """A finished quick match (``_play_replayed_match``: its person and an AI seat of each
    difficulty), its rows put back in this test's database, committed for the live stack:
    ``(its person, the match)``."""
    with transaction.atomic():
        host_pk, match_pk = kept_rows.restore(_replayed_match_rows)
    return User.objects.get(pk=host_pk), Match.objects.get(pk=match_pk)
