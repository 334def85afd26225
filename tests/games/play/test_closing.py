"""Closing a table that never started (``games.play.tables.close_table``, ``leave_seat``): by its
host's "Close table", or when the last one seated stands up and leaves every seat empty. A closed
table leaves the lobby, no longer counts among its host's tables (``check_hosting``), refuses
seats, and its page and every socket on it say it was closed."""

from __future__ import annotations

import html

import pytest
from asgiref.sync import sync_to_async
from django.db import connections
from django.test import Client
from django.urls import reverse

from games.live import lobby
from games.models import Seat, Table
from games.play import rematches, tables
from tests.games.conftest import page
from tests.games.play.test_rematches import finished  # noqa: F401 - a fixture
from tests.games.play.test_table_setup import messages_of

pytestmark = pytest.mark.django_db

CLOSED = "This table was closed"
REFUSED_CLOSED = "This table was closed before its match started."


def open_table(host, players: int = 4) -> Table:
    return tables.create_table(host, name="waiting", players=players, options={})


def close(client: Client, table: Table, **extra):
    return client.post(reverse("games:close_table", args=[table.pk]), **extra)


def status_of(table: Table) -> str:
    return Table.objects.values_list("status", flat=True).get(pk=table.pk)


def public_open_ids() -> set[int]:
    return {t.pk for t in lobby._load_public()["open"]}


def mine_ids(user) -> set[int]:
    return {t.pk for t in lobby._load_mine(user.pk)}


# --- the host closes ----------------------------------------------------------------------------


def test_the_host_closes_a_waiting_table_and_may_open_another(client, make_user, settings):
    """At the cap, closing one waiting table frees a place: it leaves the lobby's lists (public
    and the host's own), refuses seats with a message, and its page says it was closed."""
    settings.GAMES_MAX_HOSTED_TABLES = 2
    ana, bo = make_user("ana"), make_user("bo")
    first, second = open_table(ana), open_table(ana)
    with pytest.raises(tables.TableError):
        open_table(ana)
    assert first.pk in public_open_ids() and first.pk in mine_ids(ana)
    client.force_login(ana)
    response = close(client, first)
    assert response.status_code == 302 and response.url == first.get_absolute_url()
    assert status_of(first) == Table.Status.ABANDONED
    assert status_of(second) == Table.Status.OPEN
    assert first.pk not in public_open_ids() and first.pk not in mine_ids(ana)
    assert second.pk in public_open_ids()
    open_table(ana)  # one place is free again
    with pytest.raises(tables.TableError):
        open_table(ana)
    # The closed table's page: 200, says so, offers no seat or host control.
    for viewer in (ana, bo, None):
        other = Client()
        if viewer is not None:
            other.force_login(viewer)
        text = page(other, first)
        assert CLOSED in text
        assert 'id="close-table"' not in text and 'id="fill-ai"' not in text
        assert "/take/" not in text
    other = Client()
    other.force_login(bo)
    refused = other.post(reverse("games:take_seat", args=[first.pk]), {"seat": "1"})
    assert messages_of(refused) == [REFUSED_CLOSED]
    assert not Seat.objects.filter(table=first, user=bo).exists()
    with pytest.raises(tables.TableError, match=REFUSED_CLOSED):
        tables.close_table(first.pk, ana)


def test_only_the_host_sees_and_uses_close_table(client, make_user):
    """The button is the host's, on a waiting table only; anyone else's post is refused and
    changes nothing."""
    ana, bo = make_user("ana"), make_user("bo")
    table = open_table(ana)
    tables.take_seat(table.pk, bo, 1)
    client.force_login(ana)
    assert 'id="close-table"' in page(client, table)
    other = Client()
    other.force_login(bo)
    assert 'id="close-table"' not in page(other, table)
    response = close(other, table)
    assert messages_of(response) == ["Only the host can do that."]
    assert status_of(table) == Table.Status.OPEN


def test_a_started_table_cannot_be_closed(client, make_user):
    ana = make_user("ana")
    table = open_table(ana)
    tables.fill_with_ai(table.pk, ana)
    tables.start(table.pk, ana, seed=3)
    client.force_login(ana)
    assert 'id="close-table"' not in page(client, table)
    response = close(client, table)
    assert messages_of(response) == ["The match at this table has started."]
    assert status_of(table) == Table.Status.PLAYING


def test_close_table_is_a_csrf_protected_post_for_a_signed_in_host(make_user):
    ana = make_user("ana")
    table = open_table(ana)
    anonymous = close(Client(), table)
    assert anonymous.status_code == 302 and "/login/" in anonymous.url
    client = Client(enforce_csrf_checks=True)
    client.force_login(ana)
    assert client.get(reverse("games:close_table", args=[table.pk])).status_code == 405
    assert close(client, table).status_code == 403  # no token
    assert status_of(table) == Table.Status.OPEN
    token = client.get(table.get_absolute_url()).context["csrf_token"]
    assert close(client, table, HTTP_X_CSRFTOKEN=str(token)).status_code == 302
    assert status_of(table) == Table.Status.ABANDONED


def test_htmx_close_answers_empty_or_with_the_refusal(client, make_user):
    ana, bo = make_user("ana"), make_user("bo")
    table = open_table(ana)
    client.force_login(bo)
    refused = close(client, table, HTTP_HX_REQUEST="true")
    assert refused.status_code == 200 and 'id="flash"' in refused.content.decode()
    assert "Only the host can do that." in html.unescape(refused.content.decode())
    client.force_login(ana)
    assert close(client, table, HTTP_HX_REQUEST="true").status_code == 204
    assert status_of(table) == Table.Status.ABANDONED


