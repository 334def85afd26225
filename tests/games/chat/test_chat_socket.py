"""Chat over the real table WebSocket (ASGI app, Redis channel layer, PostgreSQL): the players'
room reaches the seats only, the spectators' room the spectators only; a line is not a frame
of the match (no header, the next move's delta still follows the last version); no message
carries a card of a hand; each room is rendered once per language."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async
from django.db import connections

from games.live import audiences, push
from games.models import ChatLine
from tests.games.pages import header
from tests.games.sockets.settle import settled
from tests.games.sockets.test_consumers import (
    HANDS,
    cards_in,
    connect,
    frame,
    handled,
    setup_match,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture(autouse=True)
async def _close_db_connections():
    yield
    await sync_to_async(connections.close_all)()


def is_chat(text: str) -> bool:
    return 'id="chat-lines"' in text or 'id="chat-room"' in text


async def chat_message(ws) -> str:
    """The next chat message (frames and spectator counts before it are skipped)."""
    while True:
        text = await ws.receive_from(timeout=10)
        if is_chat(text):
            return text


async def before_a_push(table_id: int, *sockets) -> list[str]:
    """Every message ``sockets`` get before a full push of the table made now (the barrier for
    "nothing else came": a line sent to a socket before travelled the same ordered path, one
    Redis pub/sub connection then the socket's queue, so it comes first; no fixed wait). The
    sockets that spoke must be ``handled`` first, so that their lines have all gone out."""
    await sync_to_async(push.publish_table)(table_id)
    got = []
    for ws in sockets:
        while (
            not ((text := await ws.receive_from(timeout=30)).startswith("<!--frame"))
            or not (header(text)["full"])
        ):
            got.append(text)
    return got


async def say(ws, **line) -> None:
    await ws.send_to(json.dumps({"chat": "1", "HEADERS": {}, **line}))


async def test_the_rooms_never_meet_and_no_message_carries_a_card(make_user):
    match, users = await sync_to_async(setup_match)(make_user)
    table_id = match.table_id
    ana = await connect(table_id, users["ana"])
    bo = await connect(table_id, users["bo"])
    watcher = await connect(table_id, users["watcher"])
    other = await connect(table_id, await sync_to_async(make_user)("other"))
    first = {name: await frame(ws) for name, ws in (("ana", ana), ("bo", bo), ("w", watcher))}
    await frame(other)

    await say(ana, phrase="", text="partner, lead low")
    to_bo = await chat_message(bo)
    to_ana = await chat_message(ana)
    assert "partner, lead low" in to_bo and to_bo == to_ana
    assert not to_bo.startswith("<!--frame")  # not a frame of the match
    await say(watcher, phrase="bomb")
    to_other = await chat_message(other)
    assert "Nice bomb!" in to_other
    # Both lines went out (their readers got them); whatever else they sent is before a marker
    # published now (settle.settled; not before_a_push: its full push would make bo's play
    # below reach the pages as a snapshot, not as the delta on the version shown before).
    w_got, other_got, ana_got, bo_got = await settled(table_id, [watcher, other, ana, bo])
    spectators_got, players_got = w_got + other_got, ana_got + bo_got
    assert not any("partner, lead low" in m for m in spectators_got)
    assert not any("Nice bomb" in m for m in players_got)
    for text in [to_bo, to_ana, to_other, *spectators_got, *players_got]:
        if is_chat(text):
            assert cards_in(text) == set()

    # A line moved no version: bo's play arrives as the delta on the version shown before.
    await bo.send_to(
        json.dumps({"action": "play", "cards": ["5H"], "version": 0, "client_id": "b"})
    )
    after = await frame(ana)
    assert header(after)["b"] == header(first["ana"])["v"] == 0 and header(after)["v"] == 1
    assert cards_in(after) == {"5H"}
    assert (
        HANDS[1][0]
        not in await sync_to_async(
            lambda: "".join(ChatLine.objects.values_list("text", flat=True))
        )()
    )
    for ws in (ana, bo, watcher, other):
        await ws.disconnect()


async def test_each_reader_gets_the_phrase_in_their_language(make_user):
    match, users = await sync_to_async(setup_match)(make_user)
    users["bo"].language = "vi"
    await sync_to_async(users["bo"].save)()
    ana = await connect(match.table_id, users["ana"])
    bo = await connect(match.table_id, users["bo"])
    await frame(ana), await frame(bo)
    await say(ana, phrase="gg")
    assert "Good game!" in await chat_message(ana)
    assert "Ván hay!" in await chat_message(bo)
    await ana.disconnect()
    await bo.disconnect()


async def test_a_line_is_rendered_once_per_language_not_per_socket(make_user, monkeypatch):
    match, users = await sync_to_async(setup_match)(make_user)
    watchers = [await sync_to_async(make_user)(f"w{i}") for i in range(6)]
    sockets = [await connect(match.table_id, u) for u in watchers]
    for ws in sockets:
        await frame(ws)
    from games.chat import rooms

    renders = []
    original = rooms.render_to_string
    monkeypatch.setattr(
        rooms, "render_to_string", lambda *a, **k: renders.append(a[0]) or original(*a, **k)
    )
    await say(sockets[0], text="one render")
    for ws in sockets:
        assert "one render" in await chat_message(ws)
    assert renders == [rooms.LINE_TEMPLATE]  # six spectators in English: one render
    for ws in sockets:
        await ws.disconnect()


async def test_a_reconnecting_page_gets_the_rooms_last_lines_and_anonymous_cannot_speak(
    make_user,
):
    match, users = await sync_to_async(setup_match)(make_user)
    ana = await connect(match.table_id, users["ana"])
    await frame(ana)
    await say(ana, phrase="", text="first line")
    await chat_message(ana)
    await ana.disconnect()
    again = await connect(match.table_id, users["ana"])
    await frame(again)
    await again.send_to('{"chat_room":1}')
    room = await chat_message(again)
    assert 'id="chat-room"' in room and "first line" in room and "Table chat" in room
    anonymous = await connect(match.table_id)
    await frame(anonymous)
    await anonymous.send_to('{"chat_room":1}')
    room = await chat_message(anonymous)
    assert "first line" not in room and "Spectators" in room
    await say(anonymous, phrase="thanks")
    refusal = await anonymous.receive_from(timeout=10)
    while 'id="flash"' not in refusal:  # a spectator count may come first
        refusal = await anonymous.receive_from(timeout=10)
    assert 'id="flash"' in refusal and "Log in to chat" in refusal
    assert await sync_to_async(ChatLine.objects.count)() == 1
    assert {a.seat for a in await sync_to_async(audiences.live)(match.table_id)} >= {0, None}
    await again.disconnect()
    await anonymous.disconnect()


def setup_delayed(make_user):
    """ana and bo seated at a table whose spectators watch 3 plays late; a spectator."""
    from games.engine.deal import start_round
    from games.models import Seat
    from games.play import tables
    from tests.games.conftest import install_state

    ana, bo = make_user("ana"), make_user("bo")
    table = tables.create_table(
        ana,
        name="late",
        players=4,
        options={"claim_window_seconds": 60, "turn_seconds": 300},
        spectator_delay=3,
    )
    tables.take_seat(table.pk, bo, 1)
    tables.fill_with_ai(table.pk, ana, Seat.Policy.HEURISTIC)
    match = tables.start(table.pk, ana, seed=2)
    install_state(match, start_round(table.engine_options(), HANDS, 2, leader=1, seed=2))
    return match, ana, bo, make_user("late_watcher")


async def test_a_delayed_spectator_hears_nothing_of_the_players_and_sees_no_hand(make_user):
    """No-leak: on a table whose spectators are 3 plays behind, the players' talk and play
    never reach the spectator's socket: every message it receives names no card of any hand
    (nothing was played for it yet) and none carries the players' lines."""
    match, ana, bo, watcher = await sync_to_async(setup_delayed)(make_user)
    ana_ws = await connect(match.table_id, ana)
    bo_ws = await connect(match.table_id, bo)
    spectator = await connect(match.table_id, watcher)
    seen = [await frame(spectator)]
    await frame(ana_ws), await frame(bo_ws)
    await say(bo_ws, phrase="bomb")
    await say(ana_ws, phrase="", text="I hold 9H and 9C")
    await bo_ws.send_to(
        json.dumps({"action": "play", "cards": ["5H"], "version": 0, "client_id": "x"})
    )
    for ws in (ana_ws, bo_ws):  # the two lines and the play's delta, in any order
        lines, frames = [], []
        while len(lines) < 2 or not frames:  # (a busy box may send the delta between lines)
            text = await frame(ws)
            (lines if is_chat(text) else frames).append(text)
        heard = "".join(lines)
        assert "Nice bomb!" in heard and "I hold 9H" in heard
        assert [header(f)["v"] for f in frames] == [1]
    await spectator.send_to('{"chat_room":1}')
    # Everything up to its own room (which it did get: else a timeout) is kept and checked.
    while 'id="chat-room"' not in seen[-1]:
        seen.append(await spectator.receive_from(timeout=30))
    # The players' lines and play went out (the players got them): anything of theirs sent to
    # the spectator is before a marker published now.
    seen += (await settled(match.table_id, [spectator]))[0]
    for text in seen:
        assert "Nice bomb" not in text and "I hold" not in text
        assert cards_in(text) == set(), text[:200]
    for ws in (ana_ws, bo_ws, spectator):
        await ws.disconnect()


def post_as(user, path: str) -> int:
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client.post(path, HTTP_HX_REQUEST="true").status_code


async def test_a_muted_authors_lines_never_reach_the_muting_readers_socket(make_user):
    """bo mutes ana from the chat (the Mute button's POST): her later lines are not sent to any
    of bo's sockets — the open one, told of the mute, and one opened later, which reads the
    mutes on connect and leaves her lines out of its room too — until he unmutes."""
    match, users = await sync_to_async(setup_match)(make_user)
    ana_id = users["ana"].pk
    ana = await connect(match.table_id, users["ana"])
    bo = await connect(match.table_id, users["bo"])
    await frame(ana), await frame(bo)

    assert await sync_to_async(post_as)(users["bo"], f"/social/mute/{ana_id}/") == 200
    await say(ana, phrase="", text="muted line one")
    assert "muted line one" in await chat_message(ana)
    await handled(ana)
    assert not any("muted line one" in m for m in await before_a_push(match.table_id, bo))

    later = await connect(match.table_id, users["bo"])
    await frame(later)
    await say(ana, phrase="", text="muted line two")
    assert "muted line two" in await chat_message(ana)
    await later.send_to('{"chat_room":1}')
    await handled(ana)
    got = await handled(later) + await before_a_push(match.table_id, later, bo)
    assert any('id="chat-room"' in m for m in got)
    assert not any("muted line" in m for m in got)

    assert await sync_to_async(post_as)(users["bo"], f"/social/unmute/{ana_id}/") == 200
    await say(ana, phrase="", text="heard again")
    assert "heard again" in await chat_message(bo)
    assert "heard again" in await chat_message(later)
    for ws in (ana, bo, later):
        await ws.disconnect()


async def test_a_player_who_left_for_good_cannot_post_in_the_players_chat(make_user):
    """ana leaves for good (the seat goes to the AI for the rest of the match): a chat line she
    sends then is refused with a flash, stored nowhere and sent to no seat."""
    match, users = await sync_to_async(setup_match)(make_user)
    ana = await connect(match.table_id, users["ana"])
    bo = await connect(match.table_id, users["bo"])
    await frame(ana), await frame(bo)
    await ana.send_to(json.dumps({"action": "leave", "stand_in_seq": 0, "client_id": "l"}))
    await frame(ana), await frame(bo)  # the seating change's snapshots

    await say(ana, phrase="", text="still here?")
    refusal = await ana.receive_from(timeout=10)
    while 'id="flash"' not in refusal:  # a frame may come first
        refusal = await ana.receive_from(timeout=10)
    assert "You left this match" in refusal
    await handled(ana)
    assert not any("still here?" in m for m in await before_a_push(match.table_id, bo))
    assert await sync_to_async(ChatLine.objects.count)() == 0
    for ws in (ana, bo):
        await ws.disconnect()
