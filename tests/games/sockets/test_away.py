"""A seat whose player's page went away shows it to everyone at the table, live, and no longer
once the page is back (``games.live.away``): after a short grace (a reload never shows it), per
seat, not per tab (a second tab opening or closing flips nothing), never on an AI seat nor on a
seat whose stand-in already says the player is away.

Runs the real ASGI application over the real Redis channel layer and PostgreSQL, as
``test_consumers`` does; the grace is shortened to keep the test quick.
"""

from __future__ import annotations

import asyncio
import json
import re

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.db import connections

from games.live import audiences, away, notify, redis_store
from games.live.audiences import Audience
from games.play import services
from games.sockets.renewals import Renewals
from tests.games.pages import header
from tests.games.sockets.test_consumers import connect, frame, nothing_but_counts, setup_match

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

GRACE = 0.6
#: A seat's away sign, as any page has it.
SIGN = re.compile(r'<span class="badge away" id="away-(\d)"')
#: A seat's name line pushed alone (where its sign is).
LINE = re.compile(r'<div class="seat-name" hx-swap-oob="outerHTML:#seat-(\d) .seat-name">')


@pytest.fixture(autouse=True)
async def _short_grace(settings):
    settings.GAMES_AWAY_GRACE_SECONDS = GRACE
    yield
    await sync_to_async(connections.close_all)()


def away_seats(text: str) -> set[int]:
    """The seats ``text`` shows away."""
    return {int(seat) for seat in SIGN.findall(text)}


def lines(text: str) -> set[int]:
    """The seats whose name line ``text`` pushes alone."""
    return {int(seat) for seat in LINE.findall(text)}


async def next_sign(ws) -> str:
    """The next message that pushes the seats' name lines (spectator counts skipped)."""
    while True:
        text = await frame(ws)
        if lines(text):
            return text


def forget(table_id: int) -> None:
    """Delete what an earlier run left for this table id (test databases repeat them)."""
    redis_store.client().delete(away.pages_key(table_id), away.shown_key(table_id))


async def start(make_user):
    match, users = await sync_to_async(setup_match)(make_user)
    await sync_to_async(forget)(match.table_id)
    return match, users


async def test_a_closed_page_shows_after_the_grace_and_its_return_clears_it(make_user):
    match, users = await start(make_user)
    ana = await connect(match.table_id, users["ana"])
    bo = await connect(match.table_id, users["bo"])
    watcher = await connect(match.table_id, users["watcher"])
    for ws in (ana, bo, watcher):
        snapshot = await frame(ws)
        assert away_seats(snapshot) == set()
    await bo.disconnect()
    # Within the grace: nothing (a reload would be back by then).
    assert await nothing_but_counts(ana, timeout=GRACE / 2)
    for ws in (ana, watcher):
        sign = await next_sign(ws)
        assert header(sign) is None  # not a frame of the match: its version is untouched
        assert lines(sign) == {0, 1, 2, 3} and away_seats(sign) == {1}
    # A page opened now shows it from its first snapshot.
    late = await connect(match.table_id)
    assert away_seats(await frame(late)) == {1}
    # A move while bo is away (made for them) re-sends their row: the sign stays on it.
    result = await sync_to_async(services.submit)(
        match.pk, users["bo"], {"action": "play", "cards": ["5H"], "version": 0}
    )
    assert result.ok
    for ws in (ana, watcher, late):
        delta = await frame(ws)
        assert header(delta)["v"] == 1 and 'id="seat-1"' in delta
        assert away_seats(delta) == {1}
    # bo is back: the sign goes at once, for everyone.
    bo = await connect(match.table_id, users["bo"])
    got = [await frame(bo), await frame(bo)]  # its snapshot and the change, in either order
    snapshot = next(text for text in got if header(text) is not None)
    change = next(text for text in got if header(text) is None)
    assert away_seats(snapshot) == set() and away_seats(change) == set()
    own_line = next(line for line in change.split("</div>") if "#seat-1 " in line)
    assert 'class="badge you"' in own_line  # its own seat's line, as its own
    for ws in (ana, watcher, late):
        sign = await next_sign(ws)
        assert lines(sign) == {0, 1, 2, 3} and away_seats(sign) == set()
    for ws in (ana, bo, watcher, late):
        await ws.disconnect()


#: The grace of the reload test: its close and open must fit in it however busy the machine
#: (at load 15 they took over ``GRACE``, and the sign showed).
RELOAD_GRACE = 3.0


