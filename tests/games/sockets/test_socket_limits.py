"""Socket caps, message limits and the spectator count by person (issue #9, items 3 and 8).

Real consumers (the whole ASGI application: Origin check, session auth), the real Redis channel
layer and the real Redis counts of ``games.sockets.socket_limits`` and ``games.live.spectating``. A
socket's client address is given as Daphne gives it (``scope["client"]``), with nginx's
``X-Real-IP`` header when the peer is the proxy.
"""

from __future__ import annotations

import asyncio
import functools
import json
import time

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connections
from django.test import Client

from config.asgi import application
from games.live import redis_store, spectating
from games.models import Match
from games.sockets import renewals, socket_limits
from games.sockets.scope import WATCHER_COOKIE, person_of
from tests.games.live.test_spectating import shown_count
from tests.games.sockets.settle import settled
from tests.games.sockets.test_consumers import cookie_for, frame, setup_match

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

PROXY = "127.0.0.1"  # nginx, as Daphne sees it


@pytest.fixture(autouse=True)
async def _close_db_connections():
    yield
    await sync_to_async(connections.close_all)()


def scope_of(peer: str | None, headers: dict[str, str] | None = None) -> dict:
    return {
        "client": [peer, 40000] if peer else None,
        "headers": [(k.encode(), v.encode()) for k, v in (headers or {}).items()],
    }


async def open_socket(
    path: str, *, address: str | None = None, cookie: bytes | None = None, peer: str = PROXY
) -> WebsocketCommunicator:
    """A socket through nginx from ``address`` (None: no X-Real-IP), accepted by the server."""
    headers = [(b"origin", b"http://localhost")]
    if address:
        headers.append((b"x-real-ip", address.encode()))
    if cookie:
        headers.append((b"cookie", cookie))
    ws = WebsocketCommunicator(application, path, headers=headers)
    # Daphne's peer address; the application reads the scope once it starts, below.
    ws.scope["client"] = [peer, 40000]
    connected, _ = await ws.connect(timeout=10)
    assert connected
    return ws


async def close_code(ws: WebsocketCommunicator) -> int | None:
    """The code the server closed ``ws`` with, skipping any frame it sent before; None if it
    sent something else and stays open."""
    while True:
        try:
            output = await ws.receive_output(timeout=5)
        except TimeoutError:
            return None
        if output["type"] == "websocket.close":
            return output.get("code")


async def refused(ws: WebsocketCommunicator) -> int | None:
    """The close code of a socket closed right after its accept, None if it got a frame."""
    output = await ws.receive_output(timeout=10)
    return output.get("code") if output["type"] == "websocket.close" else None


def table_path(match: Match) -> str:
    return f"/ws/table/{match.table_id}/"


# --- the client's address ----------------------------------------------------------------------


async def test_the_client_address_is_believed_from_the_proxy_only(settings):
    """nginx's X-Real-IP (else the last X-Forwarded-For entry, the one nginx appended) names
    the client when the peer is a trusted proxy; from any other peer the headers are ignored,
    so a client cannot choose its address. IPv6 counts per /64; a bad header is no address."""
    settings.GAMES_TRUSTED_PROXIES = ["127.0.0.1", "::1"]
    address = socket_limits.client_address
    assert address(scope_of(PROXY, {"x-real-ip": "203.0.113.7"})) == "203.0.113.7"
    assert address(scope_of("::1", {"x-forwarded-for": "6.6.6.6, 203.0.113.9"})) == "203.0.113.9"
    assert address(scope_of("198.51.100.1", {"x-real-ip": "203.0.113.7"})) == "198.51.100.1"
    assert address(scope_of("198.51.100.1", {"x-forwarded-for": "6.6.6.6"})) == "198.51.100.1"
    assert address(scope_of(PROXY, {"x-real-ip": "not an address"})) == "127.0.0.1"
    assert address(scope_of("2001:db8:1:2:aa:bb:cc:dd")) == "2001:db8:1:2::/64"
    assert address(scope_of("::ffff:203.0.113.7")) == "203.0.113.7"
    assert address(scope_of(None)) is None


# --- caps ----------------------------------------------------------------------------------------


async def test_sockets_past_the_address_cap_are_refused_with_4429(make_user, settings):
    """With three sockets per address, a fourth from the same address — table or lobby — is
    accepted and closed with 4429; another address is not affected; a closed socket frees its
    place at once."""
    settings.GAMES_MAX_SOCKETS_PER_IP = 3
    match, _users = await sync_to_async(setup_match)(make_user)
    first = [await open_socket(table_path(match), address="203.0.113.7") for _ in range(2)]
    first.append(await open_socket("/ws/lobby/", address="203.0.113.7"))
    for ws in first[:2]:
        assert 'id="hand"' in await frame(ws)
    extra_table = await open_socket(table_path(match), address="203.0.113.7")
    assert await refused(extra_table) == socket_limits.TOO_MANY_SOCKETS
    extra_lobby = await open_socket("/ws/lobby/", address="203.0.113.7")
    assert await refused(extra_lobby) == socket_limits.TOO_MANY_SOCKETS
    other = await open_socket(table_path(match), address="198.51.100.20")
    assert 'id="hand"' in await frame(other)

    await first[0].disconnect()
    again = await open_socket(table_path(match), address="203.0.113.7")
    assert 'id="hand"' in await frame(again)
    for ws in (*first[1:], other, again):
        await ws.disconnect()


