"""The table WebSocket with two seats and a spectator: every frame each receives, own hand only.

Runs the real ASGI application (session auth, Origin check) over the real Redis channel layer
and PostgreSQL; the consumer renders each viewer's regions from its own view (DESIGN.md rule 2).
"""

from __future__ import annotations

import functools
import html
import json
import re

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connections
from django.test import Client

from config.asgi import application
from games.engine.deal import start_round
from games.live import audiences, push
from games.models import Match, Move, Seat
from games.play import services, tables
from games.play.outcomes import Result
from games.sockets import socket_limits
from games.sockets.renewals import Renewals
from tests.games.conftest import install_state
from tests.games.pages import Page, header

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

CARD = re.compile(r"""["'](10|[2-9JQKA])([SHDC])["']|["'](BJ|RJ)["']""")
HANDS = [
    ("3S", "9H", "9C", "KD"),
    ("9D", "5H", "6H", "QC"),
    ("JS", "JH", "7D", "8D"),
    ("4C", "4D", "10S", "2C"),
]


@pytest.fixture(autouse=True)
async def _close_db_connections():
    """Close the connection the test's sync_to_async thread opened, so teardown can drop the
    test database."""
    yield
    await sync_to_async(connections.close_all)()


def cards_in(frame: str) -> set[str]:
    """Every card code the frame names (attributes, hint JSON, anything quoted)."""
    text = html.unescape(frame)
    return {m.group(3) or m.group(1) + m.group(2) for m in CARD.finditer(text)}


def setup_match(make_user) -> tuple[Match, dict]:
    """Seats 0 and 1 are people, seats 2 and 3 AI (no worker runs: they never move here)."""
    ana, bo = make_user("ana"), make_user("bo")
    table = tables.create_table(
        ana, name="t", players=4, options={"claim_window_seconds": 60, "turn_seconds": 300}
    )
    tables.take_seat(table.pk, bo, 1)
    tables.fill_with_ai(table.pk, ana, Seat.Policy.HEURISTIC)
    match = tables.start(table.pk, ana, seed=2)
    install_state(match, start_round(table.engine_options(), HANDS, 2, leader=1, seed=2))
    watcher = make_user("watcher")
    return match, {"ana": ana, "bo": bo, "watcher": watcher}


def cookie_for(user) -> bytes:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}".encode()


async def connect(table_id: int, user=None) -> WebsocketCommunicator:
    headers = [(b"origin", b"http://localhost")]
    if user is not None:
        headers.append((b"cookie", await sync_to_async(cookie_for)(user)))
    ws = WebsocketCommunicator(application, f"/ws/table/{table_id}/", headers=headers)
    connected, _ = await ws.connect()
    assert connected
    return ws


async def frame(ws: WebsocketCommunicator) -> str:
    """The next frame of table regions (a spectator-count refresh alone is skipped)."""
    while True:
        # Generous: a busy machine (CI drives both cores) once took over 10 s; a wait that
        # succeeds ends as soon as the frame comes.
        text = await ws.receive_from(timeout=30)
        if not is_spectator_count(text):
            return text


def is_spectator_count(text: str) -> bool:
    return text.lstrip().startswith('<p id="spectators"')


async def nothing_but_counts(ws: WebsocketCommunicator, timeout: float) -> bool:
    """Whether ``ws`` receives nothing but spectator counts for ``timeout`` seconds."""
    while not await ws.receive_nothing(timeout=timeout):
        if not is_spectator_count(await ws.receive_from()):
            return False
    return True


async def drained(ws: WebsocketCommunicator) -> list[str]:
    """What ``ws`` receives until a second passes with nothing more."""
    received = []
    while not await ws.receive_nothing(timeout=1):
        received.append(await ws.receive_from())
    return received


@pytest.fixture
def still_buckets(monkeypatch) -> None:
    """The sockets' message buckets read a clock that stands still: how fast this machine sends
    a burst changes nothing (none refills while it is sent)."""
    monkeypatch.setattr(
        socket_limits, "Bucket", functools.partial(socket_limits.Bucket, clock=lambda: 0.0)
    )


