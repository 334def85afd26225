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
messages (``games.live.notify.send_many``).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from channels_redis.pubsub import RedisPubSubChannelLayer
from redis.exceptions import ConnectionError as RedisConnectionError

#: Messages kept decoded: a push reaches its members in the order they were queued, so the
#: members of one message drain it long before this many later messages arrive.
KEPT = 64


class SharedDecodeLayer(RedisPubSubChannelLayer):  # type: ignore[misc]  # channels-redis: untyped
    """``RedisPubSubChannelLayer`` whose ``deserialize`` decodes one bytes object once."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._decoded: OrderedDict[int, tuple[bytes, dict[str, Any]]] = OrderedDict()

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


async def _publish(shard: Any, batch: list[tuple[str, bytes]]) -> None:
    """One shard's messages in one pipeline (no MULTI: pub/sub needs no transaction), under the
    shard's lock as its own ``publish`` takes it (channels_redis.pubsub)."""
    async with shard._lock:
        shard._ensure_redis()
        pipe = shard._redis.pipeline(transaction=False)
        for channel, data in batch:
            pipe.publish(channel, data)
        await pipe.execute()
