"""Build a module's test data once, inside a transaction that is rolled back at the module's end.

Many modules give every test the same starting rows (users, tables, a match, a league…). Built
per test, they cost more than the tests themselves. ``built_once`` builds them once per module
(per xdist worker): in a transaction of the module's own, which each test's own transaction
(pytest-django's ``db``, a savepoint within it) rolls back to, so every test still starts from
exactly what was built, and the database is left as the module found it.

A module-scoped fixture uses it as ``yield from built_once(django_db_blocker, build)``, or a
module whose tests share one world of rows takes both its fixtures from ``world_fixtures``; the
tests that read it take ``db`` (``pytest.mark.django_db``, never ``transaction=True``) and read
its rows afresh by pk (the built model instances are shared by the module's tests: a test must
not rely on their attributes after it changed the rows). Users are made with the cheap hasher,
as the suite's ``_fast_password_hashing`` does for a test's own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.core.cache import cache
from django.db import transaction
from django.test import override_settings

FAST_HASHER = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def built_once[T](django_db_blocker: Any, build: Callable[[], T], **settings: Any) -> Iterator[T]:
    """Yield ``build()``'s result, built in a module transaction with ``settings`` overridden
    (and the fast password hasher); roll the transaction back after the module's tests."""
    module_transaction = transaction.atomic()
    with django_db_blocker.unblock():
        module_transaction.__enter__()
        try:
            with override_settings(PASSWORD_HASHERS=FAST_HASHER, **settings):
                built = build()
        except BaseException:
            transaction.set_rollback(True)
            module_transaction.__exit__(None, None, None)
            raise
    try:
        yield built
    finally:
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            module_transaction.__exit__(None, None, None)


def world_fixtures[T](build: Callable[[], T]) -> tuple[Any, Any]:
    """The two fixtures of a module whose tests share one world built by ``build``, to be
    assigned as ``_world, world = world_fixtures(_build_world)``:

    - ``_world`` (module scope): ``build()``, once per module (``built_once``);
    - ``world``: that result for a test (its changes are rolled back), with the cache emptied:
      what one test cached (a state, a page) never reaches the next.
    """

    @pytest.fixture(scope="module")
    def _world(django_db_setup: None, django_db_blocker: Any) -> Iterator[T]:
        yield from built_once(django_db_blocker, build)

    @pytest.fixture
    def world(_world: T, db: None) -> T:
        cache.clear()
        return _world

    return _world, world