async def handled(ws: WebsocketCommunicator) -> list[str]:
    """Every message sent on ``ws`` before has been handled to its end: the consumer takes its
    socket's messages one at a time, so the answer to a malformed one sent now (a flash to the
    sender) comes after all that the earlier ones did, pushes to other pages included. What
    ``ws`` got before that flash (spectator counts left out)."""
    await ws.send_to("{not json")
    before = []
    while 'id="flash"' not in (text := await frame(ws)):
        before.append(text)
    return before


async def nothing_before_a_push(ws: WebsocketCommunicator, table_id: int) -> bool:
    """Whether ``ws`` receives nothing but spectator counts before a full push of the table
    made now: the barrier for "nothing else came". Whatever was pushed to the page before
    travelled the same ordered path (one Redis pub/sub connection, then the socket's queue), so
    it would come first; no fixed wait. (Call ``handled`` on the sockets that acted first.)"""
    await sync_to_async(push.publish_table)(table_id)
    first = await frame(ws)  # (spectator counts skipped)
    shown = header(first)  # None: not a frame of the table (a flash, a chat line)
    return shown is not None and shown["full"] and 'id="flash"' not in first


async def test_each_page_gets_its_own_hand_and_never_another(make_user):
    """On connect and after a play, a seat's frames name only its own cards and public ones;
    the spectator's name only public ones. The first frame is a full snapshot; the next is a
    delta that leaves ana's unchanged hand out and takes bo's played card out of his."""
    match, users = await sync_to_async(setup_match)(make_user)
    sockets = {
        "ana": await connect(match.table_id, users["ana"]),
        "bo": await connect(match.table_id, users["bo"]),
        "watcher": await connect(match.table_id, users["watcher"]),
    }
    pages = {name: Page() for name in sockets}
    first = {name: await frame(ws) for name, ws in sockets.items()}
    assert cards_in(first["ana"]) == set(HANDS[0])
    assert cards_in(first["bo"]) == set(HANDS[1])
    assert cards_in(first["watcher"]) == set()
    for name, text in first.items():
        assert header(text)["full"] and pages[name].apply(text)

    await sockets["bo"].send_to(
        json.dumps(
            {"action": "play", "cards": ["5H"], "version": "0", "client_id": "b1", "HEADERS": {}}
        )
    )
    after = {name: await frame(ws) for name, ws in sockets.items()}
    for name, text in after.items():
        assert header(text) == {"v": 1, "b": 0, "r": header(first[name])["r"], "full": False}
        assert pages[name].apply(text)
    assert cards_in(after["ana"]) == {"5H"} and 'id="hand"' not in after["ana"]
    assert cards_in(after["bo"]) == {"5H"} and 'id="hand"' not in after["bo"]
    assert cards_in(after["watcher"]) == {"5H"}
    assert cards_in(pages["ana"].region("hand")) == set(HANDS[0])
    assert cards_in(pages["bo"].region("hand")) == set(HANDS[1]) - {"5H"}
    assert cards_in(pages["watcher"].region("hand")) == set()
    assert cards_in(pages["watcher"].region("trick")) == {"5H"}
    for ws in sockets.values():
        await ws.disconnect()


