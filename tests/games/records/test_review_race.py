"""Two review tasks of the same round at once store one review per seat (issue 20: "never
duplicated"): ``reviews.make`` checks for reviews made already, then spends seconds reviewing,
so two workers given the same round (a task redelivered after a restart, and the sweep) can both
find none; the unique constraint (``reviews._store``: each row in its savepoint) keeps the second
worker's rows out, and ``make`` says how many it truly stored. Real PostgreSQL, two threads on
two connections, committed data."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from games.models import RoundReview
from games.records import reviews
from tests.games.drivers import first_round

pytestmark = pytest.mark.django_db(transaction=True)

SAMPLES = 2


def test_two_reviews_of_one_round_at_once_store_one_per_seat(make_user, monkeypatch):
    match = first_round(make_user("ana"), make_user("bo"))
    seats = reviews.people_seats(match, 1)
    assert seats, "nobody decided anything of their own in round 1"
    # Both workers have read "no review yet" and reviewed before either stores: the real
    # review, then a wait for the other worker (the race made certain, not left to timing).
    both_reviewed = threading.Barrier(2, timeout=120)
    review = reviews.engine_review

    def review_then_wait(*args, **kwargs):
        found = review(*args, **kwargs)
        both_reviewed.wait()
        return found

    monkeypatch.setattr(reviews, "engine_review", review_then_wait)
    stored: list[int] = []
    failed: list[BaseException] = []

    def worker() -> None:
        try:
            stored.append(reviews.make(match.pk, 1, samples=SAMPLES))
        except BaseException as error:  # reported below, in the test's thread
            failed.append(error)
            both_reviewed.abort()
        finally:
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    assert not failed, failed
    # Each seat's review stored once, by one worker or the other, and counted by that one.
    assert sum(stored) == len(seats), stored
    rows = RoundReview.objects.filter(match=match, round_no=1)
    assert sorted(rows.values_list("seat", flat=True)) == sorted(seats)
