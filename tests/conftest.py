"""Fixtures shared across the whole suite."""

from __future__ import annotations

import contextvars
import subprocess
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.db import connection
from django.template.base import PartialTemplate, Template
from django.test import override_settings
from django.test.utils import _TestState

from accounts.models import User
from tests import fast_flush, servers, template_db

PASSWORD = "a-long-test-passphrase-414"

#: Fixtures that start real processes: a test using one is marked ``live`` (and ``browser`` for
#: the live stack that chromium drives), so ``make test-fast`` (``-m "not live and not slow"``)
#: leaves it out.
LIVE_FIXTURES = {"worker", "start_worker", "daphne", "private_redis"}
BROWSER_FIXTURES = {"browser", "live_url", "new_page", "live_stack"}
#: The browser tests run in two xdist groups, each on its own worker with its own live stack
#: (tests/e2e/conftest.py): they mostly wait (AI pauses, claim windows, round pauses), so two
#: stacks side by side halve the run's longest worker. These modules form the second group,
#: chosen so the two take about as long (with the bot and tournament tests on short matches,
#: the axe checks moved here: some 10 min of loaded-run time in each group; then the hand
#: arranging moved here too, when a quiet CI run had the first group at 316 s and this at 199 s;
#: and the stand-in, socket-refusal and play-the-computer tests when the next had 289 and 216 s;
#: then test_phone_fit, when the first group took this session's other new modules).
SECOND_BROWSER_GROUP = {
    "test_access",
    "test_ai_badges",  # with test_table_layout, which it was part of
    "test_bot_api",
    "test_hand_arrange",
    "test_phone_and_keyboard",
    "test_phone_fit",
    "test_play_computer",
    "test_rematch",
    "test_socket_refusals",
    "test_stand_in",
    "test_table_layout",
    "test_top_play_layout",  # with test_table_layout, which it was part of
    "test_tournament",
    "test_waiting_table_layout",  # with test_table_layout, which it was part of
}
BROWSER_GROUPS = ("browser", "browser-2")
#: The xdist group of the tests that use the ``worker`` fixture: on one xdist worker, one after
#: another, they share one pair of Celery workers (``servers.shared_workers``) instead of
#: starting a pair each (some 10 s of CPU a start).
WORKER_GROUP = "celery-workers"


