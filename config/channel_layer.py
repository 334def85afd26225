"""The channel layer (``settings.CHANNEL_LAYERS``): channels-redis's pub/sub layer, decoding a
message once per process however many of the process's sockets it reaches.

channels-redis hands the raw bytes of a group message to the queue of every local member and
decodes them in each member's ``receive``: a frame sent to an audience of 500 spectators on one
process was unpacked 500 times (msgpack, ~17 µs for a 4 KB frame on the bench box: 8 ms of the
event loop per push). Here the first member's decode is kept, by the identity of the bytes
object, for the others: they get the same dict. So a message's consumers must not change it —
none does (``games.sockets``: a handler reads its event).

``group_send_many`` publishes several group messages in one Redis round trip per shard (a
pipeline), where ``group_send`` costs one round trip each: a writer's push is five or six
messages. ``publish_many`` is the same from synchronous code, on the calling thread (a redis-py
sync client per shard): the writer's push (``games.live.notify.send_many``) no longer hops to an
event loop of its own to be sent (issue 19: 178–321 µs a push there, ~70–106 µs here).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

import redis
from channels_redis.pubsub import RedisPubSubChannelLayer, RedisPubSubLoopLayer
from channels_redis.utils import _consistent_hash
from redis.exceptions import ConnectionError as RedisConnectionError

#: Messages kept decoded: a push reaches its members in the order they were queued, so the
#: members of one message drain it long before this many later messages arrive.
KEPT = 64
#: How long a synchronous send waits for Redis (seconds: connecting, then each answer).
SYNC_TIMEOUT_SECONDS = 5.0


class SharedDecodeLayer(RedisPubSubChannelLayer):  # type: ignore[misc]  # channels-redis: untyped
    """``RedisPubSubChannelLayer`` whose ``deserialize`` decodes one bytes object once."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._decoded: OrderedDict[int, tuple[bytes, dict[str, Any]]] = OrderedDict()
        # The names and shards every loop's layer computes (a loop layer never run: its
        # ``_get_group_channel_name`` and ``_get_shard`` only), for ``publish_many``.
        self._naming = RedisPubSubLoopLayer(*self._args, **self._kwargs, channel_layer=self)
        self._sync_clients: dict[int, redis.Redis | None] = {}
        self._sync_lock = threading.Lock()

    def deserialize(self, message: bytes) -> dict[str, Any]:
        """The message's dict: decoded now, or kept from another member's decode of these very
        bytes (compared by identity: an equal message published twice is decoded twice)."""
        kept = self._decoded.get(id(message))
        if kept is not None and kept[0] is message:
            return kept[1]
        decoded: dict[str, Any] = super().deserialize(message)
        self._decoded[id(message)] = (message, decoded)
        if len(self._decoded) > KEPT:
            self._decoded.popitem(last=False)
        return decoded

    async def group_send_many(self, messages: Sequence[tuple[str, dict[str, Any]]]) -> None:
        """Publish ``(group, message)`` pairs, in order, one pipeline per shard.

        Each shard's messages keep their order (one connection, one pipeline; with one Redis,
        the usual setup, that is every message). A shard's pipeline that fails with a Redis
        connection error is sent once more: after a Redis restart redis-py drops the old
        connection on the failure and the second try goes out on a new one. A second failure
        is raised, and the shards after it are not sent.
        """
        loop_layer = self._get_layer()
        batches: dict[Any, list[tuple[str, bytes]]] = {}  # shard → its messages, first seen first
        for group, message in messages:
            channel = loop_layer._get_group_channel_name(group)
            batches.setdefault(loop_layer._get_shard(channel), []).append(
                (channel, self.serialize(message))
            )
        for shard, batch in batches.items():
            try:
                await _publish(shard, batch)
            except RedisConnectionError:
                await _publish(shard, batch)

    def can_publish_sync(self) -> bool:
        """Whether ``publish_many`` can reach every shard (a shard given by a Sentinel
        cannot: its messages are sent by ``group_send_many`` on a loop instead)."""
        return all(self._sync_client(n) is not None for n in range(len(self._naming._shards)))

    def publish_many(self, messages: Sequence[tuple[str, dict[str, Any]]]) -> None:
        """``group_send_many`` from synchronous code, on the calling thread: the same bytes
        (``serialize``) to the same group channels (the loop layer's names and shards), in
        order, one pipeline per shard, and returns once Redis answered (so a later call's
        messages reach every subscriber after these). Thread-safe: each call takes a connection
        of the shard's pool. A shard's pipeline that fails with a Redis connection error is sent
        once more (a restarted Redis: the second try goes out on a new connection); a second
        failure is raised and the shards after it are not sent. A Redis that does not answer
        within ``SYNC_TIMEOUT_SECONDS`` raises redis's TimeoutError."""
        naming = self._naming
        shards = len(naming._shards)
        batches: dict[int, list[tuple[str, bytes]]] = {}  # shard → its messages, first seen first
        for group, message in messages:
            channel = naming._get_group_channel_name(group)
            batches.setdefault(_consistent_hash(channel, shards), []).append(
                (channel, self.serialize(message))
            )
        for index, batch in batches.items():
            client = self._sync_client(index)
            if client is None:
                raise RuntimeError("publish_many: a shard without a sync client (Sentinel)")
            try:
                _publish_sync(client, batch)
            except RedisConnectionError:
                _publish_sync(client, batch)

    def _sync_client(self, index: int) -> redis.Redis | None:
        """Shard ``index``'s sync client (its own connection pool), made on first use; None
        for a Sentinel host."""
        try:
            return self._sync_clients[index]
        except KeyError:
            pass
        with self._sync_lock:
            if index not in self._sync_clients:
                self._sync_clients[index] = _sync_client_for(self._naming._shards[index].host)
            return self._sync_clients[index]


def _sync_client_for(host: dict[str, Any]) -> redis.Redis | None:
    """A redis-py sync client for one of channels-redis's host entries (as
    ``channels_redis.utils.create_pool`` reads them), None for a Sentinel entry."""
    host = {
        "socket_timeout": SYNC_TIMEOUT_SECONDS,
        "socket_connect_timeout": SYNC_TIMEOUT_SECONDS,
        **host,
    }
    if "master_name" in host:
        return None
    if "address" in host:
        pool = redis.ConnectionPool.from_url(host.pop("address"), **host)
    else:
        pool = redis.ConnectionPool(**host)
    return redis.Redis(connection_pool=pool)


def _publish_sync(client: redis.Redis, batch: list[tuple[str, bytes]]) -> None:
    """One shard's messages in one pipeline (no MULTI), waiting for Redis's answer."""
    pipe = client.pipeline(transaction=False)
    for channel, data in batch:
        pipe.publish(channel, data)
    pipe.execute()


async def _publish(shard: Any, batch: list[tuple[str, bytes]]) -> None:
    """One shard's messages in one pipeline (no MULTI: pub/sub needs no transaction), under the
    shard's lock as its own ``publish`` takes it (channels_redis.pubsub)."""
    async with shard._lock:
        shard._ensure_redis()
        pipe = shard._redis.pipeline(transaction=False)
        for channel, data in batch:
            pipe.publish(channel, data)
        await pipe.execute()
