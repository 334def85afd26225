"""League and tournament pages link each played match to its record (games' history pages)."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from games.play import tables
from leagues import services as league_services
from leagues import tournaments
from leagues.models import Pairing

from .conftest import register_confirmed

pytestmark = pytest.mark.django_db


def test_a_played_tournament_pairing_links_its_record_and_replay(client, league, members, play_out):
    t = tournaments.do_create_tournament(
        members["ed"],
        name="Cup",
        league=league,
        table_options={"target_level": "3", "claim_window_seconds": 0},
    )
    tournaments.do_open_registration(t, members["ed"])
    for a, b in (("ana", "bo"), ("cy", "di")):
        register_confirmed(t, members[a], [members[b].username])
    tournaments.do_start(t, members["ed"])
    pairing = tournaments.do_generate_round(t, members["ed"]).pairings.get(board=1)
    play_out(pairing.table, winner_team=0)
    pairing = Pairing.objects.get(pk=pairing.pk)
    html = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert reverse("games:match_record", args=[pairing.match_id]) in html
    assert reverse("games:match_replay", args=[pairing.match_id]) in html


def test_a_played_league_fixture_links_its_record(client, league, organiser, members, play_out):
    season = league_services.do_create_season(
        league,
        organiser,
        name="Spring",
        starts_on=datetime.date(2026, 3, 1),
        ends_on=datetime.date(2026, 5, 31),
    )
    fixture = league_services.do_create_fixture(
        season, organiser, [[members["ana"], members["cy"]], [members["bo"], members["di"]]]
    )
    tables.start(fixture.table_id, members["ana"], seed=2)
    match = play_out(fixture.table, winner_team=1)
    html = client.get(f"/leagues/{league.slug}/seasons/{season.pk}/").content.decode()
    assert reverse("games:match_record", args=[match.pk]) in html
