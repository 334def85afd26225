"""A Daphne process's table sockets kept present in Redis together: one pipeline per interval.

A table socket is present three ways, each a Redis sorted set scored by expiry: its audience in
the table's registry (``games.live.audiences``: the writer renders for it), a spectator's place in
the count (``games.live.spectating``) and a signed-in player's "at table X"
(``accounts.presence``). They used to be renewed by each page's heartbeat, every 5 s per
socket: a pool thread and two to three Redis round trips each, for a message that changes
nothing. Now a heartbeat only notes the time in the socket (``heard_at``), and each event loop —
one per Daphne process — renews all of its sockets in one pipeline every ``INTERVAL_SECONDS``
(``Renewals``, an asyncio task started by the first socket and ending with the last), with
``redis.asyncio``: no thread.

The expiry is what it was: an entry's score is the time the page was last heard from plus the
entry's TTL, so a page that stops sending heartbeats lapses as before, and a process that dies
stops renewing and its sockets lapse within the TTL. Scores only rise (``ZADD GT``): another
process's fresher renewal of the same person or audience is never lowered. A socket that closes
is taken out at once by its consumer (``spectating.leave``, ``presence.left_table``) and here.

A seat's page is also kept in its table's pages (``games.live.away``): renewed while heard from,
brought down to its lapse once silent, and the same pipeline runs each table's away check — a
page that went silent (a phone asleep, the network lost) shows its seat "disconnected", a
silent page heard again clears it — pushing a change once per table
(``table_messages.publish_away``).
A page that closes is checked once its grace has run (``page_closed``, ``check_away_soon``).

The same pipeline reads each table's latest (revision, version) pushed to seats and to
spectators, and a socket still behind it gets a snapshot if it is still behind a second later
(``TableConsumer.behind``): a push lost by the layer is repaired within one interval, as the
heartbeat did.
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from collections import defaultdict
from typing import Protocol

import redis
import redis.asyncio
from django.conf import settings

from accounts import presence
from games.live import audiences, away, spectating, table_messages
from games.live.audiences import Audience
from games.sockets.pool import in_pool

log = logging.getLogger(__name__)

#: The spectator count is refreshed at most this often per table and process (seconds).
COUNT_REFRESH_SECONDS = 0.5

_count_refreshes: dict[tuple[int, int], asyncio.Task[None]] = {}
#: The refresh of each table past its wait, reading and sending the count.
_count_publishing: dict[tuple[int, int], asyncio.Task[None]] = {}


def refresh_count_soon(table_id: int) -> None:
    """Refresh the table's spectator count in ``COUNT_REFRESH_SECONDS``, once for every join and
    leave in this process meanwhile (a crowd arriving costs a few renders, not one each).

    A refresh sends after the one before it has sent: the next can be scheduled while one is
    still rendering, and sent first (a busy pool), its newer count then overwritten by the
    older one on every page."""
    key = (id(asyncio.get_running_loop()), table_id)
    if key in _count_refreshes:
        return

    async def later() -> None:
        await asyncio.sleep(COUNT_REFRESH_SECONDS)
        this = _count_refreshes.pop(key)  # joins from now on schedule the next refresh
        before = _count_publishing.get(key)
        _count_publishing[key] = this
        try:
            if before is not None:
                await asyncio.wait([before])  # (its failure is its own, logged there)
            await in_pool(table_messages.publish_spectator_count)(table_id)
        finally:
            if _count_publishing.get(key) is this:
                del _count_publishing[key]

    _count_refreshes[key] = asyncio.ensure_future(later())


def page_opened(table_id: int, seat: int, channel: str) -> None:
    """A page of ``seat`` opened (in the socket pool): its seat is no longer away."""
    table_messages.publish_away(table_id, away.check(table_id, (seat, channel)))


async def page_closed(table_id: int, seat: int, channel: str) -> None:
    """A page of ``seat`` closed or left the seat: it counts as there for the grace more, then
    the table checks whether the seat is away (``games.live.away``)."""
    await in_pool(away.closed)(table_id, seat, channel)
    check_away_soon(table_id, away.grace_seconds() + AWAY_CHECK_MARGIN_SECONDS)


#: A closed page's away check runs this long after its grace (seconds): its score has lapsed.
AWAY_CHECK_MARGIN_SECONDS = 0.1
#: The away checks waiting for a closed page's grace, by (event loop, table).
_away_checks: dict[tuple[int, int], asyncio.Task[None]] = {}


def check_away_soon(table_id: int, delay: float) -> None:
    """Check the table's seats shown away (``games.live.away``) in ``delay`` seconds — a page
    of a seat closed, and its grace runs out then — once for every close in this process
    meanwhile; push a change to every page of the table."""
    key = (id(asyncio.get_running_loop()), table_id)
    if key in _away_checks:
        return

    async def later() -> None:
        await asyncio.sleep(delay)
        del _away_checks[key]  # closes from now on schedule the next check
        await in_pool(check_away)(table_id)

    _away_checks[key] = asyncio.ensure_future(later())


def check_away(table_id: int) -> None:
    """Check the table's seats shown away now, and push a change (in the socket pool)."""
    table_messages.publish_away(table_id, away.check(table_id))