# --- the last person leaves ---------------------------------------------------------------------


def test_a_host_alone_who_stands_up_closes_the_table(client, make_user, settings):
    """The report's steps: at the cap, "Leave seat" at one's own empty tables frees the places
    (no table "hosted by ana · 0/4 seats" is left behind in the lobby)."""
    settings.GAMES_MAX_HOSTED_TABLES = 3
    ana = make_user("ana")
    made = [open_table(ana) for _ in range(3)]
    client.force_login(ana)
    for table in made[:2]:
        client.post(reverse("games:leave_seat", args=[table.pk]))
    assert [status_of(t) for t in made] == [
        Table.Status.ABANDONED,
        Table.Status.ABANDONED,
        Table.Status.OPEN,
    ]
    assert public_open_ids() == {made[2].pk}
    open_table(ana)
    open_table(ana)


def test_the_table_stays_while_someone_or_an_ai_seat_is_left(make_user):
    """Only a table left with every seat empty closes: a guest still seated, or AI seats the
    host set before standing up (to watch them play), keep it open."""
    ana, bo = make_user("ana"), make_user("bo")
    table = open_table(ana)
    tables.take_seat(table.pk, bo, 1)
    tables.leave_seat(table.pk, ana)
    assert status_of(table) == Table.Status.OPEN
    tables.leave_seat(table.pk, bo)  # the last one
    assert status_of(table) == Table.Status.ABANDONED

    with_ai = open_table(ana)
    tables.set_ai(with_ai.pk, ana, 2, Seat.Policy.HEURISTIC)
    tables.leave_seat(with_ai.pk, ana)
    assert status_of(with_ai) == Table.Status.OPEN
    tables.fill_with_ai(with_ai.pk, ana)
    tables.start(with_ai.pk, ana, seed=3)  # the host watches an all-AI match
    assert status_of(with_ai) == Table.Status.PLAYING


def test_leave_seat_asks_first_where_leaving_closes_the_table(client, make_user):
    """ "Leave seat" of the one person at a waiting table closes it (above): the page asks first,
    as "Close table" does, saying so. With anyone else seated, or an AI seat, it leaves at once;
    another person's page has no question."""
    ana, bo = make_user("ana"), make_user("bo")
    table = open_table(ana)
    client.force_login(ana)
    alone = client.get(reverse("games:table", args=[table.pk])).content.decode()
    assert 'id="leave-seat-confirm"' in alone
    assert "Nobody else sits at this table: leaving closes it." in html.unescape(alone)
    assert 'id="leave-seat-yes"' in alone
    tables.take_seat(table.pk, bo, 1)
    shared = client.get(reverse("games:table", args=[table.pk])).content.decode()
    assert 'id="leave-seat"' in shared and 'id="leave-seat-confirm"' not in shared
    client.force_login(bo)
    tables.leave_seat(table.pk, ana)
    bo_page = client.get(reverse("games:table", args=[table.pk])).content.decode()
    assert 'id="leave-seat-confirm"' in bo_page  # bo alone now
    tables.set_ai(table.pk, ana, 2, Seat.Policy.HEURISTIC)  # the host, standing
    with_ai = client.get(reverse("games:table", args=[table.pk])).content.decode()
    assert 'id="leave-seat"' in with_ai and 'id="leave-seat-confirm"' not in with_ai


def test_leaving_a_table_one_does_not_sit_at_closes_nothing(make_user):
    ana, bo = make_user("ana"), make_user("bo")
    table = open_table(ana)
    tables.leave_seat(table.pk, bo)
    assert status_of(table) == Table.Status.OPEN


def test_a_closed_rematch_table_frees_the_place_it_took(finished, settings):  # noqa: F811
    """A rematch asked at the cap is refused; closing a waiting table lets it through."""
    table, asker, _bo = finished
    settings.GAMES_MAX_HOSTED_TABLES = (
        Table.objects.filter(
            host=asker, status__in=[Table.Status.OPEN, Table.Status.PLAYING]
        ).count()
        + 1
    )
    spare = open_table(asker)
    with pytest.raises(rematches.RematchError):
        rematches.do_ask(table.pk, asker)
    tables.close_table(spare.pk, asker)
    assert rematches.do_ask(table.pk, asker).pk


# --- the sockets ----------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_every_socket_on_the_table_is_told_it_closed(make_user):
    """The seated guest's and a spectator's sockets get the closed table in a full frame (no
    seat buttons left); a socket that connects afterwards gets it too, not an error."""
    from tests.games.sockets.test_consumers import connect, frame

    def people_at_a_table() -> tuple[Table, list]:
        ana, bo, cy = (make_user(name) for name in ("ana", "bo", "cy"))
        table = open_table(ana)
        tables.take_seat(table.pk, bo, 1)
        return table, [ana, bo, cy]

    table, (ana, bo, cy) = await sync_to_async(people_at_a_table)()
    try:
        guest, watcher = await connect(table.pk, bo), await connect(table.pk, cy)
        for ws in (guest, watcher):
            assert CLOSED not in await frame(ws)  # the connect snapshot
        await sync_to_async(tables.close_table)(table.pk, ana)
        for ws in (guest, watcher):
            text = await frame(ws)
            while '"full":true' not in text.split("\n", 1)[0]:
                text = await frame(ws)
            assert CLOSED in text and "/take/" not in text and 'id="leave-seat"' not in text
            await ws.disconnect()
        late = await connect(table.pk, cy)
        assert CLOSED in await frame(late)
        await late.disconnect()
    finally:
        await sync_to_async(connections.close_all)()
