"""What a WebSocket may take: how many sockets a client holds open, how fast and how big its
messages are — and closing a socket that breaks a limit cleanly, with a code the page reads.

Caps. Every socket (table and lobby) counts against its client's address (one IPv4 address,
one IPv6 /64), its session and its signed-in user; a spectator's socket also against its table.
Past a cap the socket is accepted and at once closed with ``TOO_MANY_SOCKETS`` (4429) or, for
the table's spectator cap, ``TABLE_FULL`` (4430): a refusal before the accept reaches the
browser as a bare 1006, and Daphne does not pass a close reason on, so the code says which.
table.js shows the sentence for each. A seated player is never refused for the spectator cap
(a seat's socket does not claim a spectator's place; places are taken for what the socket is at
its connect, so a spectator who sits down keeps one until it closes, and a player who stands up
takes none). The caps are settings (``0``: no cap):
``GAMES_MAX_SOCKETS_PER_IP``, ``GAMES_MAX_SOCKETS_PER_SESSION``, ``GAMES_MAX_SOCKETS_PER_USER``,
``GAMES_MAX_SPECTATORS_PER_TABLE``.

The counts are in Redis, shared by every Daphne process: one sorted set per address, session,
user and table, of the sockets open there, each scored by when it expires. Admission is one Lua
call — drop the expired, check every cap, add the socket to all its sets — so two processes
cannot both take a last place. Each process renews its own sockets' entries every
``RENEW_SECONDS`` (``_Renewer``); a process that dies without a goodbye has its entries drop
out ``TTL_SECONDS`` later. Without Redis, sockets are admitted and a warning is logged: the
caps guard against crowds; they are no reason to lock every player out.

The client's address is ``config.client_address.client_address``: behind nginx, the
``X-Real-IP`` it sets; never one the client picks.

Messages. At most ``MAX_MESSAGE_BYTES`` each and ``MESSAGES_PER_SECOND`` on average
(``Bucket``), the page's heartbeats apart (``HEARTBEATS_PER_SECOND``, a bucket of their own: a
burst after a stalled connection never takes an action's place); a page that goes on sending
past either rate for ``FLOOD_MESSAGES`` messages is closed with ``FLOODING`` (4008). Under
Daphne a longer frame never reaches the application: ``config.daphne_frames`` (called by
``config.asgi``) makes Daphne's WebSocket protocol (autobahn) refuse it from its header — before
reading its payload — with a 1009 close frame, where it used to drop the TCP connection (a 1006)
over 1 MB and hand the application anything smaller. A message sent in many small frames reaches
the consumers up to Daphne's 1 MB (then 1009 too), and they close it with ``TOO_BIG`` (4009)
before parsing it: an application may close with 1000 or 3000–4999 only (autobahn raises for
1008 or 1009). A send racing a close is dropped (``guard_send``), never an "Exception inside
application".
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
import uuid
import weakref
from collections.abc import Awaitable, Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import redis
from asgiref.typing import ASGISendCallable, ASGISendEvent
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from redis.commands.core import Script

from config.client_address import client_address
from games.live import redis_store
from games.sockets import scope as scope_module

log = logging.getLogger(__name__)

#: Close codes the application sends: too many sockets for this address, session or user; the
#: table's spectator places are taken; a message over ``MAX_MESSAGE_BYTES``; a flood.
TOO_MANY_SOCKETS = 4429
TABLE_FULL = 4430
TOO_BIG = 4009
FLOODING = 4008
#: The code Daphne's protocol closes a message over ``MAX_MESSAGE_BYTES`` with.
PROTOCOL_TOO_BIG = 1009

#: A message longer than this (characters of text, or bytes) closes the socket.
MAX_MESSAGE_BYTES = 4096
#: A page may send this many messages a second on average (bursts up to the same number),
#: its heartbeats apart (``HEARTBEATS_PER_SECOND``); beyond that its messages are dropped.
MESSAGES_PER_SECOND = 5
#: This many messages dropped in a row (no honest page comes near it) close the socket.
FLOOD_MESSAGES = 50
#: A page told to slow down is told again at most this often (seconds).
WARN_SECONDS = 1.0
#: A socket's entries in the counts expire this long (seconds) after their last renewal.
TTL_SECONDS = 30
#: Each process renews its open sockets' entries this often (seconds).
RENEW_SECONDS = 10

# One thread for all of this module's Redis calls: admissions, renewals and releases run in
# the order they were asked (a release never runs before a renewal that was already under way).
_THREAD = ThreadPoolExecutor(max_workers=1, thread_name_prefix="club414-limits")


# --- who is asking: config.client_address (the HTTP limits name clients the same way) ----------


def _digest(secret: str) -> str:
    """A session key stands for itself in no Redis key name: its digest does."""
    return hashlib.sha256(secret.encode()).hexdigest()[:32]


# --- caps --------------------------------------------------------------------------------------


@dataclass(eq=False)
class Claim:
    """One socket's places in the counts: ``member`` in each of ``keys`` (Redis sorted sets),
    with the cap of each (0: none) in ``caps``. ``refused`` is the close code if admission
    failed (then the socket holds no place), else None."""

    member: str
    keys: list[str] = field(default_factory=list)
    caps: list[int] = field(default_factory=list)
    table_full_index: int | None = None
    refused: int | None = None


def _claim_for(scope: Mapping[str, Any], spectator_of: int | None) -> Claim:
    claim = Claim(member=uuid.uuid4().hex)

    def add(key: str, cap: int) -> None:
        claim.keys.append(key)
        claim.caps.append(max(0, int(cap)))

    address = client_address(scope)
    if address:
        add(redis_store.key("sockets", "ip", address), settings.GAMES_MAX_SOCKETS_PER_IP)
    key = scope_module.session_key(scope)
    if key:
        add(
            redis_store.key("sockets", "session", _digest(key)),
            settings.GAMES_MAX_SOCKETS_PER_SESSION,
        )
    user = scope.get("user")
    if user is not None and user.is_authenticated:
        add(redis_store.key("sockets", "user", user.pk), settings.GAMES_MAX_SOCKETS_PER_USER)
    if spectator_of is not None:
        claim.table_full_index = len(claim.keys)
        add(
            redis_store.key("sockets", "table", spectator_of),
            settings.GAMES_MAX_SPECTATORS_PER_TABLE,
        )
    return claim


# KEYS: the socket's sets. ARGV: member, now, expiry, key lifetime (s), then each key's cap.
# Returns 0 (admitted: added to every set) or the 1-based index of the first set that is full.
_ADMIT = """
local member, now, expiry, keep = ARGV[1], tonumber(ARGV[2]), ARGV[3], tonumber(ARGV[4])
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
  local cap = tonumber(ARGV[4 + i])
  if cap > 0 and not redis.call('ZSCORE', key, member)
      and redis.call('ZCARD', key) >= cap then
    return i
  end
