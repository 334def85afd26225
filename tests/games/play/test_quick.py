""" "Play the computer" (``games.play.quick``, issue #18 §4): one POST opens a table, seats the
person with three AI players at the difficulty they picked (remembered on the account) and deals,
in one transaction of a fixed number of statements; a bad difficulty changes nothing."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import User
from games.models import Match, Seat, Table
from games.play import quick
from tests.accounts.races import at_once

pytestmark = pytest.mark.django_db


def client_for(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_one_click_seats_three_ai_at_the_picked_difficulty_and_deals(make_user):
    ana = make_user("ana")
    client = client_for(ana)
    lobby = client.get("/").content.decode()
    assert 'id="play-computer"' in lobby
    assert '<option value="heuristic" selected>' in lobby  # nothing picked yet: the default
    response = client.post("/tables/computer/", {"difficulty": "expert"})
    table = Table.objects.get(host=ana)
    assert response.status_code == 302 and response["Location"] == table.get_absolute_url()
    seats = list(Seat.objects.filter(table=table).order_by("number"))
    assert [(s.user_id, s.ai_policy) for s in seats] == [
        (ana.pk, ""),
        (None, "expert"),
        (None, "expert"),
        (None, "expert"),
    ]
    assert table.status == Table.Status.PLAYING and not table.rated
    assert Match.objects.filter(table=table, round_no=1).exists()
    ana.refresh_from_db()
    assert ana.ai_difficulty == "expert"
    assert '<option value="expert" selected>' in client.get("/").content.decode()
    page = client.get(table.get_absolute_url()).content.decode()
    assert page.count('name="cards"') == 27  # ana's hand is dealt: two decks, four seats


def test_htmx_gets_a_client_redirect(make_user):
    ana = make_user("ana")
    response = client_for(ana).post(
        "/tables/computer/", {"difficulty": "random"}, headers={"HX-Request": "true"}
    )
    table = Table.objects.get(host=ana)
    assert response["HX-Redirect"] == table.get_absolute_url()


@pytest.mark.parametrize("difficulty", ["", "grandmaster", "x" * 500, "expert\x00"])
def test_a_bad_difficulty_changes_nothing(make_user, difficulty):
    ana = make_user("ana")
    response = client_for(ana).post("/tables/computer/", {"difficulty": difficulty}, follow=True)
    assert response.status_code == 200
    assert "Unknown AI player." in response.content.decode()
    assert not Table.objects.exists() and not Match.objects.exists()
    ana.refresh_from_db()
    assert ana.ai_difficulty == ""


def test_the_hosting_cap_refuses_and_leaves_nothing(make_user, settings):
    settings.GAMES_MAX_HOSTED_TABLES = 1
    ana = make_user("ana")
    quick.play_the_computer(ana, "random")
    Table.objects.update(created_at=timezone.now() - quick.SAME_CLICK)  # not a double click
    response = client_for(ana).post("/tables/computer/", {"difficulty": "expert"}, follow=True)
    assert "the most one player may host at once" in response.content.decode()
    assert Table.objects.count() == 1
    ana.refresh_from_db()
    assert ana.ai_difficulty == "random"


def test_its_statements_are_pinned(make_user):
    """One transaction (its savepoint and release here, inside the test's): the host's row locked
    and their tables counted (the hosting cap), the table, its seats (one insert), the remembered
    difficulty, the match, its first round, the table's status, the match's deadline, the seats
    for the after-commit push, the revision and the people to tell (``seating.changed``), and the
    look for a table the same click opened a moment ago (a double click): 15. A change here is a
    change of what one click costs."""
    ana, bo = make_user("ana"), make_user("bo")
    quick.play_the_computer(ana, "random", seed=1)  # the difficulty is remembered: one less
    Table.objects.update(created_at=timezone.now() - quick.SAME_CLICK)  # not a double click
    with CaptureQueriesContext(connection) as first:
        quick.play_the_computer(bo, "random", seed=1)
    with CaptureQueriesContext(connection) as again:
        quick.play_the_computer(ana, "random", seed=2)
    assert len(first) == 15, [q["sql"][:70] for q in first]
    assert len(again) == len(first) - 1


def test_a_double_click_deals_one_match(make_user):
    """The second POST of a double click comes while the first is still dealing: it waits for
    the host's row, then finds the table the first opened and leads there; nothing more is
    dealt. A click after ``SAME_CLICK`` is a new match."""
    ana = make_user("ana")
    client = client_for(ana)
    first = client.post("/tables/computer/", {"difficulty": "random"})
    second = client.post("/tables/computer/", {"difficulty": "random"})
    table = Table.objects.get(host=ana)
    assert first["Location"] == second["Location"] == table.get_absolute_url()
    assert Match.objects.count() == 1
    Table.objects.update(created_at=timezone.now() - quick.SAME_CLICK)
    client.post("/tables/computer/", {"difficulty": "random"})
    assert Table.objects.filter(host=ana).count() == 2


@pytest.mark.django_db(transaction=True)
def test_clicks_sent_at_once_deal_one_match(make_user):
    """Four POSTs at the same moment, each on its own connection: one table, one match, and
    every answer leads to it."""
    ana = make_user("ana")
    client = client_for(ana)
    answers = at_once(4, lambda _n: client.post("/tables/computer/", {"difficulty": "random"}))
    table = Table.objects.get(host=ana)
    assert {a["Location"] for a in answers} == {table.get_absolute_url()}
    assert Match.objects.count() == 1 and Seat.objects.filter(table=table).count() == 4
