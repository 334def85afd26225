"""Where a Daphne process's socket work meets the database: PostgreSQL connections awaited on
the event loop (issue 19) for the sockets' writer (``games.play.loop_writer``) and their session
check, and the pool threads (``WRITER_POOL``, ``in_pool``) for the rest of their database work.

A socket's action used to run in a pool thread with Django's connection: about ten times a move
that thread blocked on a round trip and, to go on, took the GIL back from the event loop that was
forwarding frames — 1 to 1.7 ms of CPU a move in hand-offs (docs/PERFORMANCE.md, "The writer off
the pool threads"). Awaited here, a round trip lets the loop go on instead.

Connections are psycopg's ``AsyncConnection`` with Django's own connection parameters
(``DatabaseWrapper.get_connection_params``: the database, its test name in tests, the adapters
Django loads and dumps values with, server-side binding, the prepare threshold), kept per event
loop — an async connection belongs to the loop it was opened on — up to
``settings.GAMES_LOOP_CONNECTIONS`` at once per loop. Not psycopg_pool's ``AsyncConnectionPool``:
its pool runs tasks of its own on one loop and closes on it, where tests open a loop per test;
here ``close_all`` closes every kept connection from any thread, loop running or not.

Only on PostgreSQL (``available``); ``make run``'s SQLite keeps the threads' path.
May import ``django``, ``channels`` and ``psycopg`` only.
"""

from __future__ import annotations

import asyncio
import threading
import weakref
from collections.abc import AsyncIterator, Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from typing import Any

import psycopg
from channels.db import database_sync_to_async
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections

WRITER_POOL = ThreadPoolExecutor(
    max_workers=settings.GAMES_SOCKET_THREADS, thread_name_prefix="club414-socket"
)


def in_pool[**P, R](function: Callable[P, R]) -> Callable[P, Coroutine[Any, Any, R]]:
    """``function`` as a coroutine run in ``WRITER_POOL``, taking the same arguments and
    returning (awaited) what it returns; what it raises is raised from the await. The thread's
    database connection is closed when the call ends — given back to psycopg's pool — from inside
    the call itself: the wrapper's own clean-up runs where it cannot see the connection the call
    opened."""

    def call(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return function(*args, **kwargs)
        finally:
            connections.close_all()

    return database_sync_to_async(call, thread_sensitive=False, executor=WRITER_POOL)


def available() -> bool:
    """Whether the default database is PostgreSQL (the loop's connections are psycopg's)."""
    return bool(connections[DEFAULT_DB_ALIAS].vendor == "postgresql")


class _Kept:
    """One loop's idle connections and the bound on those in use at once."""

    def __init__(self, size: int) -> None:
        self.idle: list[psycopg.AsyncConnection[Any]] = []
        self.slots = asyncio.Semaphore(size)


_by_loop: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Kept] = weakref.WeakKeyDictionary()
_every: weakref.WeakSet[psycopg.AsyncConnection[Any]] = weakref.WeakSet()
_every_lock = threading.Lock()


def _kept() -> _Kept:
    loop = asyncio.get_running_loop()
    kept = _by_loop.get(loop)
    if kept is None:
        kept = _by_loop[loop] = _Kept(settings.GAMES_LOOP_CONNECTIONS)
    return kept


def _params() -> dict[str, Any]:
    """Django's connection parameters for the default database, for an async connection."""
    wrapper = connections[DEFAULT_DB_ALIAS]
    params: dict[str, Any] = wrapper.get_connection_params()
    params.pop("cursor_factory", None)  # Django's sync cursor class; the async default binds
    # server-side as Django's ServerBindingCursor does, and Django's settings ask for that
    params["autocommit"] = True  # transactions are explicit (``conn.transaction()``)
    # As Django's ``init_connection_state`` sets it: the session's time zone is the site's
    # (here at connect time, no statement of its own).
    zone = f"-c TimeZone={wrapper.timezone_name}"
    params["options"] = f"{params['options']} {zone}" if params.get("options") else zone
    return params


async def _connect() -> psycopg.AsyncConnection[Any]:
    conn = await psycopg.AsyncConnection.connect(**_params())
    with _every_lock:
        _every.add(conn)
    return conn


@asynccontextmanager
async def connection() -> AsyncIterator[psycopg.AsyncConnection[Any]]:
    """A connection of this loop's for the caller's statements (autocommit; a transaction is
    ``async with conn.transaction()``), given back when the block ends. A connection the block
    left broken or inside a transaction is closed, not kept. Raises psycopg's errors
    (``psycopg.OperationalError`` when the database cannot be reached)."""
    kept = _kept()
    async with kept.slots:
        conn = kept.idle.pop() if kept.idle else await _connect()
        try:
            yield conn
        finally:
            if conn.closed or conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
                await _close(conn)
            else:
                kept.idle.append(conn)


async def _close(conn: psycopg.AsyncConnection[Any]) -> None:
    with _every_lock:
        _every.discard(conn)
    await conn.close()


def close_all() -> None:
    """Close every connection opened here, in every loop, idle or not (from any thread; for a
    test that is about to drop its database). A connection in use fails at its next
    statement."""
    with _every_lock:
        every = list(_every)
        _every.clear()
    for conn in every:
        conn.pgconn.finish()
    for kept in list(_by_loop.values()):
        kept.idle.clear()
