"""The consumer base class that keeps every message off the process's one sync thread (the
pool threads its database work runs in: ``games.play.loop_db``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from asgiref.typing import ASGIReceiveCallable, ASGISendCallable
from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer

from games.sockets import socket_limits

if TYPE_CHECKING:
    # The stubs' scope of a Channels consumer (a WebSocket scope plus url_route, session, user).
    from channels.consumer import _ChannelScope


class PooledConsumer(AsyncWebsocketConsumer):
    """An async consumer whose messages never wait for the process's one sync thread.

    Channels' ``dispatch`` runs ``close_old_connections`` through ``sync_to_async`` (thread
    sensitive: one thread per process) before every message — every pushed frame and
    heartbeat of every socket queued there, which capped a Daphne process at about forty
    actions a second with its CPU half idle. These consumers touch the database only in
    ``loop_db.in_pool``, which gives its connection back itself, or on the loop's own
    connections (``loop_db.connection``), so that step has nothing to do.
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