def pending_count_refreshes() -> list[asyncio.Task[None]]:
    """The spectator-count refreshes of this event loop not yet done, waiting or sending (a
    test waits for them before it counts a push's cost, or before its barrier's marker)."""
    loop = id(asyncio.get_running_loop())
    waiting = [task for (on, _), task in _count_refreshes.items() if on == loop]
    return waiting + [task for (on, _), task in _count_publishing.items() if on == loop]


#: How often (seconds) a process renews its sockets' presence and checks them against the
#: tables' latest pushes: the page's heartbeat interval.
INTERVAL_SECONDS = float(spectating.HEARTBEAT_SECONDS)


class Renewable(Protocol):
    """What a table socket shows this module (``games.sockets.consumers.TableConsumer``)."""

    table_id: int
    channel_name: str
    person: str  # games.sockets.scope.person_of
    user_id: int | None
    counted: bool  # in the table's spectator count
    heard_at: float  # wall-clock time the page last showed it is there (connect, heartbeat)

    @property
    def audience(self) -> Audience | None: ...

    def behind(self, latest: tuple[int, int]) -> None:
        """The table's last push to this socket's kind (seats, spectators) was ``latest``."""


def _parse_latest(value: bytes | None) -> tuple[int, int] | None:
    if value is None:
        return None
    revision, version = (int(x) for x in value.decode().split(":"))
    return revision, version