async def test_a_pending_claim_is_seen_by_its_seat_only(make_user):
    """Seat 0 hooks seat 1's 9 while seats 2 and 3 (nearer) have not answered: the others see
    that seat 0 answered, not its cards (§6.4)."""
    match, users = await sync_to_async(setup_match)(make_user)
    ana = await connect(match.table_id, users["ana"])
    bo = await connect(match.table_id, users["bo"])
    watcher = await connect(match.table_id, users["watcher"])
    for ws in (ana, bo, watcher):
        await frame(ws)
    await bo.send_to(json.dumps({"action": "play", "cards": ["9D"], "version": 0}))
    for ws in (ana, bo, watcher):
        await frame(ws)
    await ana.send_to(json.dumps({"action": "hook", "cards": ["9H", "9C"], "version": 1}))
    seen = {name: await frame(ws) for name, ws in (("ana", ana), ("bo", bo), ("watcher", watcher))}
    assert cards_in(seen["ana"]) <= set(HANDS[0]) | {"9D"}
    assert "answered" in seen["bo"] and "answered" in seen["watcher"]
    for other in (seen["bo"], seen["watcher"]):
        assert cards_in(other) <= set(HANDS[1]) and not {"9H", "9C"} & cards_in(other)
        assert "9H" not in other and "9C" not in other
    state = await sync_to_async(lambda: Match.objects.get(pk=match.pk).state)()
    assert state["window"][4][0] == ["9H", "9C"]  # the claim is pending, recorded server-side
    for ws in (ana, bo, watcher):
        await ws.disconnect()


async def test_bad_messages_are_answered_to_the_sender_only(make_user):
    """Malformed JSON, an illegal play and a spectator's move: an error to that page alone,
    nothing changes and the other pages receive nothing."""
    match, users = await sync_to_async(setup_match)(make_user)
    ana = await connect(match.table_id, users["ana"])
    watcher = await connect(match.table_id, users["watcher"])
    await frame(ana)
    await frame(watcher)
    await ana.send_to("{not json")
    assert 'id="flash"' in await frame(ana)
    await ana.send_to(json.dumps({"action": "play", "cards": ["3S"], "version": 0}))
    assert "not your turn" in (await frame(ana)).lower()
    await watcher.send_to(json.dumps({"action": "play", "cards": ["9D"], "version": 0}))
    assert 'id="flash"' in await frame(watcher)
    await handled(watcher)
    assert await nothing_before_a_push(ana, match.table_id)
    version = await sync_to_async(lambda: Match.objects.get(pk=match.pk).version)()
    assert version == 0
    await ana.disconnect()
    await watcher.disconnect()


async def test_a_client_id_that_is_not_a_string_is_refused_changing_nothing(make_user, monkeypatch):
    """A ``client_id`` sent as an object, a list, a number or a boolean was stored as its
    ``str()`` and the move applied (issue 17 item 8). The socket now refuses the message as the
    bot API refuses that body (400 ``malformed``: a string or null): the sender alone is told,
    no move is stored, the version stays (so is an action that is a list: "could not be read",
    not "not allowed now"). A null client id and a string one still play."""
    monkeypatch.setattr(
        socket_limits, "Bucket", functools.partial(socket_limits.Bucket, rate=100)
    )  # eight messages at once, none throttled
    match, users = await sync_to_async(setup_match)(make_user)
    bo = await connect(match.table_id, users["bo"])
    ana = await connect(match.table_id, users["ana"])
    await frame(bo)
    await frame(ana)
    play = {"action": "play", "cards": ["5H"], "version": 0}
    for bad in ({"id": "b1"}, ["b1"], 7, 7.5, True, False, 0):
        await bo.send_to(json.dumps({**play, "client_id": bad}))
        answer = await frame(bo)
        assert 'id="flash"' in answer and "could not be read" in answer, bad
    await bo.send_to(json.dumps({**play, "action": ["play"]}))  # the writer's ``malformed``
    answer = await frame(bo)
    assert 'id="flash"' in answer and "could not be read" in answer
    await handled(bo)
    assert await nothing_before_a_push(ana, match.table_id)
    assert header(await frame(bo))["full"]  # bo's page got the barrier's snapshot too

    def stored() -> tuple[int, list[str]]:
        version = Match.objects.get(pk=match.pk).version
        return version, list(Move.objects.filter(match=match).values_list("client_id", flat=True))

    assert await sync_to_async(stored)() == (0, [])
    await bo.send_to(json.dumps({**play, "client_id": None}))
    assert header(await frame(bo))["v"] == 1
    await frame(ana)
    await ana.send_to(json.dumps({"action": "pass", "version": 1, "client_id": "a1"}))
    assert header(await frame(ana))["v"] == 2  # ana answers bo's window
    assert await sync_to_async(stored)() == (2, ["", "a1"])
    await bo.disconnect()
    await ana.disconnect()


