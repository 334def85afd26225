"""Requests sent at the same moment, each from its own thread with its own database connection
(as Daphne's request threads): the races of sign-ups and renames against PostgreSQL's
constraints and Redis's counters. For ``django_db(transaction=True)`` tests."""

from __future__ import annotations

import threading
from collections.abc import Callable

from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.db import connections


class RaceHasher(PBKDF2PasswordHasher):
    """The real hasher at a fifteenth of its cost (~70 ms here, not ~1 s): the gap between
    the form's checks and the account being saved that sign-ups sent at once race through,
    short enough that 25 threads never wait 10 s for one of the pool's 12 connections."""

    iterations = 100_000


RACE_HASHERS = [f"{__name__}.RaceHasher"]


def at_once(count: int, send: Callable[[int], object]) -> list:
    """``send(n)`` for n in 0..count-1, each in its own thread, all let go together (each
    thread has its own database connection, as Daphne's request threads do). The answers, in
    order; an exception a thread raised is its answer."""
    barrier = threading.Barrier(count)
    answers: list = [None] * count

    def run(n: int) -> None:
        try:
            barrier.wait(timeout=30)
            answers[n] = send(n)
        except Exception as e:  # noqa: BLE001 - the test asserts there is none
            answers[n] = e
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(n,)) for n in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return answers
