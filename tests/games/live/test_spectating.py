"""Spectating: frames without hidden cards, the spectator delay, and the spectator count.

The sockets run the real ASGI application over the real Redis channel layer (as in
test_consumers.py); the spectator count lives in Redis too, so every Daphne process sees it.
"""

from __future__ import annotations

import json
import re
import time

import pytest
from asgiref.sync import sync_to_async
from django.core.cache import cache
from django.db import connections
from django.test import Client
from django.urls import reverse

from games.engine import legal_actions
from games.engine.codec import action_to_json
from games.engine.rules import seats_to_act
from games.live import delay, push, redis_store, replay, spectating, visibility
from games.models import DelayedView, Match, Seat
from games.play import services, tables
from games.sockets import renewals
from games.sockets.renewals import Renewals
from tests.games.pages import Page, header
from tests.games.sockets.settle import settled
from tests.games.sockets.test_consumers import (
    HANDS,
    cards_in,
    connect,
    frame,
    handled,
    is_spectator_count,
    setup_match,
)

VERSION = re.compile(r'id="status"[^>]*data-version="(\d+)"')
COUNT = re.compile(r'class="spectator-count" data-count="(\d+)"')


@pytest.fixture
async def close_db():
    """Close the connections sync_to_async threads opened, so teardown can drop the database."""
    yield
    await sync_to_async(connections.close_all)()


def shown_version(html: str) -> int:
    return int(VERSION.search(html).group(1))


def shown_count(html: str) -> int:
    found = COUNT.search(html)
    return int(found.group(1)) if found else 0


def start_people_table(make_table, delay: int) -> Match:
    """Four people, no claim windows, a real deal (seed 9): the log replays from the seed."""
    table = make_table(["ana", "bo", "cy", "di"], {"claim_window_seconds": 0, "turn_seconds": 300})
    table.spectator_delay = delay
    table.save()
    cache.clear()
    return tables.start(table.pk, table.host, seed=9)


def play(match: Match, count: int) -> None:
    """``count`` moves by the seat due, each its first legal action, through services.submit."""
    for _ in range(count):
        match.refresh_from_db()
        state = services.load_state(match)
        seat = seats_to_act(state)[0]
        action = action_to_json(legal_actions(state, seat)[0])
        payload = {
            "action": action["type"],
            "version": match.version,
            "cards": action.get("cards", []),
        }
        user = Seat.objects.select_related("user").get(table_id=match.table_id, number=seat).user
        assert services.submit(match.pk, user, payload).ok
    match.refresh_from_db()


def public_cards(state) -> set[str]:
    """Cards a spectator of ``state`` may see: the trick's plays (and tribute cards, §9.5)."""
    cards = {c for entry in state.trick[-8:] for c in entry.cards}
    return cards | {c for t in state.tributes for c in (t.card, t.returned) if c}


# --- the delay (HTTP pages) -------------------------------------------------------------------


@pytest.mark.django_db
def test_spectators_see_the_table_n_moves_back_and_players_see_it_live(make_table, make_user):
    """spectator_delay 3 after 5 moves: a spectator's page is the state at version 2 (the trick
    and the log of that moment, no countdown), a seated player's is version 5."""
    match = start_people_table(make_table, delay=3)
    play(match, 5)
    match.refresh_from_db()
    past = replay.state_at(match, 2)
    watcher = Client()
    watcher.force_login(make_user("watcher"))
    page = watcher.get(reverse("games:table", args=[match.table_id])).content.decode()
    assert shown_version(page) == 2
    assert cards_in(page) == public_cards(past)
    assert "You see this table 3 plays late." in page
    assert 'role="timer"' not in page
    player = Client()
    player.force_login(match.table.host)
    page = player.get(reverse("games:table", args=[match.table_id])).content.decode()
    assert shown_version(page) == 5
    assert "Spectators see this table 3 plays late." in page


