""" "Play the computer" (``games.play.quick``, issue #18 §4): one POST opens a table, seats the
person with three AI players at the difficulty they picked (remembered on the account) and deals,
in one transaction of a fixed number of statements; a bad difficulty changes nothing."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from games.models import Match, Seat, Table
from games.play import quick

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
    response = client_for(ana).post("/tables/computer/", {"difficulty": "expert"}, follow=True)
    assert "the most one player may host at once" in response.content.decode()
    assert Table.objects.count() == 1
    ana.refresh_from_db()
    assert ana.ai_difficulty == "random"


def test_its_statements_are_pinned(make_user):
    """One transaction (its savepoint and release here, inside the test's): the host's row locked
    and their tables counted (the hosting cap), the table, its seats (one insert), the remembered
    difficulty, the match, its first round, the table's status, the match's deadline, the seats
    for the after-commit push, the revision and the people to tell (``seating.changed``): 14. A
    change here is a change of what one click costs."""
    ana, bo = make_user("ana"), make_user("bo")
    quick.play_the_computer(ana, "random", seed=1)  # the difficulty is remembered: one less
    with CaptureQueriesContext(connection) as first:
        quick.play_the_computer(bo, "random", seed=1)
    with CaptureQueriesContext(connection) as again:
        quick.play_the_computer(ana, "random", seed=2)
    assert len(first) == 14, [q["sql"][:70] for q in first]
    assert len(again) == len(first) - 1
