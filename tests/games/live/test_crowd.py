"""A crowd of spectators costs the seats nothing — proved by counting, not by timing (issue #9,
item 3; the figures are in docs/PERFORMANCE.md).

Two tables in the same state, each with four seated people on real sockets: one watched by a
single spectator, one by 200. The same play on each costs the same SQL statements (in every
thread), the same template renders and the same channel-layer sends, and every one of the 200
spectators gets the frame rendered once for them all. A table with no spectator at all costs
exactly one spectators' frame less. The 200 arriving render the table's full frame about once a
second between them, not once each. Real consumers, the real Redis channel layer, PostgreSQL.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from contextlib import contextmanager

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.db import connections
from django.test.signals import template_rendered

from config.asgi import application
from games.live import kept, regions
from tests.games.live.test_query_counts import StatementCounter, act, four_people
from tests.games.pages import header
from tests.games.sockets.settle import settled
from tests.games.sockets.test_consumers import cookie_for, frame, is_spectator_count

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

CROWD = 200


@pytest.fixture(autouse=True)
async def _close_db_connections():
    yield
    await sync_to_async(connections.close_all)()


@contextmanager
def counting(monkeypatch):
    """Count, in every thread, SQL statements, templates rendered (by name) and channel-layer
    group sends (by kind of group: a seat's or the spectators'), while the block runs."""
    costs = {"renders": Counter(), "sends": Counter(), "statements": 0}
    kept.forget()  # a partial kept from an earlier table's push would be one render fewer

    def rendered(sender, template=None, **kwargs) -> None:
        costs["renders"][getattr(template, "name", None)] += 1

    # The Jinja partials (games.live.jinja) send no template_rendered signal: counted here.
    render_jinja = regions.render_jinja

    def counted_jinja(template: str, *args, **kwargs) -> str:
        costs["renders"][template] += 1
        return render_jinja(template, *args, **kwargs)

    monkeypatch.setattr(regions, "render_jinja", counted_jinja)
    layer = get_channel_layer()
    group_send, publish_many = layer.group_send, layer.publish_many

    def count(group: str, message: dict) -> None:
        _, _, audience = group.partition(".")  # table-<id>.<s2.en | w.en | api>, or table-wide
        kind = (
            "spectators"
            if audience.startswith("w.")
            else "seats"
            if audience.startswith("s")
            else "bots"
            if audience == "api"
            else group.split("-")[0]
        )
        if kind == "bots":  # the bot streams' wake-up: the version alone, nothing rendered
            assert set(message) == {"type", "v"}, message
        costs["sends"][kind] += 1

    async def counted_send(group: str, message: dict) -> None:
        count(group, message)
        await group_send(group, message)

    def counted_publish_many(messages: list[tuple[str, dict]]) -> None:
        for group, message in messages:  # a push's messages: one pipeline, counted one by one
            count(group, message)
        publish_many(messages)

    monkeypatch.setattr(layer, "group_send", counted_send)
    monkeypatch.setattr(layer, "publish_many", counted_publish_many)
    template_rendered.connect(rendered, dispatch_uid="crowd-test")
    try:
        with StatementCounter() as counter:
            yield costs
            costs["statements"] = counter.count
    finally:
        template_rendered.disconnect(dispatch_uid="crowd-test")
        monkeypatch.setattr(layer, "group_send", group_send)
        monkeypatch.setattr(layer, "publish_many", publish_many)
        monkeypatch.setattr(regions, "render_jinja", render_jinja)


async def connect(table_id: int, user=None) -> WebsocketCommunicator:
    """A table socket (signed in as ``user``, else anonymous), accepted; a crowd connecting
    at once on a busy machine takes longer than the communicator's default second."""
    headers = [(b"origin", b"http://localhost")]
    if user is not None:
        headers.append((b"cookie", await sync_to_async(cookie_for)(user)))
    ws = WebsocketCommunicator(application, f"/ws/table/{table_id}/", headers=headers)
    connected, _ = await ws.connect(timeout=60)
    assert connected
    return ws