async def test_a_session_and_a_user_have_their_own_caps(make_user, settings):
    """Two sockets per session: ana's third tab in one browser is refused (4429), her other
    browser (another session) is not. Three per user: across her sessions, the fourth is."""
    settings.GAMES_MAX_SOCKETS_PER_SESSION = 2
    settings.GAMES_MAX_SOCKETS_PER_USER = 3
    match, users = await sync_to_async(setup_match)(make_user)
    phone, laptop = [await sync_to_async(cookie_for)(users["ana"]) for _ in range(2)]
    tabs = [await open_socket(table_path(match), cookie=phone) for _ in range(2)]
    assert await refused(await open_socket(table_path(match), cookie=phone)) == 4429
    tabs.append(await open_socket("/ws/lobby/", cookie=laptop))
    assert await refused(await open_socket(table_path(match), cookie=laptop)) == 4429
    # Another person from the same browser profile is another user and another session.
    bo = await open_socket(table_path(match), cookie=await sync_to_async(cookie_for)(users["bo"]))
    assert 'id="hand"' in await frame(bo)
    for ws in (*tabs, bo):
        await ws.disconnect()


async def test_a_full_table_refuses_spectators_but_never_a_seat(make_user, settings):
    """Two spectator places: the third spectator is closed with 4430 (table full); the seated
    players still connect, and their sockets take no spectator's place."""
    settings.GAMES_MAX_SPECTATORS_PER_TABLE = 2
    match, users = await sync_to_async(setup_match)(make_user)
    watcher = await open_socket(
        table_path(match), cookie=await sync_to_async(cookie_for)(users["watcher"])
    )
    anonymous = await open_socket(table_path(match), address="198.51.100.30")
    assert await refused(await open_socket(table_path(match))) == socket_limits.TABLE_FULL
    seats = [
        await open_socket(table_path(match), cookie=await sync_to_async(cookie_for)(users[name]))
        for name in ("ana", "bo")
    ]
    for ws in seats:
        assert 'id="hand"' in await frame(ws)
    await anonymous.disconnect()
    place = await open_socket(table_path(match))
    assert 'id="hand"' in await frame(place)
    for ws in (watcher, *seats, place):
        await ws.disconnect()


async def test_places_expire_when_their_process_dies_and_are_renewed_while_open(
    make_user, settings, monkeypatch
):
    """A process that died without a goodbye leaves entries that stop counting once their
    score passes; a live socket's entry is renewed by its process, so it never does."""
    settings.GAMES_MAX_SOCKETS_PER_IP = 1
    monkeypatch.setattr(socket_limits, "RENEW_SECONDS", 0.2)
    match, _users = await sync_to_async(setup_match)(make_user)
    key = await sync_to_async(redis_store.key)("sockets", "ip", "203.0.113.44")
    client = redis_store.client()
    await sync_to_async(client.zadd)(key, {"dead-process-socket": time.time() - 1})
    live = await open_socket(table_path(match), address="203.0.113.44")
    assert 'id="hand"' in await frame(live)
    ((member, first),) = await sync_to_async(client.zrange)(key, 0, -1, withscores=True)
    assert member != b"dead-process-socket"
    renewed = first
    deadline = time.monotonic() + 30  # renewed every 0.2 s: polled, not slept on
    while renewed <= first and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
        ((_, renewed),) = await sync_to_async(client.zrange)(key, 0, -1, withscores=True)
    assert renewed > first
    assert await refused(await open_socket(table_path(match), address="203.0.113.44")) == 4429
    await live.disconnect()
    assert await sync_to_async(client.zcard)(key) == 0


async def test_without_redis_sockets_are_admitted(settings):
    """The caps are a shield, not a lock: with Redis away a socket is admitted uncounted."""
    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    settings.GAMES_MAX_SOCKETS_PER_IP = 1
    redis_store._client.cache_clear()
    try:
        claims = [
            await socket_limits.admit(scope_of("203.0.113.8"), spectator_of=1) for _ in range(3)
        ]
    finally:
        redis_store._client.cache_clear()
    assert [claim.refused for claim in claims] == [None, None, None]
    assert all(claim.keys == [] for claim in claims)


# --- the spectator count counts people -----------------------------------------------------------


