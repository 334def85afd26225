"""A casual match nobody is at any more stops: its AI players do not play on alone.

At a casual table — not rated, and scheduled by no organiser (a league's fixture, a tournament's
pairing: their results matter, so their AI players play them to the end) — the match stops
without a result (``stopping.do_stop``, as an organiser's ``stewarding.abandon`` stops one):

- **when the last person leaves for good** (``stop_if_everyone_left``, in the transaction of
  ``standins.control``'s ``leave``): no seat is held by a person any more (``Seat.holder_id``:
  every seat is an AI's, empty, or left);
- **when nobody has been there for a while** (``stop_if_due``, at an AI seat's turn in the
  worker, ``deadlines.ai_decide``): every person's seat is played by their stand-in (away, asked
  or left: ``models.only_stand_ins``) and no page of a seated person has been open
  (``games.live.away``'s pages) for ``wait_seconds()``. A person whose page is open keeps the
  match going while their stand-in plays; a page of theirs coming back starts the wait again.

Since when nobody has been there is kept in Redis beside the table's pages (``since_key``), read
and written by one Lua call (``SINCE``) per AI turn, and only at a table where only stand-ins
play, which the worker knows from the seats it holds already: a person's own move, and an AI's
turn at a table where a person plays, never touch it. The key names the seating it was measured
at (the table's ``revision``, which every hand-over bumps), so a person who came back ("I'm
back") and went away again is waited for anew, whether or not an AI turn saw them meanwhile. Its
TTL outlives the wait (stand-ins play every few seconds): a key left behind expires.

Redis only says when to look. The stop is made under the match's row lock, the writer's truth:
for the AI turn's moment only (its token, DESIGN.md rule 3), at the seating the wait was measured
at, with only stand-ins still playing. An "I'm back", a move or another worker's stop that got
the lock first wins; a page opening in the instant between the Lua call and the lock loses, as
an action reaching the row after its deadline does.

May import: ``stopping``, ``games.live`` (the pages' key, the Redis client), ``games.organisers``,
the models. ``standins`` and ``deadlines`` call it; it imports neither.
"""

from __future__ import annotations

import logging
import math
import time
from functools import cache
from typing import Literal

import redis
from django.conf import settings
from django.db import transaction
from redis.commands.core import Script

from games import organisers
from games.live import away, redis_store
from games.models import Match, Seat, Table, only_stand_ins
from games.play import stopping

log = logging.getLogger(__name__)

#: How long (seconds) the key outlives the wait after each AI turn that reads it: a wait the
#: worker stopped counting (no AI turn that long: a worker down) starts again.
SPARE_SECONDS = 600

#: KEYS: the table's pages (``away.pages_key``), ``since_key``. ARGV: now, the seating (the
#: table's revision), the key's TTL, then the numbers of the seats whose person holds them.
#: Returns when nobody was first found there at this seating (now, the first time), or nil while
#: a page of a seated person counts as there (then the key goes: the wait starts again).
SINCE = """
local seated = {}
for i = 4, #ARGV do seated[ARGV[i]] = true end
for _, m in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. ARGV[1], '+inf')) do
  if seated[string.match(m, '^%d+')] then
    redis.call('DEL', KEYS[2])
    return false
  end
end
local value = redis.call('GET', KEYS[2])
if value then
  local seating, since = string.match(value, '^(%d+)|(.+)$')
  if seating == ARGV[2] then
    redis.call('EXPIRE', KEYS[2], ARGV[3])
    return since
  end
end
redis.call('SET', KEYS[2], ARGV[2] .. '|' .. ARGV[1], 'EX', ARGV[3])
return ARGV[1]
"""


def wait_seconds() -> float:
    """How long (seconds) stand-ins play on at a casual table nobody is at before its match
    stops (``GAMES_UNATTENDED_STOP_SECONDS``, default 300; 0 or less: they play to the end)."""
    return float(settings.GAMES_UNATTENDED_STOP_SECONDS)


