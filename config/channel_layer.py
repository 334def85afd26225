"""The channel layer (``settings.CHANNEL_LAYERS``): channels-redis's pub/sub layer, decoding a
message once per process however many of the process's sockets it reaches.

channels-redis hands the raw bytes of a group message to the queue of every local member and
decodes them in each member's ``receive``: a frame sent to an audience of 500 spectators on one
process was unpacked 500 times (msgpack, ~17 µs for a 4 KB frame on the bench box: 8 ms of the
event loop per push). Here the first member's decode is kept, by the identity of the bytes
object, for the others: they get the same dict. So a message's consumers must not change it —
none does (``games.sockets``: a handler reads its event).
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from channels_redis.pubsub import RedisPubSubChannelLayer

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
