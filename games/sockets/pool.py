"""The thread pool a Daphne process runs its sockets' database work and renders in, and the
consumer base class that keeps every message off the process's one sync thread."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from asgiref.typing import ASGIReceiveCallable, ASGISendCallable
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.db import connections

from games.sockets import socket_limits

if TYPE_CHECKING:
    # The stubs' scope of a Channels consumer (a WebSocket scope plus url_route, session, user).
    from channels.consumer import _ChannelScope

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


class PooledConsumer(AsyncWebsocketConsumer):
    """An async consumer whose messages never wait for the process's one sync thread.

    Channels' ``dispatch`` runs ``close_old_connections`` through ``sync_to_async`` (thread
    sensitive: one thread per process) before every message — every pushed frame and
    heartbeat of every socket queued there, which capped a Daphne process at about forty
    actions a second with its CPU half idle. These consumers touch the database only in
    ``in_pool``, which gives its connection back itself, so that step has nothing to do.
    """

    #: Set once this side closed the socket: what the page still sends is ignored.
    closing = False

    async def __call__(
        self, scope: _ChannelScope, receive: ASGIReceiveCallable, send: ASGISendCallable
    ) -> None:
        # A send racing a close that Daphne has not heard of yet is dropped, not raised.
        await super().__call__(scope, receive, socket_limits.guard_send(send))

    async def close(self, code: int | None = None, reason: str | None = None) -> None:
        self.closing = True
        await super().close(code=code, reason=reason)

    async def dispatch(self, message: dict[str, Any]) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)
