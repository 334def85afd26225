"""The audience registry (``games.live.audiences``) on the real Redis: who a push renders for."""

from __future__ import annotations

import time

from games.live import audiences, redis_store
from games.live.audiences import Audience

TABLE = 990_001


def test_live_lists_the_registered_audiences_and_skips_the_expired() -> None:
    client = redis_store.client()
    key = audiences.registry_key(TABLE)
    client.delete(key, audiences.latest_key(TABLE), audiences.latest_key(TABLE, True))
    try:
        audiences.register(TABLE, Audience(2, "es"))
        audiences.register(TABLE, Audience(None, "en"))
        client.zadd(key, {"s1.vi": time.time() - 1})  # its last heartbeat is too old
        assert audiences.live(TABLE, (4, 30, 29)) == [Audience(2, "es"), Audience(None, "en")]
        assert audiences.latest(TABLE, spectator=False) == (4, 30)
        assert audiences.latest(TABLE, spectator=True) == (4, 29)
        audiences.register(TABLE, Audience(0, "en"))  # a connect drops the expired entries
        assert client.zscore(key, "s1.vi") is None
        assert audiences.live(TABLE) == [Audience(0, "en"), Audience(2, "es"), Audience(None, "en")]
    finally:
        client.delete(key, audiences.latest_key(TABLE), audiences.latest_key(TABLE, True))