async def test_one_person_with_three_tabs_counts_once(make_user, monkeypatch):
    """A signed-in spectator's three tabs count one; an anonymous visitor's two tabs (table.js's
    watcher cookie) count one; the count drops only when a person's last tab closes."""
    # The count's debounce (0.5 s) is not what is tested here: 50 ms, each refresh sooner.
    monkeypatch.setattr(renewals, "COUNT_REFRESH_SECONDS", 0.05)
    match, users = await sync_to_async(setup_match)(make_user)
    ana = await open_socket(table_path(match), cookie=await sync_to_async(cookie_for)(users["ana"]))
    await frame(ana)
    watcher_cookie = await sync_to_async(cookie_for)(users["watcher"])
    tabs = [await open_socket(table_path(match), cookie=watcher_cookie) for _ in range(3)]
    visitor = b"club414_watcher=3f2a9c1e-5b7d-4e8f-9a6b-1c2d3e4f5a6b"
    tabs += [await open_socket(table_path(match), cookie=visitor) for _ in range(2)]
    for ws in tabs:
        await frame(ws)
    assert await sync_to_async(spectating.count)(match.table_id) == 2
    assert await last_count(ana, match.table_id) == 2

    for ws in tabs[:2] + tabs[3:4]:
        await ws.disconnect()
    assert await sync_to_async(spectating.count)(match.table_id) == 2
    await tabs[2].disconnect()
    assert await sync_to_async(spectating.count)(match.table_id) == 1
    assert await last_count(ana, match.table_id) == 1
    await tabs[4].disconnect()
    assert await sync_to_async(spectating.count)(match.table_id) == 0
    await ana.disconnect()


async def last_count(ws: WebsocketCommunicator, table_id: int) -> int:
    """The spectator count last pushed to ``ws`` once every debounced count refresh has been
    pushed and received (``settle.settled``: a barrier, not a quiet second)."""
    (texts,) = await settled(table_id, [ws])
    shown = [shown_count(text) for text in texts if 'id="spectators"' in text]
    assert shown, "no count was pushed"
    return shown[-1]


async def test_a_person_is_counted_by_user_session_or_cookie():
    """Who a socket belongs to, strongest first; session keys and cookies never appear as such."""
    anonymous = type("Anonymous", (), {"is_authenticated": False})()
    session = type("Session", (), {"session_key": "k" * 32})()
    cookie = {WATCHER_COOKIE: "A" * 20}
    assert (
        person_of({"user": type("U", (), {"is_authenticated": True, "pk": 7})()}, "sock") == "u:7"
    )
    by_session = person_of({"user": anonymous, "session": session, "cookies": cookie}, "sock")
    assert by_session.startswith("s:") and "k" * 32 not in by_session
    by_cookie = person_of({"user": anonymous, "cookies": cookie}, "sock")
    assert by_cookie.startswith("a:") and "A" * 20 not in by_cookie
    assert person_of({"cookies": {WATCHER_COOKIE: "<script>"}}, "sock") == "c:sock"


# --- messages ------------------------------------------------------------------------------------


async def test_a_seconds_messages_are_its_rate_heartbeats_apart(make_user, monkeypatch):
    """Five messages that are not heartbeats (resyncs) use up the second's messages: the play
    sent right after is dropped (with one notice) and changes nothing; a second later the same
    play is taken. Heartbeats sent in between take nothing from that rate (their own bucket:
    tests/games/sockets/test_consumers.py). The socket's buckets read a clock the test moves on
    (``Bucket``'s clock), not a second slept."""
    skipped = [0.0]
    monkeypatch.setattr(
        socket_limits,
        "Bucket",
        functools.partial(socket_limits.Bucket, clock=lambda: time.monotonic() + skipped[0]),
    )
    match, users = await sync_to_async(setup_match)(make_user)
    bo = await open_socket(table_path(match), cookie=await sync_to_async(cookie_for)(users["bo"]))
    await frame(bo)
    for _ in range(socket_limits.MESSAGES_PER_SECOND):
        await bo.send_to(json.dumps({"resync": 1}))
    play = json.dumps({"action": "play", "cards": ["5H"], "version": 0, "client_id": "b1"})
    await bo.send_to(play)
    texts = [await frame(bo)]  # the resyncs' snapshots (as many as the socket sends), then:
    while "slow down" not in texts[-1] and len(texts) <= socket_limits.MESSAGES_PER_SECOND:
        texts.append(await frame(bo))
    assert "slow down" in texts[-1]
    assert await sync_to_async(lambda: Match.objects.get(pk=match.pk).version)() == 0
    skipped[0] += 1.1
    await bo.send_to(json.dumps({"heartbeat": 1, "version": 0}, separators=(",", ":")))
    await bo.send_to(play)
    while '"v":1' not in await frame(bo):
        pass
    assert await sync_to_async(lambda: Match.objects.get(pk=match.pk).version)() == 1
    await bo.disconnect()