end
for _, key in ipairs(KEYS) do
  redis.call('ZADD', key, expiry, member)
  redis.call('EXPIRE', key, keep)
end
return 0
"""


@cache
def _admit_script(client: redis.Redis) -> Script:
    return client.register_script(_ADMIT)


def _admit(claim: Claim) -> None:
    client = redis_store.client()
    now = time.time()
    try:
        full = int(
            _admit_script(client)(
                keys=claim.keys,
                args=[claim.member, now, now + TTL_SECONDS, TTL_SECONDS * 2, *claim.caps],
                client=client,
            )
        )
    except redis.RedisError:
        log.warning("socket counts unavailable: socket admitted uncounted", exc_info=True)
        claim.keys, claim.caps = [], []
        return
    if full:
        claim.refused = TABLE_FULL if full - 1 == claim.table_full_index else TOO_MANY_SOCKETS
        claim.keys, claim.caps = [], []


def _renew(claims: list[Claim]) -> None:
    expiry = time.time() + TTL_SECONDS
    try:
        pipe = redis_store.client().pipeline(transaction=False)
        for claim in claims:
            for key in claim.keys:
                pipe.zadd(key, {claim.member: expiry})
                pipe.expire(key, TTL_SECONDS * 2)
        pipe.execute()
    except redis.RedisError:
        log.warning("socket counts unavailable: not renewed", exc_info=True)


def _release(claim: Claim) -> None:
    try:
        pipe = redis_store.client().pipeline(transaction=False)
        for key in claim.keys:
            pipe.zrem(key, claim.member)
        pipe.execute()
    except redis.RedisError:
        log.warning("socket counts unavailable: not released", exc_info=True)


def _in_thread[*Ts, R](function: Callable[[*Ts], R], *args: *Ts) -> Awaitable[R]:
    return asyncio.get_running_loop().run_in_executor(_THREAD, function, *args)


class _Renewer:
    """The claims of one event loop's sockets (a Daphne process has one loop), renewed every
    ``RENEW_SECONDS`` in one pipeline while any is open."""

    _by_loop: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Renewer] = (
        weakref.WeakKeyDictionary()
    )

    def __init__(self) -> None:
        self.claims: set[Claim] = set()
        self.task: asyncio.Task[None] | None = None

    @classmethod
    def current(cls) -> _Renewer:
        loop = asyncio.get_running_loop()
        renewer = cls._by_loop.get(loop)
        if renewer is None:
            renewer = cls._by_loop[loop] = cls()
        return renewer

    def add(self, claim: Claim) -> None:
        self.claims.add(claim)
        if self.task is None or self.task.done():
            self.task = asyncio.ensure_future(self._run())

    async def _run(self) -> None:
        while self.claims:
            await asyncio.sleep(RENEW_SECONDS)
            if self.claims:
                await _in_thread(_renew, list(self.claims))


async def admit(scope: Mapping[str, Any], spectator_of: int | None = None) -> Claim:
    """Take this socket's places (``spectator_of``: the table it watches as a spectator, None
    for a seat's or a lobby socket). Check ``claim.refused`` and, if set, ``refuse``; else
    ``release`` the claim when the socket closes."""
    claim = _claim_for(scope, spectator_of)
    if claim.keys:
        await _in_thread(_admit, claim)
    if claim.keys:
        _Renewer.current().add(claim)
    return claim


async def refuse(consumer: AsyncWebsocketConsumer, claim: Claim) -> None:
    """Accept and at once close ``consumer``'s socket with the claim's refusal code (a close
    before the accept would reach the page as 1006, without its code)."""
    log.info("socket refused", extra={"code": claim.refused, "path": consumer.scope.get("path")})
    await consumer.accept()
    await consumer.close(code=claim.refused)


async def release(claim: Claim | None) -> None:
    """Give up a socket's places (on disconnect); None or a refused claim: nothing to do."""
    if claim is None or not claim.keys:
        return
    _Renewer.current().claims.discard(claim)
    await _in_thread(_release, claim)