async def test_a_second_tab_or_a_reload_flips_nothing(make_user, settings):
    settings.GAMES_AWAY_GRACE_SECONDS = RELOAD_GRACE
    match, users = await start(make_user)
    ana = await connect(match.table_id, users["ana"])
    bo = await connect(match.table_id, users["bo"])
    await frame(ana), await frame(bo)
    second = await connect(match.table_id, users["bo"])
    await frame(second)
    await second.disconnect()  # bo's first tab is still open
    await bo.disconnect()  # a reload: closed, then open again within the grace
    bo_again = await connect(match.table_id, users["bo"])
    await frame(bo_again)
    assert await nothing_but_counts(ana, timeout=RELOAD_GRACE + 1.0)
    assert await sync_to_async(away.shown_away)(match.table_id) == frozenset()
    await ana.disconnect()
    await bo_again.disconnect()


async def test_a_silent_page_shows_at_its_process_renewal(make_user):
    """A phone that sleeps or loses the network closes nothing: its page stops its heartbeats,
    and the renewal that no longer finds it heard from lets it lapse, then shows it."""
    match, users = await start(make_user)
    ana = await connect(match.table_id, users["ana"])
    bo = await connect(match.table_id, users["bo"])
    await frame(ana), await frame(bo)
    renewals = Renewals.current()
    bo_socket = next(s for s in renewals.sockets if s.seat == 1)
    bo_socket.heard_at -= away.SILENT_SECONDS + 1  # heard last that long ago
    await renewals.flush(now=bo_socket.heard_at + away.SILENT_SECONDS + 1)
    assert away_seats(await next_sign(ana)) == {1}
    # Its heartbeats come again (the network is back): the next renewal clears it.
    await bo.send_to(json.dumps({"heartbeat": 1, "version": 0}))
    await asyncio.sleep(0.1)
    await renewals.flush()
    assert away_seats(await next_sign(ana)) == set()
    await ana.disconnect()
    await bo.disconnect()


async def test_ai_seats_and_stand_ins_never_show_it(make_user):
    """Seats 2 and 3 are AI: never a sign. A seat the AI plays for its player already says
    "away: the AI plays": its page closing sends nobody anything."""
    match, users = await start(make_user)
    ana = await connect(match.table_id, users["ana"])
    bo = await connect(match.table_id, users["bo"])
    await frame(ana), await frame(bo)
    await bo.send_to(
        json.dumps({"action": "stand_in", "stand_in_seq": "0", "version": 0, "client_id": "s1"})
    )
    standing_in = await frame(ana)  # the hand-over's snapshot
    assert "stand-in-1" in standing_in and away_seats(standing_in) == set()
    await bo.disconnect()
    assert await nothing_but_counts(ana, timeout=GRACE + 1.0)
    assert away.displayed(await sync_to_async(_seats)(match), frozenset({1, 2, 3})) == ()
    watcher = await connect(match.table_id, users["watcher"])
    assert away_seats(await frame(watcher)) == set()
    await ana.disconnect()
    await watcher.disconnect()


def _seats(match):
    return list(match.table.seats.select_related("user"))


async def test_a_frame_rendered_before_a_change_is_followed_by_that_change_again(make_user):
    """A move's frame reads the signs with its audiences, then renders: a change pushed
    meanwhile can reach the page first. The socket sends the change again after that frame,
    so the page ends with the newest signs; a frame rendered with them needs nothing more."""
    match, users = await start(make_user)
    ana = await connect(match.table_id, users["ana"])
    shown_frame = header(await frame(ana))
    layer = get_channel_layer()
    change = {"en": {"0": ["<p>others-50</p>", "<p>own-50</p>"], "1": ["<p>1</p>", "<p>1!</p>"]}}
    await layer.group_send(
        notify.table_group(match.table_id), {"type": "table.away", "seq": 50, "html": change}
    )
    assert await frame(ana) == "<p>own-50</p><p>1</p>"  # ana's seat's line as her own
    group = audiences.group(match.table_id, Audience(0, "en"))
    for seq, again in ((49, True), (50, False)):
        text = f'<!--frame {{"v":{shown_frame["v"]},"r":{shown_frame["r"]},"full":true}}-->{seq}'
        message = {"type": "table.frame", "text": text, "full": True, "s": 0, "a": seq}
        await layer.group_send(group, {**message, "v": shown_frame["v"], "r": shown_frame["r"]})
        assert await frame(ana) == text
        if again:
            assert await frame(ana) == "<p>own-50</p><p>1</p>"
    # An older change than the page's is dropped.
    older = {"type": "table.away", "seq": 49, "html": change}
    await layer.group_send(notify.table_group(match.table_id), older)
    assert await nothing_but_counts(ana, timeout=0.5)
    await ana.disconnect()
