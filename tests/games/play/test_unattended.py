"""A casual match nobody is at any more stops (``games.play.unattended``), on PostgreSQL and real
Redis: the last person to leave for good stops it at once; with every person's seat played by
their stand-in and no page of a seated person open, the first AI turn past
``GAMES_UNATTENDED_STOP_SECONDS`` stops it instead of playing. Rated tables and tables an
organiser schedules play on to their end.

No worker runs here: an AI turn is ``deadlines.ai_act`` itself, called as the worker's task
would call it, and a page opening or closing is ``away.check`` / ``away.closed``, as the table
socket calls them. The worker does the same in ``test_unattended_worker.py``.
"""

from __future__ import annotations

import html
import time

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.engine.deal import start_round
from games.engine.rules import seats_to_act
from games.live import away
from games.models import Match, Move, Seat, Table
from games.play import deadlines, services, standins, stewarding, tables
from games.play.outcomes import Result
from tests.games.conftest import install_state
from tests.games.play.test_standins import (
    HANDS,
    OPTIONS,
    duel,  # noqa: F401 - a fixture
    now,
    seat_of,
)

pytestmark = pytest.mark.django_db

STOPPED = "This match was stopped."
WHY = (
    "Every player had left the table or been away from it for a while, so the AI players "
    "stopped too. The match has no result."
)


def control(match: Match, user, action: str) -> Result:
    """``user``'s stand-in request, naming their seat's latest hand-over."""
    seq = Seat.objects.get(table_id=match.table_id, user=user).stand_in_seq
    return standins.control(match.pk, user, {"action": action, "stand_in_seq": seq})


def ai_turn(match: Match) -> bool:
    """The AI seat to act decides at the match's running moment, as the worker's ``ai_act``
    task does; whether it acted."""
    match = now(match)
    (number,) = seats_to_act(services.load_state(match))
    assert seat_of(match, number).ai_policy, "the seat to act is an AI's"
    return deadlines.ai_act(match.pk, number, match.deadline_token)


def status(match: Match) -> str:
    return Table.objects.values_list("status", flat=True).get(pk=match.table_id)


def moves(match: Match) -> int:
    return Move.objects.filter(match=match).count()


def schedule(table: Table) -> None:
    """A league's fixture plays at ``table`` (the organiser's own row, as leagues make it)."""
    from leagues.models import Fixture, League, Season

    league = League.objects.create(name="L", slug=f"l-{table.pk}")
    today = timezone.now().date()
    season = Season.objects.create(league=league, name="S", starts_on=today, ends_on=today)
    Fixture.objects.create(season=season, table=table)


def a_match(make_table, **fields) -> tuple[Match, object, object]:
    """ana (seat 0) and bo (seat 1) at a two-seat table of ``fields``, ana to lead."""
    table = make_table(["ana", "bo"], OPTIONS, **fields)
    match = tables.start(table.pk, table.host, seed=4)
    install_state(match, start_round(table.engine_options(), HANDS, 2, leader=0, seed=4))
    return match, seat_of(match, 0).user, seat_of(match, 1).user


def pending_wake_ups_do_nothing(match: Match, token: int) -> None:
    """Every wake-up the running moment ``token`` had sent finds nothing to do."""
    count = moves(match)
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now())  # (it is None: cleared)
    assert not deadlines.expire(match.pk, token)
    for number in (0, 1):
        assert not deadlines.ai_act(match.pk, number, token)
        assert not deadlines.ai_answer(match.pk, number, token)
    assert moves(match) == count


# --- the last person leaves for good -----------------------------------------------------------


def test_the_last_person_to_leave_stops_a_casual_match(duel):  # noqa: F811
    """bo leaves: ana still plays, the match goes on. ana leaves too: nobody holds a seat, so
    the match stops in her request's transaction — the table abandoned, its deadline cleared,
    its token moved — and her request is answered as any leave; the wake-ups already sent for
    the running moment do nothing."""
    match, ana, bo = duel
    assert control(match, bo, "leave").ok
    assert status(match) == Table.Status.PLAYING
    token, version = now(match).deadline_token, now(match).version
    result = control(match, ana, "leave")
    assert (result.ok, result.code, result.version) == (True, "", version)
    stopped = now(match)
    assert stopped.table.status == Table.Status.ABANDONED
    assert stopped.deadline is None and stopped.deadline_token == version + 1
    assert seat_of(match, 0).stand_in == Seat.StandIn.LEFT
    pending_wake_ups_do_nothing(match, token)
    assert control(match, ana, "stand_in").code == "abandoned"
    resign = {"action": "resign", "version": version}
    assert services.submit(match.pk, ana, resign).code == "abandoned"


def test_a_leave_stops_nothing_while_a_person_still_holds_a_seat(duel):  # noqa: F811
    """ana lets the AI play for her but keeps her seat: bo's leave leaves her there, and the
    match goes on (the wait for nobody being there is the other rule's, below)."""
    match, ana, bo = duel
    assert control(match, ana, "stand_in").ok
    assert control(match, bo, "leave").ok
    assert status(match) == Table.Status.PLAYING
    assert now(match).deadline is not None
    assert ai_turn(match)


