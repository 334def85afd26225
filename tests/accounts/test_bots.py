"""Bot accounts: marked by their owner before a rated match, casual tables only unless a league
allows them, and shown as bots."""

from __future__ import annotations

from datetime import date

import pytest
from django.test import Client

from accounts import bots
from games.models import Seat
from games.play import tables

pytestmark = pytest.mark.django_db


def test_the_owner_marks_a_bot_before_any_rated_match(user, password):
    client = Client()
    client.login(username=user.username, password=password)
    client.post("/accounts/bot/", {"is_bot": "1"})
    user.refresh_from_db()
    assert user.is_bot
    html = client.get(f"/accounts/{user.username}/").content.decode()
    assert 'class="badge bot"' in html


def test_after_a_rated_match_the_mark_is_locked(make_user):
    host = make_user("host")
    table = tables.create_table(host, name="rated", players=2, options={}, rated=True)
    tables.fill_with_ai(table.pk, host, Seat.Policy.HEURISTIC)
    tables.start(table.pk, host, seed=1)
    with pytest.raises(bots.BotError):
        bots.set_bot(host, True)
    host.refresh_from_db()
    assert not host.is_bot
    # The profile says the mark is locked, and no longer offers it (QA: it said both).
    client = Client()
    client.force_login(host)
    page = client.get("/accounts/host/").content.decode()
    assert "the mark can no longer change" in page
    assert "Mark this account as a bot account" not in page and 'id="mark-bot"' not in page


def test_a_bot_sits_at_casual_tables_only(make_user):
    host = make_user("host")
    bot = make_user("robo", is_bot=True)
    rated = tables.create_table(host, name="rated", players=4, options={}, rated=True)
    casual = tables.create_table(host, name="casual", players=4, options={})
    with pytest.raises(tables.TableError):
        tables.take_seat(rated.pk, bot, 1)
    assert not Seat.objects.filter(table=rated, user=bot).exists()
    tables.take_seat(casual.pk, bot, 1)
    assert Seat.objects.get(table=casual, number=1).user == bot
    with pytest.raises(tables.TableError):  # nor host one, where it would sit at seat 0
        tables.create_table(bot, name="mine", players=4, options={}, rated=True)


def test_a_league_that_allows_bots_lets_them_play_its_fixtures(make_user):
    from leagues import services as league_services
    from leagues.models import League, Membership, Season

    staff = make_user("staff", is_staff=True)
    people = [make_user(f"p{n}") for n in range(3)] + [make_user("robo", is_bot=True)]
    league = League.objects.create(name="L", slug="l", players=4, created_by=staff)
    league.organisers.add(staff)
    for person in people:
        Membership.objects.create(league=league, user=person, status=Membership.Status.ACTIVE)
    season = Season.objects.create(
        league=league, name="S1", starts_on=date(2026, 1, 1), ends_on=date(2026, 12, 31)
    )
    teams = [[people[0], people[1]], [people[2], people[3]]]
    with pytest.raises(league_services.LeagueError):
        league_services.do_create_fixture(season, staff, teams)
    league.allow_bots = True
    league.save()
    fixture = league_services.do_create_fixture(season, staff, teams)
    assert Seat.objects.filter(table=fixture.table, user=people[3]).exists()
    assert bots.seat_refusal(people[3], fixture.table) == ""


def test_bots_are_marked_in_the_lobby_at_the_table_and_in_the_record(make_user):
    from games.models import Match

    host = make_user("host")
    bot = make_user("robo", is_bot=True)
    table = tables.create_table(host, name="with a bot", players=4, options={})
    tables.take_seat(table.pk, bot, 1)
    lobby = Client().get("/").content.decode()
    row = lobby.split(f'id="lobby-table-{table.pk}"')[1].split("</li>")[0]
    assert "1 bot" in row and 'class="badge bot"' in row
    page = Client().get(f"/tables/{table.pk}/").content.decode()
    seat = page.split('id="seat-1"')[1].split('id="seat-2"')[0]
    assert "robo" in seat and 'class="badge bot"' in seat
    assert 'class="badge bot"' not in page.split('id="seat-0"')[1].split('id="seat-1"')[0]
    tables.fill_with_ai(table.pk, host, Seat.Policy.HEURISTIC)
    match = tables.start(table.pk, host, seed=2)
    record = Client().get(f"/matches/{Match.objects.get(pk=match.pk).pk}/").content.decode()
    assert record.count('class="badge bot"') == 1


def test_bots_are_marked_in_league_standings(make_user):
    from leagues.models import League, Membership, Season

    staff = make_user("staff", is_staff=True)
    league = League.objects.create(name="L", slug="l", players=4, created_by=staff)
    for person in (make_user("ana"), make_user("robo", is_bot=True)):
        Membership.objects.create(league=league, user=person, status=Membership.Status.ACTIVE)
    season = Season.objects.create(
        league=league, name="S1", starts_on=date(2026, 1, 1), ends_on=date(2026, 12, 31)
    )
    html = Client().get(f"/leagues/l/seasons/{season.pk}/").content.decode()
    standings = html.split('id="standings"')[1].split("</table>")[0]
    rows = {r.split("</a>")[0].rsplit(">", 1)[1]: r for r in standings.split("<tr>")[2:]}
    assert 'class="badge bot"' in rows["robo"] and 'class="badge bot"' not in rows["ana"]


def test_an_organiser_allows_bots_from_the_organise_page(make_user, password):
    from leagues.models import League

    organiser, stranger = make_user("org"), make_user("stranger")
    league = League.objects.create(name="L", slug="l", players=4, created_by=organiser)
    league.organisers.add(organiser)
    client = Client()
    client.login(username=stranger.username, password=password)
    assert client.post("/leagues/l/manage/bots/", {"allow_bots": "1"}).status_code == 403
    league.refresh_from_db()
    assert not league.allow_bots
    client.login(username=organiser.username, password=password)
    assert 'id="allow-bots"' in client.get("/leagues/l/manage/").content.decode()
    client.post("/leagues/l/manage/bots/", {"allow_bots": "1"})
    league.refresh_from_db()
    assert league.allow_bots
    client.post("/leagues/l/manage/bots/", {"allow_bots": "0"})
    league.refresh_from_db()
    assert not league.allow_bots