@pytest.mark.django_db
def test_the_delay_never_goes_before_the_deal_and_ends_when_the_view_reaches_the_end(
    make_table, make_user
):
    """Fewer moves than the delay: spectators see the deal (version 0). A finished match stays
    delayed for them until their view (``games.live.delay``) reaches its end."""
    match = start_people_table(make_table, delay=10)
    play(match, 2)
    assert visibility.delay_for(match.table, match, None) == 2
    assert visibility.visible_state(match.table, match, None).version == 0
    assert visibility.delay_for(match.table, match, 0) == 0
    match.winner_team = 0
    assert visibility.delay_for(match.table, match, None) == 2
    DelayedView.objects.create(match=match, version=2, winner_team=0)
    match = Match.objects.get(pk=match.pk)
    assert visibility.delay_for(match.table, match, None) == 0


@pytest.mark.django_db
def test_a_log_that_does_not_replay_shows_the_deal_not_the_live_table(make_table):
    """If the log were broken, a delayed spectator would see the deal, never the live state."""
    match = start_people_table(make_table, delay=1)
    play(match, 3)
    match.refresh_from_db()
    move = match.moves.get(seq=1)
    match.moves.filter(pk=move.pk).update(action={"type": "play", "seat": 0, "cards": ["XX"]})
    cache.clear()
    assert visibility.visible_state(match.table, match, None).version == 0


# --- the delay and the count over sockets ----------------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_delayed_spectator_frames_trail_the_players_and_show_no_hand(
    make_table, make_user, close_db
):
    """Over sockets, a spectator's frames come when its delayed view moves on
    (``games.live.delay``'s wake-up), never on a live move: each is the state at least ``delay``
    moves back and names only that moment's public cards; the player's frames are live and hold
    its hand."""
    match = await sync_to_async(start_people_table)(make_table, 2)
    host = await sync_to_async(lambda: match.table.host)()
    ana = await connect(match.table_id, host)
    watcher = await connect(match.table_id, await sync_to_async(make_user)("watcher"))
    first_ana, first_watcher = await frame(ana), await frame(watcher)
    assert shown_version(first_ana) == 0 and shown_version(first_watcher) == 0
    pages = {"ana": Page(), "watcher": Page()}
    pages["ana"].apply(first_ana)
    pages["watcher"].apply(first_watcher)
    shown = 0
    for _ in range(5):
        await sync_to_async(play)(match, 1)
        live = await frame(ana)
        assert pages["ana"].apply(live) and header(live)["v"] == match.version
        hand = (await sync_to_async(services.load_state)(match)).hands[0]
        assert cards_in(pages["ana"].region("hand")) == set(hand)
        # No push on a live move: nothing but counts before a marker published after it (to
        # both: the marker reaches every page of the table), and no second frame for ana.
        got = await settled(match.table_id, [watcher, ana])
        assert all(is_spectator_count(text) for texts in got for text in texts)
        due = (await sync_to_async(DelayedView.objects.get)(match=match)).due_at
        if due is None:
            continue
        step = await sync_to_async(delay.advance)(match.pk, due)
        shown = step.new
        seen = await frame(watcher)
        assert pages["watcher"].apply(seen)
        assert header(seen)["v"] == shown == pages["watcher"].version
        assert match.version - shown >= 2
        past = await sync_to_async(replay.state_at)(match, shown)
        assert cards_in(pages["watcher"].html()) == public_cards(past)
        assert cards_in(seen) <= public_cards(past)
    assert shown == 3
    await ana.disconnect()
    await watcher.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_players_see_how_many_watch(make_user, close_db, monkeypatch):
    """A seated player's page shows the spectator count; it is pushed when someone starts or
    stops watching (signed in or not), and seated players are never counted."""
    # The count's debounce (0.5 s) is not what is tested here: 50 ms, four refreshes sooner.
    monkeypatch.setattr(renewals, "COUNT_REFRESH_SECONDS", 0.05)
    match, users = await sync_to_async(setup_match)(make_user)
    ana = await connect(match.table_id, users["ana"])
    assert shown_count(await frame(ana)) == 0
    bo = await connect(match.table_id, users["bo"])
    await frame(bo)
    # A player joining changes no count: no refresh pending, nothing before a marker.
    assert await settled(match.table_id, [ana]) == [[]]

    watcher = await connect(match.table_id, users["watcher"])
    assert shown_count(await frame(watcher)) == 1
    pushed = await ana.receive_from(timeout=10)
    assert is_spectator_count(pushed) and "1 spectator watching" in pushed
    anonymous = await connect(match.table_id)
    await frame(anonymous)
    assert shown_count(await ana.receive_from(timeout=10)) == 2
    assert await sync_to_async(spectating.count)(match.table_id) == 2

    await watcher.disconnect()
    assert shown_count(await ana.receive_from(timeout=10)) == 1
    await anonymous.disconnect()
    assert shown_count(await ana.receive_from(timeout=10)) == 0
    # A move's delta leaves the count alone: the page keeps showing it.
    page = Page()
    page.apply(
        await sync_to_async(lambda: push.snapshot(match.table_id, 0, users["ana"], "en")[0])()
    )
    await bo.send_to(json.dumps({"action": "play", "cards": ["5H"], "version": 0}))
    delta = await frame(ana)
    assert 'id="spectators"' not in delta and page.apply(delta)
    assert page.region("spectators") and cards_in(page.region("hand")) == set(HANDS[0])
    for ws in (ana, bo):
        await ws.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_spectator_frames_never_hold_a_hand_with_the_count_on(
    make_user, close_db, monkeypatch
):
    """The spectator's frames (regions and count) name no card of any hand."""
    # The count's debounce (0.5 s) is not what is tested here: 50 ms, its refresh sooner.
    monkeypatch.setattr(renewals, "COUNT_REFRESH_SECONDS", 0.05)
    match, users = await sync_to_async(setup_match)(make_user)
    watcher = await connect(match.table_id, users["watcher"])
    ana = await connect(match.table_id, users["ana"])
    assert cards_in(await frame(watcher)) == set()
    await frame(ana)
    other = await connect(match.table_id)
    await frame(other)
    pushed = await watcher.receive_from(timeout=10)
    assert is_spectator_count(pushed) and cards_in(pushed) == set()
    for ws in (watcher, ana, other):
        await ws.disconnect()