def test_a_rated_table_is_never_left_nor_stopped_so(make_table):
    """At a rated table nobody may leave: the request is refused and the match goes on."""
    match, ana, bo = a_match(make_table, rated=True)
    assert control(match, bo, "leave").code == "leave_rated"
    assert control(match, ana, "leave").code == "leave_rated"
    assert status(match) == Table.Status.PLAYING


def test_a_scheduled_casual_table_plays_on_after_its_last_person_leaves(make_table):
    """A casual league fixture's result still matters: when both its people leave, the AI plays
    their seats on."""
    match, ana, bo = a_match(make_table)
    schedule(match.table)
    assert control(match, bo, "leave").ok and control(match, ana, "leave").ok
    assert status(match) == Table.Status.PLAYING
    assert ai_turn(match)


def test_every_page_says_the_match_was_stopped_and_why(duel):  # noqa: F811
    """Once everyone left, the table page — of either person, who both watch as spectators now,
    and of a spectator — says the match was stopped and why, offers no turn, no Play button,
    no seat menu. A match an organiser stopped while people played says it was stopped only."""
    match, ana, bo = duel
    assert control(match, bo, "leave").ok and control(match, ana, "leave").ok
    for person in (ana, bo, None):
        text = page_of(match, person)
        assert STOPPED in text and WHY in text
        assert 'id="turn-line"' not in text and 'id="play-button"' not in text
        assert 'id="leave-button"' not in text and 'id="stand-in-button"' not in text
        assert "The AI finishes it for you." not in text

    other, cy, _dee = a_match_of(match, ["cy", "dee"])
    stewarding.abandon(other.table_id)
    text = page_of(other, cy)
    assert STOPPED in text and WHY not in text
    assert 'id="turn-line"' not in text and 'id="play-button"' not in text
    assert 'id="stand-in-button"' not in text


def page_of(match: Match, person) -> str:
    """The table page of ``match`` as ``person`` (None: a visitor) gets it, entities decoded."""
    client = Client()
    if person is not None:
        client.force_login(person)
    response = client.get(reverse("games:table", args=[match.table_id]))
    assert response.status_code == 200
    return html.unescape(response.content.decode())


def a_match_of(match: Match, names: list[str]) -> tuple[Match, object, object]:
    """Another casual two-seat match like ``match``'s, of the new people ``names``."""
    from accounts.models import User

    host, guest = (User.objects.create_user(username=name, password="x-414-club") for name in names)
    table = tables.create_table(host, name="other", players=2, options=OPTIONS)
    tables.take_seat(table.pk, guest, 1)
    other = tables.start(table.pk, host, seed=4)
    install_state(other, start_round(table.engine_options(), HANDS, 2, leader=0, seed=4))
    return other, host, guest


# --- nobody there for a while ------------------------------------------------------------------


@pytest.fixture
def stood_in(duel, settings):  # noqa: F811
    """The duel with both people's seats played by their stand-ins (asked), no page open, and
    a short wait (set by each test)."""
    settings.GAMES_AWAY_GRACE_SECONDS = 0  # a page that closes is gone at once
    match, ana, bo = duel
    assert control(match, ana, "stand_in").ok and control(match, bo, "stand_in").ok
    return match, ana, bo


def test_nobody_there_stops_the_match_at_the_first_ai_turn_past_the_wait(stood_in, settings):
    """The first AI turn with nobody there starts the wait and plays; the first one past it
    stops the match instead of playing, and the running moment's wake-ups do nothing."""
    settings.GAMES_UNATTENDED_STOP_SECONDS = 0.3
    match, _ana, _bo = stood_in
    assert ai_turn(match)
    time.sleep(0.4)
    token, count = now(match).deadline_token, moves(match)
    assert not ai_turn(match)
    stopped = now(match)
    assert stopped.table.status == Table.Status.ABANDONED and stopped.deadline is None
    assert moves(match) == count
    pending_wake_ups_do_nothing(match, token)


def test_the_stand_ins_play_on_until_the_wait_is_over(stood_in, settings):
    settings.GAMES_UNATTENDED_STOP_SECONDS = 60
    match, _ana, _bo = stood_in
    for _ in range(3):
        assert ai_turn(match)
    assert status(match) == Table.Status.PLAYING


def test_zero_never_stops_a_match(stood_in, settings):
    settings.GAMES_UNATTENDED_STOP_SECONDS = 0
    match, _ana, _bo = stood_in
    assert ai_turn(match)
    time.sleep(0.1)
    assert ai_turn(match) and status(match) == Table.Status.PLAYING


