"""The stand-in, "I'm back" and resigning over the real table socket (ASGI app, Redis channel
layer, PostgreSQL), and through the HTTP form: every page learns of the AI playing a seat, the
player's own page says so with its button, and no frame names another seat's cards."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from games.live import audiences, notify
from games.live.audiences import Audience
from games.models import Match, Seat, Table
from tests.games.pages import Page, header
from tests.games.sockets.test_consumers import HANDS, cards_in, connect, frame, setup_match

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture(autouse=True)
async def _close_db_connections():
    yield
    from django.db import connections

    await sync_to_async(connections.close_all)()


def seat_row(match_id: int, number: int) -> tuple:
    match = Match.objects.get(pk=match_id)
    seat = Seat.objects.get(table_id=match.table_id, number=number)
    return seat.stand_in, seat.ai_policy, seat.stand_in_seq


async def everyone(sockets: dict, pages: dict) -> dict:
    """The next table frame of every socket, applied to its page model."""
    got = {}
    for name, ws in sockets.items():
        got[name] = await frame(ws)
        assert pages[name].apply(got[name]), (name, header(got[name]))
    return got


def own_cards_only(got: dict) -> None:
    assert cards_in(got["ana"]) <= set(HANDS[0])
    assert cards_in(got["bo"]) <= set(HANDS[1])
    assert cards_in(got["watcher"]) == set()


async def test_the_stand_in_is_shown_to_all_and_taken_back_over_the_socket(make_user):
    """bo asks the AI to play for him: every page gets a snapshot with his seat marked, his own
    page the banner and "I'm back"; his "I'm back" (the same hand-over resent is refused) clears
    both; then he resigns and every page shows team 1 winning. No frame names another seat's
    cards, the spectator's none."""
    match, users = await sync_to_async(setup_match)(make_user)
    sockets = {name: await connect(match.table_id, users[name]) for name in users}
    pages = {name: Page() for name in sockets}
    first = await everyone(sockets, pages)
    own_cards_only(first)
    assert 'id="stand-in-button"' in first["bo"] and 'id="stand-in-button"' not in first["watcher"]

    await sockets["bo"].send_to(
        json.dumps({"action": "stand_in", "stand_in_seq": "0", "version": 0, "client_id": "s1"})
    )
    got = await everyone(sockets, pages)
    assert await sync_to_async(seat_row)(match.pk, 1) == ("asked", "expert", 1)
    for name, text in got.items():
        assert header(text)["full"] and header(text)["r"] == header(first[name])["r"] + 1
        assert 'id="stand-in-1"' in pages[name].region("seats"), name
    assert "The AI is playing for you" in pages["bo"].region("seat-menu")
    assert 'id="im-back"' in pages["bo"].region("seat-menu")
    assert 'id="im-back"' not in pages["ana"].region("seat-menu")
    assert pages["watcher"].region("seat-menu").count("<form") == 0
    own_cards_only(got)

    await sockets["bo"].send_to(
        json.dumps({"action": "play", "cards": ["5H"], "version": 0, "client_id": "p1"})
    )
    refusal = await frame(sockets["bo"])
    assert "I&#x27;m back" in refusal or "I'm back" in refusal  # the flash says what to press

    await sockets["bo"].send_to(
        json.dumps({"action": "back", "stand_in_seq": "1", "version": 0, "client_id": "b1"})
    )
    got = await everyone(sockets, pages)
    assert await sync_to_async(seat_row)(match.pk, 1) == ("", "", 2)
    for name in got:
        assert 'id="stand-in-1"' not in pages[name].region("seats"), name
    assert 'id="stand-in-button"' in pages["bo"].region("seat-menu")
    own_cards_only(got)

    await sockets["bo"].send_to(
        json.dumps({"action": "back", "stand_in_seq": "1", "version": 0, "client_id": "b1"})
    )
    stale = await frame(sockets["bo"])  # refused, then a fresh snapshot of his own
    assert header(stale) is None and 'id="flash"' in stale
    assert header(await frame(sockets["bo"]))["full"]
    assert await sync_to_async(seat_row)(match.pk, 1) == ("", "", 2)

    await sockets["bo"].send_to(json.dumps({"action": "resign", "version": 0, "client_id": "r1"}))
    got = await everyone(sockets, pages)
    own_cards_only(got)
    for name in got:
        result = pages[name].region("result")
        assert "bo resigned" in result and "Team 1" in result, name
        assert pages[name].region("seat-menu").count("<form") == 0
    assert (await sync_to_async(Match.objects.get)(pk=match.pk)).winner_team == 0
    for ws in sockets.values():
        await ws.disconnect()