# --- presence in Redis -----------------------------------------------------------------------


@pytest.mark.django_db
def test_the_count_is_shared_and_forgets_silent_sockets(settings) -> None:
    """Sockets of any process count once each; a socket that stops renewing (its process died)
    drops out after the TTL, and a heartbeat keeps a live one in."""
    table_id = 987654
    for socket_id in ("daphne-1!a", "daphne-2!b", "daphne-2!b"):
        spectating.join(table_id, socket_id)
    assert spectating.count(table_id) == 2
    # A socket with no person of its own is its own person ("c:<socket>").
    spectating._redis().zadd(spectating.people_key(table_id), {"c:daphne-1!a": time.time() - 1})
    assert spectating.count(table_id) == 1
    assert spectating.leave(table_id, "daphne-2!b")
    assert spectating.count(table_id) == 0
    assert not spectating.leave(table_id, "daphne-2!b")


@pytest.mark.django_db
def test_an_unreachable_redis_shows_no_count_instead_of_failing(settings, make_table) -> None:
    """Without Redis the table page still renders, without a count."""
    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    redis_store._client.cache_clear()
    try:
        assert spectating.count(1) is None
        table = make_table(["ana", None, None, None])
        page = Client().get(reverse("games:table", args=[table.pk]))
        assert page.status_code == 200
    finally:
        redis_store._client.cache_clear()