# --- messages ----------------------------------------------------------------------------------


#: The page's heartbeats handled a second at most (it sends one every 5 s): the rest of a burst
#: is dropped without a word, and never counts against the socket's other messages.
HEARTBEATS_PER_SECOND = 1
#: How the page's heartbeat starts (static/js/table.js: ``{"heartbeat":1,"version":…}``).
_HEARTBEAT_START = '{"heartbeat":'


def is_heartbeat(text_data: str | None) -> bool:
    """Whether a received text is the page's heartbeat, by its first bytes (before parsing: a
    message that only starts like one is still parsed as a whole, and a heartbeat is never
    submitted as an action, ``consumers._NOT``)."""
    return text_data is not None and text_data.startswith(_HEARTBEAT_START)


def too_big(text_data: str | None, bytes_data: bytes | None) -> bool:
    """Whether a received message is over ``MAX_MESSAGE_BYTES`` (checked before any parsing)."""
    return len(text_data or "") > MAX_MESSAGE_BYTES or len(bytes_data or b"") > MAX_MESSAGE_BYTES


class Bucket:
    """A token bucket for one socket's messages: ``rate`` a second, bursts up to ``rate``.

    ``take()`` says whether a message may be handled; after a refusal, ``flooding`` says the
    socket has gone on for ``FLOOD_MESSAGES`` refusals in a row, and ``warn()`` whether to tell
    the page (at most once per ``WARN_SECONDS``).
    """

    def __init__(
        self, rate: float = MESSAGES_PER_SECOND, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate = float(rate)
        self.clock = clock
        self.tokens = self.rate
        self.checked_at = clock()
        self.dropped = 0
        self.warned_at = float("-inf")

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(self.rate, self.tokens + (now - self.checked_at) * self.rate)
        self.checked_at = now
        if self.tokens < 1:
            self.dropped += 1
            return False
        self.tokens -= 1
        self.dropped = 0
        return True

    @property
    def flooding(self) -> bool:
        return self.dropped >= FLOOD_MESSAGES

    def warn(self) -> bool:
        now = self.clock()
        if now - self.warned_at < WARN_SECONDS:
            return False
        self.warned_at = now
        return True


# --- closing cleanly -----------------------------------------------------------------------------


def _closed_errors() -> tuple[type[BaseException], ...]:
    try:
        from autobahn.exception import Disconnected
    except ImportError:  # not served by Daphne
        return ()
    return (Disconnected,)


def guard_send(send: ASGISendCallable) -> ASGISendCallable:
    """``send`` (an ASGI send) that ignores a send on a connection already closing: Daphne
    raises autobahn's ``Disconnected`` for a send between autobahn's close and Daphne hearing of
    it (a 2 MB message dropped the connection while the consumer was still connecting)."""
    closed = _closed_errors()

    async def guarded(message: ASGISendEvent) -> None:
        try:
            await send(message)
        except closed:
            log.info("send on a closing socket dropped", extra={"type": message.get("type")})

    return guarded