def test_an_open_page_keeps_the_match_going_and_its_return_starts_the_wait_again(
    stood_in, settings
):
    """ana's page open (her stand-in playing) keeps the match going past the wait. Nobody there
    from then; her page back a while later starts the wait again: a turn that would be past
    the first wait plays, and only the first turn past the new one stops the match."""
    settings.GAMES_UNATTENDED_STOP_SECONDS = 2.0
    match, _ana, _bo = stood_in
    table_id = match.table_id
    away.check(table_id, (0, "ana-tab"))  # her page opens, as her table socket says
    assert ai_turn(match)
    time.sleep(2.1)
    assert ai_turn(match), "a seated person's page is open"
    away.closed(table_id, 0, "ana-tab")
    assert ai_turn(match)  # nobody there from now: the wait starts
    time.sleep(1.5)
    away.check(table_id, (0, "ana-tab-2"))
    assert ai_turn(match)  # seen back: the wait is over without a stop
    away.closed(table_id, 0, "ana-tab-2")
    time.sleep(0.5)
    assert ai_turn(match), "2 s since nobody first was there, but not since she came back"
    time.sleep(2.1)
    assert not ai_turn(match)
    assert status(match) == Table.Status.ABANDONED


def test_only_a_seated_persons_page_counts(duel, settings):  # noqa: F811
    """bo left (his page, still listed under his old seat until it lapses, counts no more); ana's
    stand-in plays with no page of hers open: the match stops after the wait."""
    settings.GAMES_UNATTENDED_STOP_SECONDS = 0.3
    match, ana, bo = duel
    assert control(match, ana, "stand_in").ok
    away.check(match.table_id, (1, "bo-tab"))
    assert control(match, bo, "leave").ok
    assert status(match) == Table.Status.PLAYING
    assert ai_turn(match)
    time.sleep(0.4)
    assert not ai_turn(match)
    assert status(match) == Table.Status.ABANDONED


def test_a_hand_over_starts_the_wait_again(stood_in, settings):
    """ana takes her seat back ("I'm back") and hands it over again between two AI turns: the
    wait counts from the new seating, not from the first."""
    settings.GAMES_UNATTENDED_STOP_SECONDS = 1.0
    match, ana, _bo = stood_in
    assert ai_turn(match)
    time.sleep(1.1)
    assert control(match, ana, "back").ok and control(match, ana, "stand_in").ok
    assert ai_turn(match)
    time.sleep(1.1)
    assert not ai_turn(match)
    assert status(match) == Table.Status.ABANDONED


@pytest.mark.parametrize("kind", ["rated", "scheduled"])
def test_a_rated_or_scheduled_table_never_stops_so(make_table, settings, kind):
    """Rated and organisers' tables: their results matter, so their stand-ins play on with
    nobody there, long past the wait."""
    settings.GAMES_UNATTENDED_STOP_SECONDS = 0.2
    match, ana, bo = a_match(make_table, rated=kind == "rated")
    if kind == "scheduled":
        schedule(match.table)
    assert control(match, ana, "stand_in").ok and control(match, bo, "stand_in").ok
    assert ai_turn(match)
    time.sleep(0.3)
    assert ai_turn(match) and ai_turn(match)
    assert status(match) == Table.Status.PLAYING


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_every_socket_is_sent_the_stopped_table_when_the_last_person_leaves(make_user):
    """bo, then ana leave for good over their table sockets (two AI seats stay): the second
    leave stops the match, and every page — theirs, both spectators' now, and a spectator's —
    gets a snapshot saying it was stopped and why; ana is told she left, not that the AI
    finishes the match for her."""
    from asgiref.sync import sync_to_async
    from django.db import connections

    from tests.games.pages import Page
    from tests.games.sockets.test_consumers import connect, frame, setup_match
    from tests.servers import wait_for

    def left(user) -> bool:
        return Seat.objects.filter(user=user, stand_in=Seat.StandIn.LEFT).exists()

    match, users = await sync_to_async(setup_match)(make_user)
    try:
        sockets = {name: await connect(match.table_id, users[name]) for name in users}
        pages = {name: Page() for name in sockets}
        for name, ws in sockets.items():
            assert pages[name].apply(await frame(ws))  # the connect snapshot
        for name in ("bo", "ana"):  # one after the other: ana's leave is the last
            leave = {"action": "leave", "stand_in_seq": "0", "client_id": f"l-{name}"}
            await sockets[name].send_json_to(leave)
            assert await sync_to_async(wait_for)(lambda name=name: left(users[name]), 30)
        said = []
        for name, ws in sockets.items():
            while STOPPED not in pages[name].region("status"):
                text = await ws.receive_from(timeout=30)
                said.append((name, text))
                pages[name].apply(text)
            assert WHY in html.unescape(pages[name].region("status")), name
        while not any(name == "ana" and 'id="flash"' in text for name, text in said):
            said.append(("ana", await sockets["ana"].receive_from(timeout=30)))
        flash = next(text for name, text in said if name == "ana" and 'id="flash"' in text)
        assert "You left this match." in flash and "finishes it for you" not in flash
        assert await sync_to_async(status)(match) == Table.Status.ABANDONED
        for ws in sockets.values():
            await ws.disconnect()
    finally:
        await sync_to_async(connections.close_all)()
