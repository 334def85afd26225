"""At a table with a spectator delay, a league's result waits for the spectators' view (issue 17).

The match is over for its players at once, but the fixture or pairing, the standings, the league
and site ratings, the next round and the pages that show them keep the match "live" until the
spectators' delayed view reaches the end (``games.live.delay``): then the result is recorded,
once. A result whose signal was lost then is recorded by the catch-up beat.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.live import delay
from games.models import DelayedView, Table
from games.play import tables
from leagues import results, tournaments
from leagues import services as league_services
from leagues.models import Fixture, Pairing, Rating, RatingHistory, SiteRating, TournamentRound

from .conftest import register_confirmed

pytestmark = pytest.mark.django_db

#: Far enough after the last move for every move to be due in the spectators' view.
LATER = timedelta(hours=1)


def delayed_fixture(season, organiser, members, plays: int = 2) -> Fixture:
    """ana & cy against bo & di at a fixture table whose spectators are ``plays`` behind."""
    teams = [[members["ana"], members["cy"]], [members["bo"], members["di"]]]
    fixture = league_services.do_create_fixture(season, organiser, teams)
    Table.objects.filter(pk=fixture.table_id).update(spectator_delay=plays)
    tables.start(fixture.table_id, teams[0][0], seed=5)
    return Fixture.objects.select_related("table").get(pk=fixture.pk)


def reveal(match_id: int) -> None:
    """The view's wake-up rings long after the end: it shows the end."""
    delay.advance(match_id, now=timezone.now() + LATER)
    assert DelayedView.objects.get(match_id=match_id).winner_team is not None


def test_a_fixture_stays_live_until_the_spectators_see_the_end(
    season, organiser, members, play_out, make_user
) -> None:
    """Over for its players (the writer sent ``match_finished``), the fixture is not recorded:
    the season's table, its fixture list (still "Live"), the league and site ratings show
    nothing; when the view reaches the end, all of them show the result, once."""
    fixture = delayed_fixture(season, organiser, members)
    match = play_out(fixture.table, winner_team=1)
    assert DelayedView.objects.get(match=match).winner_team is None
    stranger = Client()
    stranger.force_login(make_user("stranger"))
    season_url = reverse("leagues:season", args=[season.league.slug, season.pk])
    player_url = reverse("leagues:player", args=[season.league.slug, "bo"])

    fixture.refresh_from_db()
    assert fixture.processed_at is None and fixture.winner_team is None
    assert all(r.played == 0 for r in results.season_standings(season))
    assert not Rating.objects.exists() and not RatingHistory.objects.exists()
    assert not SiteRating.objects.exists()
    page = stranger.get(season_url).content.decode()
    assert 'class="pill live"' in page and "fixture-result" not in page
    assert "No rated match yet." in stranger.get(player_url).content.decode()
    assert results.do_catch_up() == 0  # nothing public to catch up yet

    reveal(match.pk)
    fixture.refresh_from_db()
    assert fixture.processed_at is not None and fixture.winner_team == 1
    rows = {r.name: (r.played, r.won) for r in results.season_standings(season)}
    assert rows["bo"] == (1, 1) and rows["ana"] == (1, 0)
    assert RatingHistory.objects.filter(match=match).count() == 4
    assert SiteRating.objects.filter(matches=1).count() == 4
    page = stranger.get(season_url).content.decode()
    assert "fixture-result" in page and 'class="pill live"' not in page
    assert "No rated match yet." not in stranger.get(player_url).content.decode()
    # Once: a second wake-up, a redelivery and the catch-up change nothing.
    reveal(match.pk)
    assert results.do_record_match(match.pk) == "" and results.do_catch_up() == 0
    assert RatingHistory.objects.count() == 4


def test_a_result_whose_signal_was_lost_at_the_reveal_is_caught_up(
    season, organiser, members, play_out, monkeypatch
) -> None:
    """The view reached the end but the signal was lost (a crash after the step's commit): the
    leagues' catch-up beat records it then — and not one moment before the end was shown."""
    from leagues import tasks

    fixture = delayed_fixture(season, organiser, members)
    match = play_out(fixture.table, winner_team=0)
    assert tasks.catch_up_results() == 0
    monkeypatch.setattr(delay, "_reveal", lambda match_id: None)  # the signal is lost
    reveal(match.pk)
    assert Fixture.objects.get(pk=fixture.pk).processed_at is None
    assert tasks.catch_up_results() == 1
    assert Fixture.objects.get(pk=fixture.pk).winner_team == 0
    assert RatingHistory.objects.filter(match=match).count() == 4


def test_a_tournament_round_waits_for_the_spectators_view(league, members, play_out) -> None:
    """A delayed pairing's result — and so its round's end and the tournament's standings —
    waits for the spectators' view; the tournament page lists the match as live until then."""
    t = tournaments.do_create_tournament(
        members["ed"],
        name="Cup",
        league=league,
        rated=True,
        table_options={"target_level": "3", "claim_window_seconds": 0},
    )
    tournaments.do_open_registration(t, members["ed"])
    for a, b in (("ana", "bo"), ("cy", "di"), ("ed", "flo")):
        register_confirmed(t, members[a], [members[b].username])
    tournaments.do_start(t, members["ed"])
    rnd = tournaments.do_generate_round(t, members["ed"])
    pairing = rnd.pairings.get(board=1)
    Table.objects.filter(pk=pairing.table_id).update(spectator_delay=3)
    match = play_out(Table.objects.get(pk=pairing.table_id), winner_team=1)
    page = Client().get(reverse("tournaments:detail", args=[t.pk])).content.decode()

    assert Pairing.objects.get(pk=pairing.pk).processed_at is None
    assert TournamentRound.objects.get(pk=rnd.pk).status != "finished"
    assert all(r.won == 0 for r in results.tournament_standings(t) if r.byes == 0)
    assert 'class="pill live"' in page and "final levels" not in page

    reveal(match.pk)
    assert Pairing.objects.get(pk=pairing.pk).winner_team == 1
    assert TournamentRound.objects.get(pk=rnd.pk).status == "finished"
    page = Client().get(reverse("tournaments:detail", args=[t.pk])).content.decode()
    assert "final levels" in page