async def test_the_form_path_takes_the_same_requests(make_user):
    """The same requests by POST (CSRF-checked, htmx): 204 and the change; a refusal is a
    translated flash; leaving a rated table is refused."""
    match, users = await sync_to_async(setup_match)(make_user)

    def post(data: dict, language: str = "en") -> tuple[int, str]:
        client = Client(enforce_csrf_checks=False, HTTP_ACCEPT_LANGUAGE=language)
        client.force_login(users["ana"])
        url = f"/tables/{match.table_id}/seat/"
        response = client.post(url, data, HTTP_HX_REQUEST="true")
        return response.status_code, response.content.decode()

    status, _body = await sync_to_async(post)({"action": "stand_in", "stand_in_seq": "0"})
    assert status == 204
    assert await sync_to_async(seat_row)(match.pk, 0) == ("asked", "expert", 1)
    status, body = await sync_to_async(post)({"action": "stand_in", "stand_in_seq": "0"})
    assert status == 200 and 'id="flash"' in body
    status, _body = await sync_to_async(post)({"action": "back", "stand_in_seq": "1"})
    assert status == 204 and await sync_to_async(seat_row)(match.pk, 0) == ("", "", 2)
    await sync_to_async(Table.objects.filter(pk=match.table_id).update)(rated=True)
    status, body = await sync_to_async(post)({"action": "leave", "stand_in_seq": "2"})
    assert status == 200 and "At a rated table you cannot leave for good" in body
    assert await sync_to_async(seat_row)(match.pk, 0) == ("", "", 2)
    status, _body = await sync_to_async(post)({"action": "resign"})
    assert status == 204
    assert (await sync_to_async(Match.objects.get)(pk=match.pk)).winner_team == 1


async def test_who_leaves_for_good_watches_as_the_spectators_do(make_user):
    """bo leaves for good: from the seating push on, his page is a spectator's (the hand the AI
    now plays for him is in none of its frames, nor in a snapshot queued for his old seat's
    audience before he left), it says why, and a page he opens later connects as a spectator.
    ana's page keeps her hand."""
    match, users = await sync_to_async(setup_match)(make_user)
    sockets = {name: await connect(match.table_id, users[name]) for name in users}
    pages = {name: Page() for name in sockets}
    own_cards_only(await everyone(sockets, pages))

    await sockets["bo"].send_to(
        json.dumps({"action": "leave", "stand_in_seq": "0", "version": 0, "client_id": "l1"})
    )
    got = await everyone(sockets, pages)
    assert await sync_to_async(seat_row)(match.pk, 1) == ("left", "expert", 1)
    assert header(got["bo"])["full"]
    assert cards_in(got["bo"]) == set() and cards_in(got["ana"]) <= set(HANDS[0])
    for region in ("hand", "seat-menu", "seats"):
        assert pages["bo"].region(region) == pages["watcher"].region(region), region
    said = []  # then his chat room changes (the spectators') and a flash says why
    while not any('id="flash"' in text for text in said):
        said.append(await sockets["bo"].receive_from(timeout=30))
    assert "You left this match." in said[-1] and "The AI finishes it for you." in said[-1]
    assert all(cards_in(text) == set() for text in said)

    later = await connect(match.table_id, users["bo"])
    assert cards_in(await frame(later)) == set()
    for ws in (*sockets.values(), later):
        await ws.disconnect()


async def test_a_frame_for_another_audience_is_never_forwarded(make_user):
    """A frame labelled for seat 1's audience that reaches a spectator's socket (as one sent to
    bo's seat before he left for good can reach his socket after it moved to the spectators) is
    dropped; the spectators' own frame after it goes through."""
    match, users = await sync_to_async(setup_match)(make_user)
    watcher = await connect(match.table_id, users["watcher"])
    first = await frame(watcher)
    version, revision = header(first)["v"], header(first)["r"]
    group = audiences.group(match.table_id, Audience(None, "en"))

    def sent(text: str, seat: int | None) -> tuple[str, dict]:
        return group, {
            "type": "table.frame",
            "text": f'<!--frame {{"v": {version}, "r": {revision}, "full": true}}-->{text}',
            "v": version,
            "r": revision,
            "full": True,
            "s": seat,
        }

    await sync_to_async(notify.send_many)([sent("bo's hand", 1), sent("the spectators'", None)])
    assert (await frame(watcher)).endswith("the spectators'")
    await watcher.disconnect()
