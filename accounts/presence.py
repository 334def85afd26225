"""Who is online and at which tables: the friends list's "online, at table X".

Online: the player has a socket open anywhere on the site (a table or the lobby), read from the
socket caps' per-user set (``games.sockets.socket_limits``: socket ids scored by expiry, renewed
every 10 s by each Daphne process). Where: each signed-in table socket adds its table to a sorted
set of the player's, scored by expiry, on connect, renewed by its process to the page's last
heartbeat (``games.sockets.renewals``),
and takes it out when it closes. Nothing here says whether the viewer may watch the table:
``accounts.friends`` filters by ``games.access``.
"""

from __future__ import annotations

import logging
import time

import redis

from games.live import redis_store

log = logging.getLogger(__name__)

#: A table is forgotten this long (seconds) after its socket's last heartbeat.
TTL_SECONDS = 30


def where_key(user_id: int) -> str:
    """The tables a player has open: table ids scored by when they expire."""
    return redis_store.key("presence", user_id)


def _sockets_key(user_id: int) -> str:
    return redis_store.key("sockets", "user", user_id)


def at_table(user_id: int, table_id: int) -> None:
    """Count ``user_id`` as at ``table_id`` for the next ``TTL_SECONDS``."""
    try:
        pipe = redis_store.client().pipeline(transaction=False)
        pipe.zadd(where_key(user_id), {str(table_id): time.time() + TTL_SECONDS})
        pipe.expire(where_key(user_id), TTL_SECONDS * 2)
        pipe.execute()
    except redis.RedisError:
        log.warning("presence unavailable", exc_info=True)


def left_table(user_id: int, table_id: int) -> None:
    """A socket of ``user_id`` at ``table_id`` closed (another of theirs renews it again)."""
    try:
        redis_store.client().zrem(where_key(user_id), str(table_id))
    except redis.RedisError:
        log.warning("presence unavailable", exc_info=True)


def of(user_ids: list[int]) -> dict[int, tuple[bool, list[int]]]:
    """For each user id: (online, the ids of the tables they have open), in one round trip.
    Unknown (Redis away): everyone offline."""
    if not user_ids:
        return {}
    now = time.time()
    try:
        pipe = redis_store.client().pipeline(transaction=False)
        for user_id in user_ids:
            pipe.zcount(_sockets_key(user_id), now, "+inf")
            pipe.zrangebyscore(where_key(user_id), now, "+inf")
        answers = pipe.execute()
    except redis.RedisError:
        log.warning("presence unavailable", exc_info=True)
        return {user_id: (False, []) for user_id in user_ids}
    result = {}
    for i, user_id in enumerate(user_ids):
        count, tables = answers[2 * i], answers[2 * i + 1]
        ids = sorted(int(t) for t in tables)
        result[user_id] = (bool(count) or bool(ids), ids)
    return result