async def test_a_stale_action_gets_a_fresh_snapshot(make_user):
    """A play made against an old version is refused and the page is re-rendered in full."""
    match, users = await sync_to_async(setup_match)(make_user)
    bo = await connect(match.table_id, users["bo"])
    await frame(bo)
    await bo.send_to(json.dumps({"action": "play", "cards": ["5H"], "version": 7}))
    flash = await frame(bo)
    snapshot = await frame(bo)
    assert 'id="flash"' in flash
    assert 'id="hand"' in snapshot and cards_in(snapshot) == set(HANDS[1])
    await bo.disconnect()


async def test_a_foreign_origin_is_refused(make_user):
    """The WebSocket checks Origin against ALLOWED_HOSTS."""
    match, users = await sync_to_async(setup_match)(make_user)
    ws = WebsocketCommunicator(
        application, f"/ws/table/{match.table_id}/", headers=[(b"origin", b"http://evil.example")]
    )
    connected, _ = await ws.connect()
    assert not connected


async def test_deeply_nested_json_is_refused_not_a_crash(make_user):
    """A message of 2,000 nested lists (under the size limit) gets an error, the socket stays."""
    match, users = await sync_to_async(setup_match)(make_user)
    bo = await connect(match.table_id, users["bo"])
    await frame(bo)
    await bo.send_to("[" * 2000 + "]" * 2000)
    assert 'id="flash"' in await frame(bo)
    await bo.send_to(json.dumps({"action": "play", "cards": ["5H"], "version": 0}))
    assert "5H" in cards_in(await frame(bo))  # still connected and playing
    await bo.disconnect()


async def test_a_flood_of_messages_is_throttled(make_user, still_buckets):
    """Past a few messages a second a page's messages are dropped, with one notice (not one
    rendered per message), so stale messages cannot make the server re-render the table, or
    even the notice, hundreds of times. The socket's bucket reads a clock that stands still,
    so how fast this machine sends the 30 messages changes nothing: the burst is answered,
    the rest dropped."""
    match, users = await sync_to_async(setup_match)(make_user)
    ana = await connect(match.table_id, users["ana"])
    await frame(ana)
    for _ in range(30):
        await ana.send_to(json.dumps({"action": "pass", "version": 99}))
    frames = await drained(ana)
    snapshots = [f for f in frames if 'id="hand"' in f]
    throttled = [f for f in frames if "slow down" in f]
    assert len(snapshots) <= 6
    assert len(throttled) == 1
    await ana.disconnect()


async def test_heartbeats_sent_at_once_never_take_an_actions_place(make_user, still_buckets):
    """A connection that stalled for half a minute sends what the page queued at once when it
    comes back: seven heartbeats, then the play. The play was dropped as "too many messages"
    (the heartbeats had used the socket's five a second); heartbeats now have a bucket of their
    own, so the play is applied and nobody is told to slow down. The buckets read a clock that
    stands still: how fast this machine sends changes nothing."""
    match, users = await sync_to_async(setup_match)(make_user)
    bo = await connect(match.table_id, users["bo"])
    await frame(bo)
    for _ in range(7):
        await bo.send_to(json.dumps({"heartbeat": 1, "version": 0}, separators=(",", ":")))
    await bo.send_to(json.dumps({"action": "play", "cards": ["5H"], "version": 0}))
    frames = await drained(bo)
    assert not [f for f in frames if "slow down" in f]
    assert (await sync_to_async(Match.objects.get)(pk=match.pk)).version == 1
    await bo.disconnect()