async def watched_table(make_user, prefix: str, spectators: int):
    """A started table: four people with their sockets open, and ``spectators`` anonymous
    spectator sockets, arriving 50 at once; everything they were sent on connecting has been
    read. Also returns the crowd's arrival: the log region's full renders while the spectators
    connected and read their first frames, and the seconds that took."""
    match, people = await sync_to_async(four_people)(make_user, prefix, 0)
    seats = [await connect(match.table_id, person) for person in people]
    for ws in seats:
        assert 'id="hand"' in await frame(ws)
    full_renders: Counter = Counter()

    def rendered(sender, template=None, **kwargs) -> None:
        full_renders[getattr(template, "name", None)] += 1

    crowd: list[WebsocketCommunicator] = []
    template_rendered.connect(rendered, dispatch_uid="crowd-arrival")
    try:
        started = time.monotonic()
        for start in range(0, spectators, 50):
            crowd += await asyncio.gather(
                *(connect(match.table_id) for _ in range(start, min(start + 50, spectators)))
            )
        # Every count refresh pending pushed and received (a late one, counted with the play,
        # was 72 statements more), and every frame on its way read: a barrier, not a quiet
        # second.
        got = await settled(match.table_id, seats + crowd)
        arrival = {
            "log_renders": full_renders[regions.LOG.template],
            "seconds": time.monotonic() - started,
        }
    finally:
        template_rendered.disconnect(dispatch_uid="crowd-arrival")
    for texts in got[len(seats) :]:  # each spectator's first frame: the table's full frame
        assert 'id="hand"' in next((t for t in texts if not is_spectator_count(t)), "")
    return match, people, seats, crowd, arrival


async def play_and_count(monkeypatch, match, people, seats, crowd) -> dict:
    """Seat 1 plays 9D; counted until every seat and spectator holds its frame."""
    with counting(monkeypatch) as costs:
        await sync_to_async(act)(
            match, people[1], {"action": "play", "cards": ["9D"], "version": 0}
        )
        costs["seat_frames"] = [await frame(ws) for ws in seats]
        costs["crowd_frames"] = [await frame(ws) for ws in crowd]
    return costs


async def test_two_hundred_spectators_cost_a_seats_push_nothing(make_user, monkeypatch, settings):
    """The same play with 1 and with 200 spectators watching: equal statements, renders and
    sends; the 200 spectators' frames are one render (one text, one send). With nobody
    watching, the play costs exactly one spectators' frame less and the same statements.

    And the 200 arriving (50 at once) render the table's full frame about once a second
    between them (``push.SNAPSHOT_REUSE_SECONDS``), not once each: counted on the same crowd
    (it was a second test with a crowd of its own, 200 more sockets' CPU)."""
    # The seats' pages of one round close before the next round's play is counted: their away
    # check (games.live.away, after its grace) would add its own statements to that count.
    settings.GAMES_AWAY_GRACE_SECONDS = 3600
    costs, arrival = {}, {}
    for spectators in (0, 1, CROWD):
        match, people, seats, crowd, arrival[spectators] = await watched_table(
            make_user, f"t{spectators}-", spectators
        )
        costs[spectators] = await play_and_count(monkeypatch, match, people, seats, crowd)
        for ws in seats + crowd:
            await ws.disconnect()

    one, many, none = costs[1], costs[CROWD], costs[0]
    assert many["statements"] == one["statements"] == none["statements"]
    assert many["renders"] == one["renders"]
    assert many["sends"] == one["sends"] == {**none["sends"], "spectators": 1}
    # One frame per seat's group, and the bot streams' wake-up (a version, no card): nothing
    # rendered goes table-wide.
    assert none["sends"] == {"seats": 4, "bots": 1}
    # The spectators' one frame: rendered once, the same text for all 200, and a delta.
    texts = set(many["crowd_frames"])
    assert len(many["crowd_frames"]) == CROWD and len(texts) == 1
    shown = header(texts.pop())
    assert (shown["v"], shown["b"], shown["full"]) == (1, 0, False)
    # Without spectators, only the spectators' share of the renders is missing.
    assert sum(none["renders"].values()) < sum(one["renders"].values())
    for seat_frame in many["seat_frames"]:
        assert header(seat_frame)["v"] == 1
    # The crowd's arrival: the log region is in full frames only.
    came = arrival[CROWD]
    assert came["log_renders"] <= int(came["seconds"]) + 2 < CROWD, came