def browser_group(item: pytest.Item) -> str:
    """The xdist group of a browser test (one of BROWSER_GROUPS), by its module."""
    module = item.nodeid.split("::")[0].rsplit("/", 1)[-1].removesuffix(".py")
    return BROWSER_GROUPS[1] if module in SECOND_BROWSER_GROUP else BROWSER_GROUPS[0]


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the tests that need real processes by the fixtures they use (the others carry
    ``@pytest.mark.live`` themselves). Every browser test goes to one of two xdist groups
    (``browser_group``), so under ``pytest -n N --dist loadgroup`` one worker per group starts
    a live stack (Daphne, the two Celery workers, chromium), once."""
    for item in items:
        used = set(getattr(item, "fixturenames", ()))
        if used & BROWSER_FIXTURES or item.get_closest_marker("browser"):
            item.add_marker(pytest.mark.browser)
            item.add_marker(pytest.mark.live)
            item.add_marker(pytest.mark.xdist_group(browser_group(item)))
        elif used & LIVE_FIXTURES:
            item.add_marker(pytest.mark.live)
            if "worker" in used:
                item.add_marker(pytest.mark.xdist_group(WORKER_GROUP))


def pytest_collection_finish(session: pytest.Session) -> None:
    """On an xdist worker under ``--dist loadgroup``: stop at once if the browser tests did not
    get their groups (xdist suffixes their ids with ``@browser``, ``@browser-2``). Without them
    they spread over every worker, each starting its own live stack on the same machine — as
    pytest 9.2 did silently (it keeps ids where pytest-xdist 3.8 does not write)."""
    if not getattr(session.config.option, "loadgroup", False):
        return
    strays = [
        item.nodeid
        for item in session.items
        if item.get_closest_marker("browser")
        and not item.nodeid.endswith(tuple(f"@{group}" for group in BROWSER_GROUPS))
    ]
    if strays:
        raise pytest.UsageError(f"browser tests outside their xdist group: {strays[:3]}")


@pytest.fixture
def password() -> str:
    return PASSWORD


@pytest.fixture
def make_user(db: None) -> Callable[..., User]:
    """Create a user with the shared test password: make_user("ana", language="es")."""

    def make(username: str = "player", **fields: object) -> User:
        return User.objects.create_user(username=username, password=PASSWORD, **fields)

    return make


@pytest.fixture
def user(make_user: Callable[..., User]) -> User:
    return make_user("player", email="player@example.com")


@pytest.fixture(scope="session", autouse=True)
def _suite_settings(django_test_environment: None) -> Iterator[None]:
    """Settings every test starts with, set once for the session (a test changing one with
    pytest-django's ``settings`` gets it back after): set per test, by three ``settings``
    fixtures, they cost each of the ~1,400 fast tests three overrides and their signals.

    - The lobby's public lists are rendered for each page in the suite: a copy kept from
      another test's tables (games.live.lobby_cache) would make a page depend on the order the
      tests run in. tests/games/live/test_lobby_cache.py turns the cache on to test it.
    - Test passwords are hashed cheaply: the real hasher's cost is for attackers, not for tests.
    """
    with override_settings(
        GAMES_LOBBY_CACHE_SECONDS=0,
        PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"],
    ):
        yield


#: Set while the test client's ``force_login`` logs a user in.
_forcing_login = contextvars.ContextVar("forcing_login", default=False)


@pytest.fixture(scope="session", autouse=True)
def _force_login_without_axes(django_test_environment: None) -> Iterator[None]:
    """The test client's ``force_login`` (a test's shortcut to "be logged in": no form, no
    password, never sent by the site) logs in without django-axes' ``user_logged_in`` handler,
    whose three queries (expired attempts cleaned, an access-log row written, the user's failed
    attempts reset) were half of each forced log-in's CPU: 200 in a row took 3.9-5.5 ms each
    with it, 1.9-2.1 ms without. Every other log-in (the log-in forms, ``Client.login``, the
    admin's) still goes through axes: its receiver is wrapped, not removed, so a real log-in in
    another thread meanwhile keeps it. tests/accounts/test_throttle.py tests axes through the
    forms; no test reads axes' rows after a ``force_login``."""
    from axes import signals as axes_signals
    from django.contrib.auth.signals import user_logged_in
    from django.test.client import ClientMixin

    def axes_unless_forced(sender: Any, **kwargs: Any) -> None:
        if not _forcing_login.get():
            axes_signals.handle_user_logged_in(sender=sender, **kwargs)

    force_login = ClientMixin.force_login

    def forced(self: ClientMixin, user: Any, backend: str | None = None) -> None:
        token = _forcing_login.set(True)
        try:
            force_login(self, user, backend)
        finally:
            _forcing_login.reset(token)

    assert user_logged_in.disconnect(axes_signals.handle_user_logged_in)
    user_logged_in.connect(axes_unless_forced, dispatch_uid="tests.axes_unless_forced")
    ClientMixin.force_login = forced  # type: ignore[method-assign]
    yield
    ClientMixin.force_login = force_login  # type: ignore[method-assign]
    user_logged_in.disconnect(dispatch_uid="tests.axes_unless_forced")
    user_logged_in.connect(axes_signals.handle_user_logged_in)


@pytest.fixture(autouse=True)
def _own_rate_limits() -> Iterator[None]:
    """Each test counts sign-ups (django-ratelimit, in the shared Redis cache) afresh: the
    suite's sign-ups all come from 127.0.0.1 and would add up to the limit."""
    with override_settings(RATELIMIT_CACHE_PREFIX=f"rl:{uuid.uuid4().hex}:"):
        yield


@pytest.fixture
def uncaptured_templates() -> Iterator[None]:
    """Templates render as they do on the site, without the test Client's capture: under test
    Django sends a signal for every template and include rendered, and the Client keeps the
    template and a copy of its context (``response.templates``, ``response.context``) — a
    tenth of the CPU of a test that posts hundreds of forms and reads neither. For such tests
    only: ``response.context`` and ``assertTemplateUsed`` are empty under this fixture."""
    instrumented = (Template._render, PartialTemplate._render)
    original = _TestState.saved_data  # what setup_test_environment replaced
    Template._render = original.template_render
    PartialTemplate._render = original.partial_template_render
    try:
        yield
    finally:
        Template._render, PartialTemplate._render = instrumented


@pytest.fixture(scope="session")
def django_db_setup(django_test_environment, django_db_blocker, django_db_modify_db_settings):
    """This process's test database (pytest-django's name: ``test_<name>``, ``_gwN`` on an
    xdist worker), cloned from the one migrated template (``tests/template_db.py``) instead of
    migrated afresh by each process; dropped at the end. pytest-django's ``--reuse-db`` and
    ``--create-db`` have no effect: a clone costs less than keeping one. Transactional tests
    reset it with DELETEs instead of a TRUNCATE (``tests/fast_flush.py``)."""
    from django.conf import settings as django_settings
    from django.db import connections

    default = connections["default"]
    real = dict(default.settings_dict)
    test_name = default.creation._get_test_db_name()
    with django_db_blocker.unblock():
        default.close()
        template_db.clone(real, test_name)
        django_settings.DATABASES["default"]["NAME"] = test_name
        default.settings_dict["NAME"] = test_name
        fast_flush.install()
    yield
    with django_db_blocker.unblock():
        # psycopg's pool keeps idle connections open: close it before the database is dropped.
        for connection in connections.all():
            if getattr(connection, "pool", None) is not None:
                connection.close_pool()
            connection.close()
        template_db.drop(real, test_name)
    django_settings.DATABASES["default"]["NAME"] = real["NAME"]
    default.settings_dict["NAME"] = real["NAME"]


@pytest.fixture(scope="session")
def _shared_workers_stopped(django_db_setup) -> Iterator[None]:
    """Stops the ``worker`` fixture's kept pair at the end of the session, before the test
    database they are connected to is dropped (this fixture is set up after it)."""
    yield
    servers.stop_shared_workers()


@pytest.fixture(autouse=True)
def _no_kept_workers_unless_asked(request: pytest.FixtureRequest) -> None:
    """A test that does not ask for the ``worker`` fixture runs without its kept pair: it may
    start workers of its own, read tasks from the queues itself, or count on no worker at all."""
    if "worker" not in request.fixturenames:
        servers.stop_shared_workers()


@pytest.fixture
def worker(
    request: pytest.FixtureRequest, settings, _shared_workers_stopped
) -> Iterator[list[subprocess.Popen]]:
    """The site's two Celery workers on the test database (``servers.shared_workers``: the main
    one with the timer clock, and the AI one), solo pools, the queues purged of older tests'
    tasks; AI pauses of 0.1 s for the tasks this process sends. One pair serves every test of
    this process that uses it (started again if a test stopped it); their tasks left running
    by the test before find its rows gone. Yields ``[main, ai]`` once the main worker's clock
    beats (``/healthz``'s check), so a test's waits never count a start-up that a busy machine
    makes slow.

    A test marked ``worker_env(NAME="value", …)`` gets a pair with those environment variables
    set (a setting the workers read once, e.g. ``GAMES_UNATTENDED_STOP_SECONDS``): the kept pair
    is then started afresh for it, and again for the next test without them."""
    from config import health
    from games.live import redis_store

    marker = request.node.get_closest_marker("worker_env")
    env = servers.test_database_env(connection.settings_dict, **(marker.kwargs if marker else {}))
    if not servers.shared_workers_running(env):
        redis_store.client().delete(health.heartbeat_key())  # an older test's worker beat here
    procs = servers.shared_workers(env)
    settings.GAMES_AI_DELAY_SECONDS = 0.1
    if not servers.wait_for(lambda: health.check_worker() == "ok", servers.START_SECONDS):
        polls = [p.poll() for p in procs]
        log = servers.shared_workers_log()
        servers.stop_shared_workers()
        raise RuntimeError(f"the main worker did not start: {polls}\n{log}")
    yield procs
    servers.purge_queues(env)  # what the test left queued goes now, not into the next test


@pytest.fixture(autouse=True)
def _default_language_after_each_test():
    """Each test starts in the default language: a request served in-process activates its
    page's language in this thread (the locale middleware) and leaves it there, so a test after
    one in Vietnamese would otherwise render Vietnamese."""
    yield
    from django.conf import settings
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