async def test_a_lost_push_is_repaired_with_a_snapshot(make_user):
    """A push dropped on purpose (bo's page never gets version 1): the next delta, made on
    version 1, does not apply to what the socket sent, so the socket sends a full snapshot of
    version 2 instead — the page never shows a delta over the wrong state."""
    match, users = await sync_to_async(setup_match)(make_user)
    bo = await connect(match.table_id, users["bo"])
    page = Page()
    assert page.apply(await frame(bo))
    lost = await sync_to_async(submit_without_push)(
        match, users["bo"], {"action": "play", "cards": ["5H"], "version": 0}
    )
    assert lost.ok and lost.version == 1
    await sync_to_async(
        lambda: services.submit(match.pk, users["ana"], {"action": "pass", "version": 1})
    )()
    repaired = await frame(bo)
    assert header(repaired)["full"] and header(repaired)["v"] == 2
    assert page.apply(repaired) and page.gaps == 0
    assert cards_in(page.region("hand")) == set(HANDS[1]) - {"5H"}
    await bo.disconnect()


async def test_a_heartbeat_behind_the_table_gets_a_snapshot(make_user):
    """A socket whose last push was lost (nothing follows it) learns at its process's next
    renewal of its sockets' presence, which reads the table's latest push."""
    match, users = await sync_to_async(setup_match)(make_user)
    bo = await connect(match.table_id, users["bo"])
    await frame(bo)
    await sync_to_async(submit_without_push)(
        match, users["bo"], {"action": "play", "cards": ["5H"], "version": 0}
    )
    audiences_latest = await sync_to_async(audiences.latest)(match.table_id, False)
    assert audiences_latest is not None and audiences_latest[1] == 0  # nobody was told
    await sync_to_async(audiences.set_latest)(match.table_id, audiences_latest[0], 1, 1)
    await bo.send_to(json.dumps({"heartbeat": 1, "version": 0}))
    await Renewals.current().flush()  # the process's next renewal reads the table's latest
    snapshot = await frame(bo)
    assert header(snapshot) == {"v": 1, "r": audiences_latest[0], "full": True}
    await bo.disconnect()


def submit_without_push(match, user, payload) -> Result:
    """``services.submit`` with its push lost (as if Redis dropped it)."""
    original = push.publish_move
    push.publish_move = lambda *args, **kwargs: None
    try:
        return services.submit(match.pk, user, payload)
    finally:
        push.publish_move = original


async def test_a_heartbeat_while_a_push_is_on_its_way_sends_nothing(make_user):
    """The page's heartbeat can cross the push it has not shown yet: no snapshot for that. Only
    a page still short of what was sent before its previous heartbeat has lost a push."""
    match, users = await sync_to_async(setup_match)(make_user)
    bo = await connect(match.table_id, users["bo"])
    await frame(bo)
    await bo.send_to(json.dumps({"action": "play", "cards": ["5H"], "version": 0}))
    assert header(await frame(bo))["v"] == 1
    await bo.send_to(json.dumps({"heartbeat": 1, "version": 0}))  # crossed the push
    assert await nothing_but_counts(bo, timeout=1.5)
    await bo.send_to(json.dumps({"heartbeat": 1, "version": 0}))  # still not shown: lost
    snapshot = await frame(bo)
    assert header(snapshot)["full"] and header(snapshot)["v"] == 1
    await bo.disconnect()


async def test_a_double_click_is_not_told_that_the_table_moved_on(make_user):
    """A double click sends one play twice against one version (a client id each, as the
    page makes them): the first is applied, the second gets no flash ("the table moved on"
    read as a lost move to a tester), at most a snapshot of where the table is."""
    match, users = await sync_to_async(setup_match)(make_user)
    bo = await connect(match.table_id, users["bo"])
    await frame(bo)
    for client_id in ("click-1", "click-2"):
        await bo.send_to(
            json.dumps({"action": "play", "cards": ["5H"], "version": 0, "client_id": client_id})
        )
    assert header(await frame(bo))["v"] == 1
    rest = await drained(bo)
    assert not any('id="flash"' in r for r in rest), [r[:200] for r in rest]
    assert all(header(r)["v"] == 1 for r in rest if not is_spectator_count(r))
    moves = await sync_to_async(lambda: Move.objects.filter(match=match).count())()
    assert moves == 1
    await bo.disconnect()
