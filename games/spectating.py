"""What spectators see and how many are watching.

Delay: a table's ``spectator_delay`` (N plays) shows spectators the table N moves or more back,
rebuilt from the move log (``games.replay``), never the live state, and moving at the pace the
moves were made (``games.delay`` keeps that view); seated players always see the live table.
The delay ends when the spectators' view reaches the end of a finished match.

Presence: each spectator socket is a member of a Redis sorted set per table, scored by when it
expires. A socket renews itself on connect and on every heartbeat from the page (table.js,
``HEARTBEAT_SECONDS``); a socket whose Daphne process died without a goodbye drops out once its
score passes. Redis is shared by every Daphne process, so the count is the whole site's. Pages
see the count through ``games.push.publish_spectator_count``, at most a few times a second.
"""

from __future__ import annotations

import logging
import time

import redis

from games import delay, redis_store, replay, services
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
    return redis_store.key("spectators", table_id)


def join(table_id: int, socket_id: str) -> bool:
    """Count (or renew) a spectator socket. Returns whether it is new."""
    try:
        added = _redis().zadd(_key(table_id), {socket_id: time.time() + TTL_SECONDS})
        _redis().expire(_key(table_id), TTL_SECONDS * 2)
    except redis.RedisError:
        log.warning("spectator presence unavailable", exc_info=True)
        return False
    return bool(added)


def leave(table_id: int, socket_id: str) -> bool:
    """Stop counting a socket. Returns whether it was counted."""
    try:
        return bool(_redis().zrem(_key(table_id), socket_id))
    except redis.RedisError:
        log.warning("spectator presence unavailable", exc_info=True)
        return False


def count(table_id: int) -> int | None:
    """Spectator sockets open on the table now (None when Redis cannot be asked)."""
    try:
        pipe = _redis().pipeline()
        pipe.zremrangebyscore(_key(table_id), "-inf", time.time())
        pipe.zcard(_key(table_id))
        return int(pipe.execute()[1])
    except redis.RedisError:
        log.warning("spectator presence unavailable", exc_info=True)
        return None


def counts(table_ids) -> dict[int, int]:
    """Spectators per table for many tables at once (one round trip); {} without Redis."""
    ids = list(table_ids)
    if not ids:
        return {}
    try:
        pipe = _redis().pipeline()
        now = time.time()
        for table_id in ids:
            pipe.zremrangebyscore(_key(table_id), "-inf", now)
            pipe.zcard(_key(table_id))
        answers = pipe.execute()
    except redis.RedisError:
        log.warning("spectator presence unavailable", exc_info=True)
        return {}
    return {table_id: int(n) for table_id, n in zip(ids, answers[1::2], strict=True)}
