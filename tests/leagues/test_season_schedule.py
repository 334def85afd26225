"""A season's schedule (issue 18 §3): a round-robin season gets every pairing of its teams as
fixtures at once, in rounds, or none of them; staff start a fixture from its table page (and
no other table); an organiser who does not play is not in the standings."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from games.models import Table
from games.play import tables
from leagues import results, services
from leagues.models import Fixture, Season
from leagues.round_robin import do_create_round_robin

from .conftest import QUICK

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def test_a_round_robin_season_gets_every_pairing_at_once(
    client, league, organiser, members, make_user
):
    for name in ("gus", "hal"):
        services.do_add_member(league, organiser, make_user(name))
    season = services.do_create_season(
        league,
        organiser,
        name="All play all",
        starts_on=datetime.date(2026, 3, 1),
        ends_on=datetime.date(2026, 5, 31),
        format=Season.Format.ROUND_ROBIN,
    )
    client.force_login(organiser)
    page = client.get(reverse("leagues:manage", args=[league.slug])).content.decode()
    assert 'id="round-robin-form"' in page
    teams = "ana, bo\ncy, di\n\ned, flo\ngus, hal\n"
    response = client.post(
        reverse("leagues:manage_round_robin", args=[league.slug]),
        {"season": season.pk, "teams": teams},
    )
    assert response.status_code == 302
    fixtures = list(season.fixtures.prefetch_related("players__user"))
    assert len(fixtures) == 6
    met = {frozenset(frozenset(u.username for u in f.team(n)) for n in (0, 1)) for f in fixtures}
    assert len(met) == 6  # every pair of the four teams, once
    assert sorted(f.round for f in fixtures) == [1, 1, 2, 2, 3, 3]
    for number in (1, 2, 3):  # nobody plays twice in a round
        players = [p.user_id for f in fixtures if f.round == number for p in f.players.all()]
        assert len(players) == len(set(players)) == 8
    assert all(f.table.status == Table.Status.OPEN for f in fixtures)
    # Scheduled once only:
    with pytest.raises(services.LeagueError):
        do_create_round_robin(season, organiser, [[members["ana"]], [members["bo"]]])


def test_a_round_robin_with_one_bad_team_creates_nothing(
    client, league, organiser, members, make_user
):
    make_user("stranger")
    season = services.do_create_season(
        league,
        organiser,
        name="All play all",
        starts_on=datetime.date(2026, 3, 1),
        ends_on=datetime.date(2026, 5, 31),
        format=Season.Format.ROUND_ROBIN,
    )
    client.force_login(organiser)
    typed = "ana, bo\ncy, di\ned, stranger"
    response = client.post(
        reverse("leagues:manage_round_robin", args=[league.slug]),
        {"season": season.pk, "teams": typed},
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "stranger" in html.split('id="round-robin-form"')[1].split("</form>")[0]
    assert "ana, bo\ncy, di\ned, stranger</textarea>" in html
    assert not Fixture.objects.exists() and not Table.objects.exists()


def test_staff_start_a_fixture_from_its_table_page(
    client, league, organiser, members, season, staff
):
    fixture = services.do_create_fixture(
        season, organiser, [[members["ana"], members["cy"]], [members["bo"], members["di"]]]
    )
    url = fixture.table.get_absolute_url()
    client.force_login(members["bo"])  # a player who does not host it: no button
    assert 'id="staff-start"' not in client.get(url).content.decode()
    client.force_login(staff)
    assert 'id="staff-start"' in client.get(url).content.decode()
    response = client.post(reverse("games:start", args=[fixture.table_id]))
    assert response.status_code == 302
    fixture.table.refresh_from_db()
    assert fixture.table.status == Table.Status.PLAYING


def test_staff_do_not_start_a_table_no_organiser_schedules(client, staff, make_user):
    """A player's own table stays the host's to start, even full of AI seats."""
    host = make_user("host")
    table = tables.create_table(host, name="Mine", players=4, options=QUICK)
    tables.fill_with_ai(table.pk, host)
    assert not tables.staff_may_start(table, staff)
    client.force_login(staff)
    assert 'id="staff-start"' not in client.get(table.get_absolute_url()).content.decode()
    client.post(reverse("games:start", args=[table.pk]))
    table.refresh_from_db()
    assert table.status == Table.Status.OPEN


def test_an_organiser_who_does_not_play_is_not_in_the_standings(league, organiser, members, season):
    entrants = {row.entrant for row in results.season_standings(season)}
    assert organiser.pk not in entrants and members["ana"].pk in entrants
    services.do_create_fixture(
        season, organiser, [[organiser, members["cy"]], [members["bo"], members["di"]]]
    )
    assert organiser.pk in {row.entrant for row in results.season_standings(season)}