def since_key(table_id: int) -> str:
    """The Redis key of since when nobody has been at table ``table_id``: ``"<revision>|<time>"``
    (the seating it was measured at, and a ``time.time()``)."""
    return redis_store.key("unattended-since", table_id)


Reason = Literal["left", "unattended"]


def stop_if_everyone_left(match: Match) -> bool:
    """A person has just left ``match``'s table for good (their seat saved as left): at a
    casual table where nobody holds a seat any more, stop the match. Returns whether it stopped
    it; then every page is told (the caller makes no seating change of its own).

    Precondition: the caller holds the match's row lock with its table's (``standins.control``),
    under which seats change hands; the match is not over."""
    table = match.table
    if table.rated:
        return False
    seats = list(Seat.objects.filter(table_id=table.pk))
    if any(seat.holder_id is not None for seat in seats) or organisers.is_scheduled(table.pk):
        return False
    stopping.do_stop(table, match)
    _log(match, "left", None)
    return True


def stop_if_due(match: Match, seats: list[Seat], token: int) -> bool:
    """An AI seat's turn at the moment ``token`` of ``match`` (read without a lock, with its
    table; ``seats`` as at its table's revision): stop the match instead of playing when nobody
    has been at its casual table for ``wait_seconds()``. Returns whether it stopped it.

    Costs nothing unless only stand-ins play at a table that is not rated; then one Redis call
    (Redis away: logged, and the turn is played); once the wait is over, the organisers' check
    (one statement each) and the stop under the row lock."""
    wait = wait_seconds()
    table = match.table
    if wait <= 0 or table.rated or not only_stand_ins(seats):
        return False
    nobody_for = _nobody_for(table.pk, table.revision, seats, wait)
    if nobody_for is None or nobody_for < wait or organisers.is_scheduled(table.pk):
        return False
    return _stop(match.pk, token, table.revision, nobody_for)


@cache
def _since_script(client: redis.Redis) -> Script:
    """``SINCE`` as a script of ``client`` (``EVALSHA``: its text is sent once per server)."""
    return client.register_script(SINCE)


def _nobody_for(table_id: int, revision: int, seats: list[Seat], wait: float) -> float | None:
    """Seconds nobody has been at the table at seating ``revision``: since the first AI turn
    that found no page of a seated person (among ``seats``) open. None while one is open (the
    wait starts again), or when Redis cannot tell."""
    seated = [seat.number for seat in seats if seat.holder_id is not None]
    now = time.time()
    try:
        since = _since_script(redis_store.client())(
            keys=[away.pages_key(table_id), since_key(table_id)],
            args=[now, revision, math.ceil(wait) + SPARE_SECONDS, *seated],
        )
    except redis.RedisError:
        log.warning("unattended: Redis unavailable", exc_info=True)
        return None
    return None if since is None else now - float(since)


def _stop(match_id: int, token: int, revision: int, nobody_for: float) -> bool:
    """Stop the match under its row lock if it is still at the moment ``token``, its table
    still playing at seating ``revision`` with only stand-ins. Returns whether it stopped."""
    with transaction.atomic():
        match = (
            Match.objects.select_for_update().select_related("table").filter(pk=match_id).first()
        )
        if (
            match is None
            or match.deadline_token != token
            or match.table.revision != revision
            or match.table.status != Table.Status.PLAYING
            or not only_stand_ins(Seat.objects.filter(table_id=match.table_id))
        ):
            return False
        stopping.do_stop(match.table, match)
    _log(match, "unattended", nobody_for)
    return True


def _log(match: Match, reason: Reason, nobody_for: float | None) -> None:
    """One ``game.stopped`` line: the match, its version, why, and (``unattended``) for how
    many seconds nobody had been there."""
    log.info(
        "game.stopped",
        extra={
            "match": match.pk,
            "version": match.version,
            "reason": reason,
            "nobody_for": None if nobody_for is None else round(nobody_for, 1),
        },
    )
