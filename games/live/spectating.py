"""How many are watching a table: the spectators' presence.

What they see is ``games.live.visibility``'s (the delay included).

Presence: each spectator socket is a member of a Redis sorted set per table, scored by when it
expires, and so is each person watching (``games.sockets.scope.person_of``: a signed-in user, else a
session, else the anonymous id table.js keeps in a cookie), so three tabs of one person count once.
A socket joins on connect; its Daphne process renews all of its sockets together, each to its
page's last heartbeat (table.js, ``HEARTBEAT_SECONDS``) plus ``TTL_SECONDS``
(``games.sockets.renewals``); a socket whose Daphne process died without a goodbye drops out once
its score passes, and its person with it unless another of their tabs still renews. Redis is
shared by every Daphne process, so the count is the whole site's. Pages see the count through
``games.live.table_messages.publish_spectator_count``, at most a few times a second.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable
from functools import cache

import redis
from redis.commands.core import Script

from games.live import redis_store

log = logging.getLogger(__name__)

#: The page says it is still there this often (table.js), and is forgotten after ``TTL``.
HEARTBEAT_SECONDS = 5
TTL_SECONDS = 30


# --- presence -----------------------------------------------------------------------------------


def _redis() -> redis.Redis:
    return redis_store.client()


def sockets_key(table_id: int) -> str:
    """The table's spectator sockets: members ``"<person> <socket id>"``, scored by expiry."""
    return redis_store.key("spectators", table_id)


def people_key(table_id: int) -> str:
    """The people watching the table (``person``), scored by their last socket's expiry."""
    return redis_store.key("watchers", table_id)


# Drop the socket; then the person too, unless another live socket of theirs still watches.
# Returns 1 if the count changed (the person left), 0 otherwise.
_LEAVE = """
if redis.call('ZREM', KEYS[1], ARGV[1]) == 0 then return 0 end
local prefix = ARGV[2] .. ' '
for _, member in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], ARGV[3], '+inf')) do
  if string.sub(member, 1, #prefix) == prefix then return 0 end
end
return redis.call('ZREM', KEYS[2], ARGV[2])
"""


@cache
def _leave_script(client: redis.Redis) -> Script:
    return client.register_script(_LEAVE)


def join(table_id: int, socket_id: str, person: str | None = None) -> bool:
    """Count (or renew) a spectator socket of ``person`` (``person_of``; None: the socket is
    its own person) for ``TTL_SECONDS``. Returns whether the count grew (a new person)."""
    person = person or f"c:{socket_id}"
    now = time.time()
    try:
        pipe = _redis().pipeline()  # MULTI: the count sees both entries or neither
        pipe.zadd(sockets_key(table_id), {f"{person} {socket_id}": now + TTL_SECONDS})
        pipe.expire(sockets_key(table_id), TTL_SECONDS * 2)
        pipe.zremrangebyscore(people_key(table_id), "-inf", now)
        pipe.zadd(people_key(table_id), {person: now + TTL_SECONDS})
        pipe.expire(people_key(table_id), TTL_SECONDS * 2)
        added = pipe.execute()[3]
    except redis.RedisError:
        log.warning("spectator presence unavailable", exc_info=True)
        return False
    return bool(added)


def leave(table_id: int, socket_id: str, person: str | None = None) -> bool:
    """Stop counting a socket of ``person`` (as given to ``join``). Returns whether the count
    shrank: False while another tab of the same person still watches."""
    person = person or f"c:{socket_id}"
    client = _redis()
    try:
        left = _leave_script(client)(
            keys=[sockets_key(table_id), people_key(table_id)],
            args=[f"{person} {socket_id}", person, time.time()],
            client=client,
        )
    except redis.RedisError:
        log.warning("spectator presence unavailable", exc_info=True)
        return False
    return bool(left)


def count(table_id: int) -> int | None:
    """People watching the table now — a person with three tabs open counts once (None when
    Redis cannot be asked)."""
    try:
        pipe = _redis().pipeline()
        pipe.zremrangebyscore(people_key(table_id), "-inf", time.time())
        pipe.zcard(people_key(table_id))
        return int(pipe.execute()[1])
    except redis.RedisError:
        log.warning("spectator presence unavailable", exc_info=True)
        return None


def counts(table_ids: Iterable[int]) -> dict[int, int]:
    """People watching per table for many tables at once (one round trip); {} without Redis."""
    ids = list(table_ids)
    if not ids:
        return {}
    try:
        pipe = _redis().pipeline()
        now = time.time()
        for table_id in ids:
            pipe.zremrangebyscore(people_key(table_id), "-inf", now)
            pipe.zcard(people_key(table_id))
        answers = pipe.execute()
    except redis.RedisError:
        log.warning("spectator presence unavailable", exc_info=True)
        return {}
    return {table_id: int(n) for table_id, n in zip(ids, answers[1::2], strict=True)}