async def test_a_flood_of_heartbeats_closes_the_socket(make_user):
    """A thousand heartbeats at once: one is taken (heartbeats have a bucket of their own), the
    rest dropped without a word (a page never chose to send them), and after
    ``FLOOD_MESSAGES`` dropped in a row the socket is closed (4008)."""
    match, users = await sync_to_async(setup_match)(make_user)
    bo = await open_socket(table_path(match), cookie=await sync_to_async(cookie_for)(users["bo"]))
    await frame(bo)
    for _ in range(1000):
        await bo.send_to(json.dumps({"heartbeat": 1, "version": 0}))
    notices, code = 0, None
    while code is None:
        output = await bo.receive_output(timeout=10)
        if output["type"] == "websocket.close":
            code = output["code"]
        elif "slow down" in output.get("text", ""):
            notices += 1
    assert code == socket_limits.FLOODING and notices == 0
    await bo.disconnect()


async def test_a_lobby_flood_closes_the_socket():
    """The lobby takes no messages; a page that floods it anyway is closed."""
    lobby = await open_socket("/ws/lobby/")
    for _ in range(200):
        await lobby.send_to("x")
    assert await close_code(lobby) == socket_limits.FLOODING


@pytest.mark.parametrize("size", [socket_limits.MAX_MESSAGE_BYTES + 1, 2 * 1024 * 1024])
async def test_a_message_too_big_for_the_consumer_closes_its_socket(make_user, size):
    """A table or lobby message over 4 KB that reaches the consumer (under Daphne the protocol
    refuses it first: test_socket_daphne.py) closes its socket with 4009 before it is parsed,
    and the match is unchanged."""
    match, users = await sync_to_async(setup_match)(make_user)
    bo = await open_socket(table_path(match), cookie=await sync_to_async(cookie_for)(users["bo"]))
    await frame(bo)
    await bo.send_to(
        json.dumps({"action": "play", "cards": ["5H"], "version": 0, "pad": "x" * size})
    )
    assert await close_code(bo) == socket_limits.TOO_BIG
    assert await sync_to_async(lambda: Match.objects.get(pk=match.pk).version)() == 0
    lobby = await open_socket("/ws/lobby/")
    await lobby.send_to("x" * size)
    assert await close_code(lobby) == socket_limits.TOO_BIG


async def test_the_bucket_refills_and_tells_a_flood_apart():
    """``rate`` messages at once, then one per 1/rate s; ``FLOOD_MESSAGES`` refusals in a row
    are a flood; one warning per ``WARN_SECONDS``."""
    now = [100.0]
    bucket = socket_limits.Bucket(rate=5, clock=lambda: now[0])
    assert [bucket.take() for _ in range(6)] == [True] * 5 + [False]
    assert bucket.warn() and not bucket.warn()
    now[0] += 0.2
    assert bucket.take() and not bucket.take()
    for _ in range(socket_limits.FLOOD_MESSAGES - 2):
        bucket.take()
    assert not bucket.flooding
    bucket.take()
    assert bucket.flooding
    now[0] += 1.0
    assert bucket.warn() and bucket.take() and not bucket.flooding


async def test_an_anonymous_session_is_capped_like_a_signed_in_one(settings):
    """A visitor who holds an anonymous session (e.g. from an invite link) is capped by it."""
    settings.GAMES_MAX_SOCKETS_PER_SESSION = 1

    def anonymous_session() -> bytes:
        client = Client()
        session = client.session
        session["table_invites"] = []
        session.save()
        return f"sessionid={session.session_key}".encode()

    cookie = await sync_to_async(anonymous_session)()
    first = await open_socket("/ws/lobby/", cookie=cookie)
    assert await refused(await open_socket("/ws/lobby/", cookie=cookie)) == 4429
    await first.disconnect()


async def test_a_send_on_a_closing_connection_is_dropped_not_raised():
    """Daphne raises autobahn's ``Disconnected`` for a send between its protocol's close and
    Daphne hearing of it (a 2 MB message used to drop the connection while the consumer still
    rendered its first frame: "Exception inside application"); ``guard_send`` drops that send.
    Any other error still raises."""
    from autobahn.exception import Disconnected

    sent = []

    async def send(message: dict) -> None:
        if message.get("type") == "websocket.send":
            raise Disconnected("Attempt to send on a closed protocol")
        if message.get("type") == "bad":
            raise ValueError("not a closed connection")
        sent.append(message)

    guarded = socket_limits.guard_send(send)
    await guarded({"type": "websocket.send", "text": "late frame"})
    await guarded({"type": "websocket.close", "code": 4009})
    assert sent == [{"type": "websocket.close", "code": 4009}]
    with pytest.raises(ValueError):
        await guarded({"type": "bad"})