class Renewals:
    """The table sockets of one event loop, renewed in one pipeline per ``INTERVAL_SECONDS``
    while any is open. ``current()`` is the loop's; ``add`` on connect, ``discard`` on close."""

    _by_loop: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Renewals] = (
        weakref.WeakKeyDictionary()
    )

    def __init__(self) -> None:
        # Weak: a consumer that died without its disconnect is not kept (nor kept present).
        self.sockets: weakref.WeakSet[Renewable] = weakref.WeakSet()
        self.task: asyncio.Task[None] | None = None
        self._client: redis.asyncio.Redis | None = None

    @classmethod
    def current(cls) -> Renewals:
        """The renewals of the running event loop (created on first use)."""
        loop = asyncio.get_running_loop()
        renewals = cls._by_loop.get(loop)
        if renewals is None:
            renewals = cls._by_loop[loop] = cls()
        return renewals

    def add(self, socket: Renewable) -> None:
        """Keep ``socket`` present from now on (its first entries are written by its connect)."""
        self.sockets.add(socket)
        if self.task is None or self.task.done():
            self.task = asyncio.ensure_future(self._run())

    def discard(self, socket: Renewable) -> None:
        """Stop renewing ``socket`` (it closed)."""
        self.sockets.discard(socket)

    def client(self) -> redis.asyncio.Redis:
        """This loop's asyncio client of ``settings.REDIS_URL`` (its connections are the loop's)."""
        if self._client is None:
            self._client = redis.asyncio.Redis.from_url(
                settings.REDIS_URL, socket_timeout=2, socket_connect_timeout=2
            )
        return self._client

    async def _run(self) -> None:
        while self.sockets:
            await asyncio.sleep(INTERVAL_SECONDS)
            try:
                await self.flush()
            except redis.RedisError:
                log.warning("presence not renewed: Redis unavailable", exc_info=True)
            except Exception:  # the next interval tries again; the loop must not end
                log.exception("presence not renewed")

    async def flush(self, now: float | None = None) -> int:
        """Renew every socket heard from within its entries' TTLs, and tell each socket the
        table's latest push, in one pipeline. Returns the number of sockets renewed."""
        now = time.time() if now is None else now
        sockets = [s for s in list(self.sockets) if s.audience is not None]
        if not sockets:
            return 0
        registry: dict[int, dict[str, float]] = defaultdict(dict)
        places: dict[int, dict[str, float]] = defaultdict(dict)
        people: dict[int, dict[str, float]] = defaultdict(dict)
        where: dict[int, dict[str, float]] = defaultdict(dict)
        # Seats' pages (``away``): heard from, renewed; silent, brought down to their lapse.
        pages: dict[int, dict[str, float]] = defaultdict(dict)
        silent: dict[int, dict[str, float]] = defaultdict(dict)
        renewed = 0
        for socket in sockets:
            audience = socket.audience
            assert audience is not None  # (filtered above)
            heard, table = socket.heard_at, socket.table_id
            if audience.seat is not None:
                until = heard + away.SILENT_SECONDS
                page = away.member(audience.seat, socket.channel_name)
                (pages if until > now else silent)[table][page] = until
            if heard + audiences.TTL_SECONDS <= now:
                continue  # the page has been silent too long: let every entry lapse
            renewed += 1
            _keep_max(registry[table], audience.code, heard + audiences.TTL_SECONDS)
            if heard + spectating.TTL_SECONDS <= now:
                continue
            if socket.counted:
                person = socket.person
                places[table][f"{person} {socket.channel_name}"] = heard + spectating.TTL_SECONDS
                _keep_max(people[table], person, heard + spectating.TTL_SECONDS)
            if socket.user_id is not None:
                _keep_max(where[socket.user_id], str(table), heard + presence.TTL_SECONDS)
        tables = sorted({s.table_id for s in sockets})
        pipe = self.client().pipeline(transaction=False)
        for table in tables:
            pipe.get(audiences.latest_key(table))
            pipe.get(audiences.latest_key(table, spectator=True))
        for key_of, entries, ttl in (
            (audiences.registry_key, registry, audiences.TTL_SECONDS),
            (spectating.sockets_key, places, spectating.TTL_SECONDS),
            (presence.where_key, where, presence.TTL_SECONDS),
        ):
            for owner, members in entries.items():
                pipe.zadd(key_of(owner), members, gt=True)
                pipe.expire(key_of(owner), ttl * 2)
        for table, members in pages.items():
            pipe.zadd(away.pages_key(table), members)
            pipe.expire(away.pages_key(table), away.KEEP_SECONDS)
        for table, members in silent.items():
            pipe.zadd(away.pages_key(table), members, xx=True, lt=True)
        checked = len(pipe)  # each table's away check: its answer's place
        for table in tables:
            pipe.eval(away.CHECK, 2, away.pages_key(table), away.shown_key(table), now)
        people_tables = list(people)
        for table in people_tables:
            key = spectating.people_key(table)
            pipe.zremrangebyscore(key, "-inf", now)
            pipe.zadd(key, people[table], gt=True)
            pipe.expire(key, spectating.TTL_SECONDS * 2)
        answers = await pipe.execute()
        self._tell_latest(sockets, tables, answers[: 2 * len(tables)])
        for table, answer in zip(tables, answers[checked : checked + len(tables)], strict=True):
            change = away.change_of(answer)
            if change is not None:
                asyncio.ensure_future(in_pool(table_messages.publish_away)(table, change))
        self._recount(people_tables, answers[len(answers) - 3 * len(people_tables) :])
        return renewed

    @staticmethod
    def _tell_latest(sockets: list[Renewable], tables: list[int], values: list[object]) -> None:
        latest = {}
        for i, table in enumerate(tables):
            for spectator in (False, True):
                value = values[2 * i + spectator]
                latest[table, spectator] = _parse_latest(
                    value if isinstance(value, bytes) else None
                )
        for socket in sockets:
            audience = socket.audience
            seen = latest.get((socket.table_id, audience is None or audience.seat is None))
            if seen is not None:
                socket.behind(seen)

    @staticmethod
    def _recount(tables: list[int], answers: list[object]) -> None:
        # A person added back (their entry had lapsed: Redis restarted, a long pause) changes
        # the count, which the pages must hear of.
        for i, table in enumerate(tables):
            if answers[3 * i + 1]:
                refresh_count_soon(table)


def _keep_max(members: dict[str, float], member: str, score: float) -> None:
    if score > members.get(member, 0.0):
        members[member] = score
