"""Which seats show "disconnected" (``games.live.away``): the table's check over its seats' pages
in real Redis — a seat goes away only once its last page has lapsed, and comes back with any
page — and which seats may show it at all: a seat its own person plays, never an AI, a bot, an
empty seat or a stand-in's."""

from __future__ import annotations

import time

from accounts.models import User
from games.live import away, redis_store
from games.models import Seat

TABLE = 987_654  # no such table in any test database: only its Redis keys are used


def _clean() -> None:
    redis_store.client().delete(away.pages_key(TABLE), away.shown_key(TABLE))


def test_a_seat_is_away_once_its_last_page_has_lapsed_and_back_with_any():
    _clean()
    client = redis_store.client()
    assert away.check(TABLE, (1, "tab-a")) is None  # a first page: never away before, no change
    assert away.check(TABLE, (1, "tab-b")) is None  # a second tab: nothing either
    # Tab b closes and its grace runs out: tab a is still open.
    client.zadd(away.pages_key(TABLE), {away.member(1, "tab-b"): time.time() - 1})
    assert away.check(TABLE) is None
    assert client.zscore(away.pages_key(TABLE), away.member(1, "tab-b")) is None  # taken out
    # Tab a goes silent past its lapse: the seat is away, once.
    client.zadd(away.pages_key(TABLE), {away.member(1, "tab-a"): time.time() - 1})
    assert away.check(TABLE) == (1, frozenset(), frozenset({1}))
    assert away.check(TABLE) is None
    assert away.shown_away(TABLE) == frozenset({1})
    # A page of seat 1 opens again: back, with the next sequence number.
    assert away.check(TABLE, (1, "tab-c")) == (2, frozenset({1}), frozenset())
    assert away.shown_away(TABLE) == frozenset()
    _clean()


def test_only_a_seat_its_own_person_plays_shows_it():
    ana, bot, cy, dee = (
        User(pk=1, username="ana"),
        User(pk=2, username="bot", is_bot=True),
        User(pk=3, username="cy"),
        User(pk=4, username="dee"),
    )
    seats = [
        Seat(number=0, user=ana),
        Seat(number=1, user=bot),
        Seat(number=2, ai_policy="expert"),  # an AI
        Seat(number=3),  # empty
        Seat(number=4, user=cy, ai_policy="expert", stand_in="away"),  # the AI stands in
        Seat(number=5, user=dee, ai_policy="expert", stand_in="left"),
    ]
    assert away.displayed(seats, frozenset(range(6))) == (0,)
    assert away.displayed(seats, frozenset({2, 3})) == ()
    assert away.displayed(seats, None) == ()
