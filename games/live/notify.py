"""Sending to channel groups from synchronous code: the writer, the worker, views (rule 2).

The table's pages get their frames through ``games.live.push`` (rendered per audience); what goes to
``table_group`` — every page of one table, seats and spectators alike — is only what is public:
the seating (who sits where) and the spectator count. Never a card.

With the site's layer, sync code sends from its own thread (``SharedDecodeLayer.publish_many``:
a redis-py sync pipeline, the layer's own message bytes and group channels). With another layer
(a test's in-memory one, a Sentinel host) it sends on one event loop per process kept for it
(``_publisher_loop``): asgiref's ``async_to_sync`` outside a server would make a new loop, and
with it a new Redis connection, for every push.
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Iterable
from typing import Any

from channels.layers import get_channel_layer
from redis.exceptions import ConnectionError as RedisConnectionError

from config.channel_layer import SharedDecodeLayer
from games.live import lobby_cache

LOBBY_GROUP = "lobby"
#: How long a writer waits for its pushes to reach Redis (seconds) before giving up on them.
SEND_TIMEOUT_SECONDS = 5.0

_loop: asyncio.AbstractEventLoop | None = None
_loop_pid = 0
_loop_lock = threading.Lock()


def table_group(table_id: int) -> str:
    """The group of every page open on one table (seats and spectators): public facts only."""
    return f"table-{table_id}"


def _publisher_loop() -> asyncio.AbstractEventLoop:
    """This process's sending loop, started on first use (and again in a forked child)."""
    global _loop, _loop_pid
    with _loop_lock:
        if _loop is None or _loop_pid != os.getpid():
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="club414-publisher", daemon=True).start()
            _loop, _loop_pid = loop, os.getpid()
        return _loop


def send_many(messages: Iterable[tuple[str, dict[str, Any]]]) -> None:
    """Send ``(group, message)`` pairs in order, waiting until the channel layer took them.

    With the site's layer (``config.channel_layer.SharedDecodeLayer``) they go out in one Redis
    round trip (a pipeline per shard), not one each, from the calling thread; the call returns
    once Redis answered, so the messages of one call reach every subscriber before those of a
    call made after it returned (a table's pushes keep their order). A send that fails with a
    Redis connection error is sent once more: after a Redis restart the first command on this
    process's old connection fails (redis-py then drops it) and the second goes out on a new
    one, so a restart costs no push. Raises TimeoutError (redis's, or the builtin one on the
    publisher loop's path) if Redis does not answer within ``SEND_TIMEOUT_SECONDS``,
    redis.ConnectionError if the second try fails too (Redis is down).
    """
    layer = get_channel_layer()
    messages = list(messages)
    if layer is None or not messages:
        return
    # By class, not getattr: channels-redis's layers answer an unknown attribute from the
    # running loop's layer, and raise outside a loop. (hasattr: bench/load.py --app-rev's own
    # process runs this module beside another revision's layer, without publish_many.)
    if (
        isinstance(layer, SharedDecodeLayer)
        and hasattr(type(layer), "publish_many")
        and layer.can_publish_sync()
    ):
        layer.publish_many(messages)
        return
    send_all = getattr(layer, "group_send_many", None)
    if send_all is None:  # another layer (a test's in-memory one): one send per message

        async def send_all(pairs: list[tuple[str, dict[str, Any]]]) -> None:
            for group, message in pairs:
                try:
                    await layer.group_send(group, message)
                except RedisConnectionError:
                    await layer.group_send(group, message)

    future = asyncio.run_coroutine_threadsafe(send_all(messages), _publisher_loop())
    future.result(timeout=SEND_TIMEOUT_SECONDS)


def _send(group: str, message: dict[str, Any]) -> None:
    send_many([(group, message)])


def lobby_changed(user_ids: Iterable[int | None] = ()) -> None:
    """A table opened, filled, started, ended a round or ended: lobby pages refresh their public
    lists, and the sockets of the players in ``user_ids`` also refresh their own "my tables".

    ``user_ids``: the table's host and everyone seated before or after the change (someone who
    just stood up too); None (an AI seat) is skipped. Ids are not secret: they only say whose
    list to re-read. Each Daphne process coalesces what arrives within
    ``lobby_hub.WINDOW_SECONDS`` into one refresh (``games.sockets.lobby_hub``).
    """
    lobby_cache.invalidate()  # before the push: the refreshes it triggers read afresh
    users = sorted({int(user_id) for user_id in user_ids if user_id is not None})
    _send(LOBBY_GROUP, {"type": "lobby.changed", "users": users})
