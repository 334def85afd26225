"""A resignation at a rated league table: the other team wins the fixture, the standings and
the ratings say so (once); a seat its own player handed to the AI while away stays rated."""

from __future__ import annotations

import datetime

import pytest

from games.models import Match, Seat
from games.play import services, standins
from leagues import results
from leagues import services as league_services
from leagues.models import Fixture, Rating, RatingHistory

pytestmark = pytest.mark.django_db


@pytest.fixture
def fixture(league, organiser, members):
    season = league_services.do_create_season(
        league,
        organiser,
        name="Spring",
        starts_on=datetime.date(2026, 3, 1),
        ends_on=datetime.date(2026, 5, 31),
    )
    teams = [[members["ana"], members["cy"]], [members["bo"], members["di"]]]
    made = league_services.do_create_fixture(season, organiser, teams)
    from games.play import tables

    tables.start(made.table_id, members["ana"], seed=5)
    return made


def test_a_resignation_loses_the_fixture_and_the_rating(
    fixture, members, django_capture_on_commit_callbacks
):
    """bo (team 1) resigns mid-round: team 0 wins the fixture with no levels gained, the
    season table counts it, and all four are rated once with bo's team as the losers."""
    match = Match.objects.get(table_id=fixture.table_id)
    assert fixture.table.rated
    with django_capture_on_commit_callbacks(execute=True):
        result = services.submit(
            match.pk, members["bo"], {"action": "resign", "version": match.version}
        )
    assert result.ok
    fixture.refresh_from_db()
    assert (fixture.winner_team, fixture.levels_team0, fixture.levels_team1) == (0, 0, 0)
    assert fixture.processed_at is not None
    rows = {r.name: (r.played, r.won, r.lost) for r in results.season_standings(fixture.season)}
    assert rows["bo"] == (1, 0, 1) and rows["ana"] == (1, 1, 0)
    won = dict(RatingHistory.objects.values_list("user__username", "won"))
    assert won == {"ana": True, "cy": True, "bo": False, "di": False}
    ratings = {r.user.username: r.mu for r in Rating.objects.all()}
    assert ratings["bo"] < 25 < ratings["ana"]


def test_a_player_away_at_the_end_is_still_rated(
    fixture, members, django_capture_on_commit_callbacks
):
    """di asked the AI to play for her and never came back; her partner resigns: the match
    is rated all the same (dropping out never saves a rating); an organiser's stand-in does
    not make it rated (``test_an_ai_stand_in_makes_the_match_unrated``)."""
    match = Match.objects.get(table_id=fixture.table_id)
    assert standins.control(match.pk, members["di"], {"action": "stand_in", "stand_in_seq": 0}).ok
    # a rated seat's stand-in is the casual AI (standins.policy_name)
    assert Seat.objects.get(table_id=fixture.table_id, number=3).ai_policy == "heuristic"
    match.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        assert services.submit(
            match.pk, members["bo"], {"action": "resign", "version": match.version}
        ).ok
    assert Fixture.objects.get(pk=fixture.pk).winner_team == 0
    assert RatingHistory.objects.filter(user=members["di"], won=False).count() == 1
