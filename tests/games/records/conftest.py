"""The record tests' finished match (``finished_match``): driven to its end in-process once per
test process, its rows put back in each module's transaction and rolled back after it.

Driving the match to its end is the slow part of these tests (thousands of writer calls), and
none of them changes it for the next one: it is driven once per process in a transaction that
is rolled back, keeping the rows it added (``tests.kept_rows``); each module's fixture copies
them back inside a transaction of its own, each test runs in a savepoint within it
(pytest-django's ``db``), and the module's transaction is rolled back at its end, so the
database is left as a test found it. Modules
that use it must not hold transactional tests, and must not create its users (ana, bo, cy);
their tests go to one xdist worker (``pytest.mark.xdist_group``), which drives the match once.

Its round reviews are the other slow part: the review modules' tests each have rounds of it
reviewed (``reviews.make``), the same rounds on the same sampled deals, and the expert's search
of a round (``engine.review.review_round``) is a pure function of its record, seat, samples and
seed (the engine's test_review.py pins it), its time budget unspent at the few samples these
tests ask for. So, with ``finished_match``, ``reviews.make`` runs in full (its queries, who is
reviewed, the rows it stores, the count it returns) but the search of a seat's round is run
once per test process (``_review_once``) and its result, a frozen value, given again after.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from typing import Any

import pytest
from django.core.cache import cache
from django.test import override_settings

from accounts.models import User
from games.engine.review import RoundRecord, RoundReview
from games.models import Match
from games.play import stewarding
from games.records import reviews
from tests import kept_rows
from tests.built_once import built_once
from tests.games.drivers import drive

PLAYERS = ("ana", "bo", "cy")

#: ``_review_once``'s searches: what ``review_round`` answered, by its arguments.
_REVIEWED: dict[tuple[Hashable, ...], RoundReview] = {}
_SEARCH = reviews.engine_review


def _review_once(record: RoundRecord, seat: int, **options: Any) -> RoundReview:
    """``review_round(record, seat, **options)`` (``reviews.engine_review``), searched the first
    time these arguments are given in this process, then the same result again."""
    key = (record, seat) + tuple(
        (name, frozenset(value) if name == "others" else value)
        for name, value in sorted(options.items())
    )
    if key not in _REVIEWED:
        _REVIEWED[key] = _SEARCH(record, seat, **options)
    return _REVIEWED[key]


def _play_finished_match() -> int:
    """A quick match (target level 3) with claim windows, played to its end: ana and bo send
    the moves their seat's policy picks (their own moves: ``drive(people=True)``), two AI
    seats, and cy at seat 3 who never moves (every turn of hers is a timeout: no AI stand-in
    takes her seat, ``GAMES_STAND_IN_AFTER_TIMEOUTS`` 0). Its pk."""
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
        return drive(Match.objects.get(table=table).pk, people=True)[0].pk


@pytest.fixture(scope="session")
def _finished_match_rows(django_db_setup, django_db_blocker) -> kept_rows.Kept:
    """``_play_finished_match``'s rows, played once per test process (``tests.kept_rows``): the
    modules that read it (each in its own transaction) get the same rows back."""
    with django_db_blocker.unblock():
        return kept_rows.capture(_play_finished_match)


@pytest.fixture(scope="module")
def _finished_match_id(_finished_match_rows, django_db_blocker) -> Iterator[int]:
    """The pk of ``_play_finished_match``'s match, its rows put back in the module's own
    transaction (``tests.built_once``), rolled back at the module's end."""
    yield from built_once(django_db_blocker, lambda: kept_rows.restore(_finished_match_rows))


@pytest.fixture
def finished_match(_finished_match_id: int, db: None, monkeypatch: pytest.MonkeyPatch) -> Match:
    """The module's finished match (see ``_finished_match_id``), read afresh for this test,
    with the cache emptied: a test's cached states or pages never reach the next one. Its
    rounds' reviews search each seat's round once per process (``_review_once``)."""
    cache.clear()
    monkeypatch.setattr(reviews, "engine_review", _review_once)
    return Match.objects.get(pk=_finished_match_id)
