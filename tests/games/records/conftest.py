"""The record tests' finished match (``finished_match``): driven to its end in-process once per
test module, and rolled back after it.

Driving the match to its end is the slow part of these tests (thousands of writer calls), and
none of them changes it for the next one: the module's fixture drives it inside a transaction
of its own, each test runs in a savepoint within it (pytest-django's ``db``), and the module's
transaction is rolled back at its end, so the database is left as a test found it. Modules
that use it must not hold transactional tests, and must not create its users (ana, bo, cy);
their tests go to one xdist worker (``pytest.mark.xdist_group``), which drives the match once.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.core.cache import cache
from django.db import transaction
from django.test import override_settings

from accounts.models import User
from games.models import Match
from games.play import stewarding
from tests.games.drivers import drive

PLAYERS = ("ana", "bo", "cy")


@pytest.fixture(scope="module")
def _finished_match_id(django_db_setup, django_db_blocker) -> Iterator[int]:
    """The pk of a quick match (target level 3) with claim windows, played to its end: ana and
    bo send the moves their seat's policy picks (their own moves: ``drive(people=True)``), two
    AI seats, and cy at seat 3 who never moves (every turn of
    hers is a timeout: no AI stand-in takes her seat, ``GAMES_STAND_IN_AFTER_TIMEOUTS`` 0)."""
    module_transaction = transaction.atomic()
    with django_db_blocker.unblock():
        module_transaction.__enter__()
        try:
            with override_settings(
                GAMES_STAND_IN_AFTER_TIMEOUTS=0,
                PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"],
            ):
                ana, bo, cy = (User.objects.create_user(name, password="x") for name in PLAYERS)
                table = stewarding.open_table(
                    ana,
                    name="history table",
                    options={"target_level": "3"},
                    seats=[(ana, "heuristic"), (None, "heuristic"), (bo, "random"), (cy, "")],
                    start=True,
                    seed=414,
                )
                match_id = drive(Match.objects.get(table=table).pk, people=True)[0].pk
        except BaseException:
            transaction.set_rollback(True)
            module_transaction.__exit__(None, None, None)
            raise
    yield match_id
    with django_db_blocker.unblock():
        transaction.set_rollback(True)
        module_transaction.__exit__(None, None, None)


@pytest.fixture
def finished_match(_finished_match_id: int, db: None) -> Match:
    """The module's finished match (see ``_finished_match_id``), read afresh for this test,
    with the cache emptied: a test's cached states or pages never reach the next one."""
    cache.clear()
    return Match.objects.get(pk=_finished_match_id)
