"""Whose page went away: a seat whose player's page has been gone a few seconds shows it
("disconnected") to everyone at the table, and no longer once a page of theirs is back.

Kept per table in Redis, with the seats' sockets (``games.sockets``) as its only writers:

- ``pages_key``: a sorted set of the seats' open pages, ``"<seat> <channel>"`` scored by the
  time until which that page counts as there. A page opening counts for ``SILENT_SECONDS``; its
  process's renewal (``games.sockets.renewals``) keeps it at its last heartbeat plus
  ``SILENT_SECONDS``, so a page that stops its heartbeats (a phone asleep, the network lost)
  lapses on its own; a page closing counts ``GAMES_AWAY_GRACE_SECONDS`` more, so a reload (close,
  then open within a second or two) never shows it.
- ``shown_key``: the seats shown away, as ``"<seq>|<seat>,<seat>"``, and a sequence number that
  grows with each change (a page keeps the newest: ``TableConsumer.table_away``).

``CHECK`` (one Lua call, atomic) takes the lapsed pages out: a seat with a lapsed page and no
other one open is away, a seat with a page open is not. Only a change is pushed, once per table
(``table_messages.publish_away``), never per socket: a second tab of the same player opening
or closing, a reload, changes nothing. Only seats that a person plays themselves show it
(``displayed``): never an AI, a bot, an empty seat, nor a seat whose stand-in already says
that its player is away (``stand_in``). A seat whose page never opened is not shown away: what
is shown is a page that went away.

The sign is the seat region's declared input ``away`` (``context.TableContext``), read with the
audiences of a push (``audiences.live_and_away``: the same Redis round trip), so a seat's row
pushed by a move keeps it; a change alone sends the table-wide group one message of small
out-of-band swaps (``#away-<seat>``), rendered once per language, not a frame (no version).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable
from functools import cache
from typing import Any, cast

import redis
from django.conf import settings
from redis.commands.core import Script

from games.live import redis_store
from games.models import Seat

log = logging.getLogger(__name__)

#: A page not heard from this long (seconds: three heartbeats) is gone.
SILENT_SECONDS = 15.0
#: A table's pages and the seats it shows away are kept this long after their last write (s).
KEEP_SECONDS = 24 * 3600


def grace_seconds() -> float:
    """How long a closed page still counts as there (``GAMES_AWAY_GRACE_SECONDS``)."""
    return float(settings.GAMES_AWAY_GRACE_SECONDS)


def pages_key(table_id: int) -> str:
    return redis_store.key("away-pages", table_id)


def shown_key(table_id: int) -> str:
    return redis_store.key("away-shown", table_id)


def member(seat: int, channel: str) -> str:
    return f"{seat} {channel}"


#: KEYS: pages, shown. ARGV: now, then (optionally) a page opening: its member and its score.
#: Returns {seq, seats before, seats now} (comma-separated seat numbers).
CHECK = """
local pages, shown = KEYS[1], KEYS[2]
local now = tonumber(ARGV[1])
if ARGV[2] then
  redis.call('ZADD', pages, ARGV[3], ARGV[2])
end
local lapsed = redis.call('ZRANGEBYSCORE', pages, '-inf', now)
if #lapsed > 0 then
  redis.call('ZREMRANGEBYSCORE', pages, '-inf', now)
end
local open = {}
for _, m in ipairs(redis.call('ZRANGE', pages, 0, -1)) do
  open[string.match(m, '^%d+')] = true
end
local value = redis.call('GET', shown) or '0|'
local seq, before = string.match(value, '^(%d+)|(.*)$')
local away = {}
for s in string.gmatch(before, '%d+') do away[s] = true end
for _, m in ipairs(lapsed) do away[string.match(m, '^%d+')] = true end
local seats = {}
for s, _ in pairs(away) do
  if not open[s] then table.insert(seats, tonumber(s)) end
end
table.sort(seats)
local now_away = table.concat(seats, ',')
if ARGV[2] then
  redis.call('EXPIRE', pages, KEEP)
end
if now_away ~= before then
  seq = tostring(tonumber(seq) + 1)
  redis.call('SET', shown, seq .. '|' .. now_away, 'EX', KEEP)
end
return {seq, before, now_away}
""".replace("KEEP", str(KEEP_SECONDS))


def parse_seats(text: str | bytes | None) -> frozenset[int]:
    if isinstance(text, bytes):
        text = text.decode()
    return frozenset(int(s) for s in (text or "").split(",") if s)


def parse_shown(value: bytes | None) -> tuple[int, frozenset[int]]:
    """``shown_key``'s value as (seq, seats away); (0, none) when unset."""
    if not value:
        return 0, frozenset()
    seq, _, seats = value.decode().partition("|")
    return int(seq), parse_seats(seats)


#: A change the check found: (seq, seats away before, seats away now); None if none.
type Change = tuple[int, frozenset[int], frozenset[int]] | None


def change_of(answer: list[Any]) -> Change:
    """The check's answer as a ``Change``."""
    seq, before, now = answer
    old, new = parse_seats(before), parse_seats(now)
    return (int(seq), old, new) if old != new else None


@cache
def _check_script(client: redis.Redis) -> Script:
    """``CHECK`` as a script of ``client`` (``EVALSHA``: its text is sent once per server)."""
    return client.register_script(CHECK)


def check(table_id: int, opened: tuple[int, str] | None = None) -> Change:
    """Update what the table shows (a page of seat ``opened[0]`` opening, channel
    ``opened[1]``, counted first). Redis away: no change."""
    now = time.time()
    args: list[str | float] = [now]
    if opened is not None:
        args += [member(*opened), now + SILENT_SECONDS]
    try:
        script = _check_script(redis_store.client())
        answer = script(keys=[pages_key(table_id), shown_key(table_id)], args=args)
    except redis.RedisError:
        log.warning("away: Redis unavailable", exc_info=True)
        return None
    return change_of(cast(list[Any], answer))


def closed(table_id: int, seat: int, channel: str) -> None:
    """A page of ``seat`` closed: it counts ``grace_seconds()`` more (never longer than it
    already did: a silent page is not given more)."""
    try:
        redis_store.client().zadd(
            pages_key(table_id),
            {member(seat, channel): time.time() + grace_seconds()},
            xx=True,
            lt=True,
        )
    except redis.RedisError:
        log.warning("away: Redis unavailable", exc_info=True)


def shown_away(table_id: int) -> frozenset[int]:
    """The seats the table shows away now (Redis away: none)."""
    try:
        value = redis_store.client().get(shown_key(table_id))
    except redis.RedisError:
        log.warning("away: Redis unavailable", exc_info=True)
        return frozenset()
    return parse_shown(cast(bytes | None, value))[1]


def displayed(seats: Iterable[Seat], away: frozenset[int] | None) -> tuple[int, ...]:
    """The seats that show the sign: away, and played by their own person (no AI, no bot, no
    stand-in: a stand-in's marker already says its player is away)."""
    if not away:
        return ()
    return tuple(
        s.number
        for s in seats
        if s.number in away
        and s.user_id is not None
        and not s.ai_policy
        and not s.stand_in
        and not (s.user is not None and s.user.is_bot)
    )
