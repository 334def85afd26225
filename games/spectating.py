"""What spectators see and how many are watching.

Delay: a table's ``spectator_delay`` (N plays) shows spectators the table N moves or more back,
rebuilt from the move log (``games.replay``), never the live state, and moving at the pace the
moves were made (``games.delay`` keeps that view); seated players always see the live table.
The delay ends when the spectators' view reaches the end of a finished match.

Presence: each spectator socket is a member of a Redis sorted set per table, scored by when it
expires, and so is each person watching (``person_of``: a signed-in user, else a session,
else the anonymous id table.js keeps in a cookie), so three tabs of one person count once. A
socket renews itself on connect and on every heartbeat from the page (table.js,
``HEARTBEAT_SECONDS``); a socket whose Daphne process died without a goodbye drops out once its
score passes, and its person with it unless another of their tabs still renews. Redis is
shared by every Daphne process, so the count is the whole site's. Pages see the count through
``games.push.publish_spectator_count``, at most a few times a second.
"""

from __future__ import annotations

import hashlib
import logging
import re
import time
from functools import cache

import redis

from games import delay, redis_store, replay, services, socket_limits
from games.engine.state import State
from games.models import Match, Table

log = logging.getLogger(__name__)

#: The page says it is still there this often (table.js), and is forgotten after ``TTL``.
HEARTBEAT_SECONDS = 5
TTL_SECONDS = 30


# --- delay --------------------------------------------------------------------------------------


def delay_for(table: Table, match: Match | None, seat: int | None) -> int:
    """How many moves behind this viewer sees the table: 0 for a seat (or no match), else
    how far the spectators' view (``games.delay``) is behind the live match."""
    return delay.delay_for(table, match, seat)


def visible_state(table: Table, match: Match, seat: int | None) -> State:
    """The state this viewer's page is rendered from (its view is then projected for its seat).

    A spectator of a delayed table gets the state its view shows (``games.delay``) from the
    log. If the log does not replay (a bug), the spectator sees the deal rather than the live
    table.
    """
    behind = delay_for(table, match, seat)
    if behind == 0:
        return services.load_state(match)
    try:
        return replay.state_at(match, match.version - behind)
    except replay.ReplayError:
        log.exception("match %s: the move log does not replay", match.pk)
        return replay.initial_state(match)


# --- presence -----------------------------------------------------------------------------------


def _redis() -> redis.Redis:
    return redis_store.client()


def _key(table_id: int) -> str:
    """The table's spectator sockets: members ``"<person> <socket id>"``, scored by expiry."""
    return redis_store.key("spectators", table_id)


def _people_key(table_id: int) -> str:
    """The people watching the table (``person``), scored by their last socket's expiry."""
    return redis_store.key("watchers", table_id)


#: The cookie table.js sets to a random id, so an anonymous visitor's tabs count once.
WATCHER_COOKIE = "club414_watcher"
_WATCHER_ID = re.compile(r"[A-Za-z0-9_-]{16,64}")


def person_of(scope: dict, socket_id: str) -> str:
    """Who a socket belongs to, for the count: ``u:<user id>`` when signed in, else a digest of
    the session key (``s:…``, never the key itself), else of table.js's ``WATCHER_COOKIE``
    (``a:…``), else the socket alone (``c:<socket id>``: nothing tells its tabs apart)."""
    user = scope.get("user")
    if user is not None and user.is_authenticated:
        return f"u:{user.pk}"
    key = socket_limits.session_key(scope)
    if key:
        return "s:" + hashlib.sha256(key.encode()).hexdigest()[:32]
    watcher = (scope.get("cookies") or {}).get(WATCHER_COOKIE, "")
    if _WATCHER_ID.fullmatch(watcher):
        return "a:" + hashlib.sha256(watcher.encode()).hexdigest()[:32]
    return f"c:{socket_id}"


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
def _leave_script(client: redis.Redis):
    return client.register_script(_LEAVE)


def join(table_id: int, socket_id: str, person: str | None = None) -> bool:
    """Count (or renew) a spectator socket of ``person`` (``person_of``; None: the socket is
    its own person) for ``TTL_SECONDS``. Returns whether the count grew (a new person)."""
    person = person or f"c:{socket_id}"
    now = time.time()
    try:
        pipe = _redis().pipeline()  # MULTI: the count sees both entries or neither
        pipe.zadd(_key(table_id), {f"{person} {socket_id}": now + TTL_SECONDS})
        pipe.expire(_key(table_id), TTL_SECONDS * 2)
        pipe.zremrangebyscore(_people_key(table_id), "-inf", now)
        pipe.zadd(_people_key(table_id), {person: now + TTL_SECONDS})
        pipe.expire(_people_key(table_id), TTL_SECONDS * 2)
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
            keys=[_key(table_id), _people_key(table_id)],
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
        pipe.zremrangebyscore(_people_key(table_id), "-inf", time.time())
        pipe.zcard(_people_key(table_id))
        return int(pipe.execute()[1])
    except redis.RedisError:
        log.warning("spectator presence unavailable", exc_info=True)
        return None


def counts(table_ids) -> dict[int, int]:
    """People watching per table for many tables at once (one round trip); {} without Redis."""
    ids = list(table_ids)
    if not ids:
        return {}
    try:
        pipe = _redis().pipeline()
        now = time.time()
        for table_id in ids:
            pipe.zremrangebyscore(_people_key(table_id), "-inf", now)
            pipe.zcard(_people_key(table_id))
        answers = pipe.execute()
    except redis.RedisError:
        log.warning("spectator presence unavailable", exc_info=True)
        return {}
    return {table_id: int(n) for table_id, n in zip(ids, answers[1::2], strict=True)}
