"""The channel layer decodes a group message once per process (issue 19, forwarding): every
local member of the group gets the same dict, on the real Redis pub/sub."""

from __future__ import annotations

import asyncio
import threading

import pytest
from django.conf import settings

from config.channel_layer import SharedDecodeLayer

pytestmark = pytest.mark.asyncio


async def test_a_group_message_is_decoded_once_for_all_its_local_members() -> None:
    layer = SharedDecodeLayer(hosts=[settings.REDIS_URL], prefix=f"{settings.REDIS_NAMESPACE}t-cl")
    decodes = []
    serializer = layer._serializer
    original = serializer.deserialize

    def counted(message: bytes) -> dict:
        decodes.append(message)
        return original(message)

    serializer.deserialize = counted
    members = [await layer.new_channel() for _ in range(5)]
    for channel in members:
        await layer.group_add("audience", channel)
    frame = {"type": "table.frame", "text": "<div>" + "x" * 4000 + "</div>", "v": 2, "r": 1}
    try:
        await layer.group_send("audience", frame)
        received = [await asyncio.wait_for(layer.receive(c), 10) for c in members]
        assert all(message == frame for message in received)
        assert len(decodes) == 1 and all(message is received[0] for message in received)
        await layer.group_send("audience", frame)  # equal, but another message: decoded again
        again = [await asyncio.wait_for(layer.receive(c), 10) for c in members]
        assert len(decodes) == 2 and again[0] is not received[0] and again[0] == frame
    finally:
        for channel in members:
            await layer.group_discard("audience", channel)
        await layer.flush()


async def test_group_send_many_publishes_in_order_in_one_round_trip() -> None:
    """A push's messages (several groups) reach their members in the order sent, all from one
    pipeline: the layer's connection executes one pipeline and no single ``PUBLISH``."""
    layer = SharedDecodeLayer(hosts=[settings.REDIS_URL], prefix=f"{settings.REDIS_NAMESPACE}t-cm")
    listener = await layer.new_channel()
    groups = ["seat-1", "seat-2", "spect-en", "bot"]
    for group in groups:
        await layer.group_add(group, listener)
    pairs = [(group, {"type": "table.frame", "n": n}) for n, group in enumerate(groups * 2)]
    shard = layer._get_layer()._shards[0]
    shard._ensure_redis()
    trips = []
    original_pipeline, original_publish = shard._redis.pipeline, shard._redis.publish
    shard._redis.pipeline = lambda **kw: trips.append("pipeline") or original_pipeline(**kw)
    shard._redis.publish = lambda *a, **kw: trips.append("publish") or original_publish(*a, **kw)
    try:
        await layer.group_send_many(pairs)
        received = [await asyncio.wait_for(layer.receive(listener), 10) for _ in pairs]
        assert [message["n"] for message in received] == list(range(len(pairs)))
        assert trips == ["pipeline"]
    finally:
        shard._redis.pipeline, shard._redis.publish = original_pipeline, original_publish
        for group in groups:
            await layer.group_discard(group, listener)
        await layer.flush()


async def test_publish_many_sends_from_the_calling_thread_what_group_send_many_sends() -> None:
    """The sync path (``publish_many``, the writer's push from its own thread): the same messages
    reach the same members, in order, from one pipeline of the shard's sync client (no
    ``PUBLISH`` alone), and the members decode them exactly as the loop's sends."""
    layer = SharedDecodeLayer(hosts=[settings.REDIS_URL], prefix=f"{settings.REDIS_NAMESPACE}t-cs")
    listener = await layer.new_channel()
    groups = ["seat-1", "seat-2", "spect-en", "bot"]
    for group in groups:
        await layer.group_add(group, listener)
    pairs = [
        (group, {"type": "table.frame", "n": n, "text": "é" * n})
        for n, group in enumerate(groups * 2)
    ]
    assert layer.can_publish_sync()
    client = layer._sync_client(0)
    trips = []
    original_pipeline, original_publish = client.pipeline, client.publish
    client.pipeline = lambda **kw: trips.append("pipeline") or original_pipeline(**kw)
    client.publish = lambda *a, **kw: trips.append("publish") or original_publish(*a, **kw)
    try:
        threads = set()

        def publish() -> None:
            threads.add(threading.get_ident())
            layer.publish_many(pairs)

        await asyncio.to_thread(publish)
        received = [await asyncio.wait_for(layer.receive(listener), 10) for _ in pairs]
        assert received == [message for _, message in pairs]
        assert trips == ["pipeline"] and threading.get_ident() not in threads
        await layer.group_send_many(pairs)  # the loop's path: the very same messages
        again = [await asyncio.wait_for(layer.receive(listener), 10) for _ in pairs]
        assert again == received
    finally:
        client.pipeline, client.publish = original_pipeline, original_publish
        for group in groups:
            await layer.group_discard(group, listener)
        await layer.flush()