# --- before the start ------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_full_table_says_the_host_can_start(make_user) -> None:
    """Every seat taken before the start: not "Waiting for players" but who can start."""
    ana, bo = make_user("ana"), make_user("bo")
    table = tables.create_table(ana, name="t", players=2, options={})
    guest = Client()
    guest.force_login(bo)
    page = guest.get(reverse("games:table", args=[table.pk])).content.decode()
    assert "Waiting for players" in page
    tables.take_seat(table.pk, bo, 1)
    page = guest.get(reverse("games:table", args=[table.pk])).content.decode()
    assert "Waiting for players" not in page and "The host can start the match now." in page
    host = Client()
    host.force_login(ana)
    page = host.get(reverse("games:table", args=[table.pk])).content.decode()
    assert "Start the match when you are ready." in page and 'id="start-match"' in page


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_heartbeat_renews_a_spectator_silently(make_user, close_db):
    """table.js's heartbeat renews the spectator's place in the count (at the process's next
    renewal) and gets no answer; a seated player's heartbeat counts nobody."""
    heartbeat = json.dumps({"heartbeat": 1, "version": 0})
    match, users = await sync_to_async(setup_match)(make_user)
    watcher = await connect(match.table_id, users["watcher"])
    ana = await connect(match.table_id, users["ana"])
    await frame(watcher)
    await frame(ana)
    key = spectating.sockets_key(match.table_id)
    members = await sync_to_async(spectating._redis().zrange)(key, 0, -1, withscores=True)
    ((member, before),) = members
    await sync_to_async(spectating._redis().zadd)(key, {member: before - 100})
    # The count refresh of the watcher pushed and received, nothing else before a marker.
    got = await settled(match.table_id, [watcher, ana])
    assert all(is_spectator_count(text) for texts in got for text in texts)
    await watcher.send_to(heartbeat)
    await ana.send_to(heartbeat)
    # No answer: nothing but counts before the answer to a message sent after the heartbeat.
    assert await handled(watcher) == [] and await handled(ana) == []
    await Renewals.current().flush()  # the process renews what its sockets' heartbeats noted
    ((_, after),) = await sync_to_async(spectating._redis().zrange)(key, 0, -1, withscores=True)
    assert after > before - 100 + 50
    assert await sync_to_async(spectating.count)(match.table_id) == 1
    for ws in (watcher, ana):
        await ws.disconnect()


@pytest.mark.django_db
def test_the_lobby_shows_how_many_watch_each_live_match(make_table) -> None:
    """The live matches list counts each table's spectators (one Redis round trip)."""
    table = make_table(["ana", None, None, None])
    tables.start(table.pk, table.host, seed=1)
    for socket_id in ("a", "b", "c"):
        spectating.join(table.pk, socket_id)
    assert spectating.counts([table.pk, 424242]) == {table.pk: 3, 424242: 0}
    lobby = Client().get(reverse("games:lobby")).content.decode()
    row = lobby.split(f'id="lobby-table-{table.pk}"', 1)[1].split("</li>", 1)[0]
    assert "3 watching" in row


@pytest.mark.django_db
def test_the_host_sets_the_spectator_delay_when_opening_a_table(client, user) -> None:
    """The create-table form takes the delay (0–50 plays); leaving it empty means none."""
    from games.models import Table

    client.force_login(user)
    data = {
        "name": "Delayed",
        "seats": "4",
        "target_level": "A",
        "claim_window_seconds": "4",
        "turn_seconds": "30",
        "two_position": "low",
        "bomb_order": "four_one_four_top",
        "lead_after_out": "teammate",
        "first_lead": "top_payer",
        "visibility": "public",
    }
    assert (
        client.post(reverse("games:create_table"), {**data, "spectator_delay": "4"}).status_code
        == 302
    )
    assert Table.objects.get(name="Delayed").spectator_delay == 4
    client.post(reverse("games:create_table"), {**data, "name": "Live"})
    assert Table.objects.get(name="Live").spectator_delay == 0
    response = client.post(
        reverse("games:create_table"), {**data, "name": "Too late", "spectator_delay": "51"}
    )
    assert response.status_code == 200 and not Table.objects.filter(name="Too late").exists()
