"""Finished matches feed fixtures, standings, ratings and partner stats — exactly once."""

from __future__ import annotations

import datetime
import threading

import pytest
from django.db import connection

from games.models import Match, Seat
from games.play import services, tables
from leagues import results, tournaments
from leagues import services as league_services
from leagues.models import Fixture, League, Pairing, Rating, RatingHistory, TournamentRound

from .conftest import QUICK, install_winning_round, register_confirmed

pytestmark = pytest.mark.django_db


def fixture_for(season, organiser, members, team0, team1):
    teams = [[members[n] for n in team0], [members[n] for n in team1]]
    fixture = league_services.do_create_fixture(season, organiser, teams)
    tables.start(fixture.table_id, teams[0][0], seed=5)
    return fixture


def test_a_fixture_table_seats_team_0_at_even_seats_with_the_league_options(
    season, organiser, members
):
    """The fixture's table has the league's options; team 0 sits at 0 and 2, team 1 at 1, 3."""
    fixture = league_services.do_create_fixture(
        season, organiser, [[members["ana"], members["cy"]], [members["bo"], members["di"]]]
    )
    table = fixture.table
    assert table.options == {"target_level": "3", "claim_window_seconds": 0}
    assert table.rated is True and table.host == members["ana"]
    assert [(s.number, s.user.username, s.ai_policy) for s in table.seats.all()] == [
        (0, "ana", ""),
        (1, "bo", ""),
        (2, "cy", ""),
        (3, "di", ""),
    ]


def test_a_finished_match_feeds_the_fixture_standings_and_ratings(
    season, organiser, members, play_out
):
    """Team 1 wins at target level 3 catching both opponents: the fixture gets winner 1,
    levels gained (0, 1), caught (0, 2); the season table and four ratings follow."""
    fixture = fixture_for(season, organiser, members, ["ana", "cy"], ["bo", "di"])
    play_out(fixture.table, winner_team=1)
    fixture.refresh_from_db()
    assert (
        fixture.winner_team,
        fixture.levels_team0,
        fixture.levels_team1,
        fixture.caught_team0,
        fixture.caught_team1,
    ) == (1, 0, 1, 0, 2)
    assert fixture.processed_at is not None and fixture.match.table_id == fixture.table_id
    rows = results.season_standings(season)
    assert [(r.name, r.played, r.won, r.lost, r.levels, r.caught) for r in rows] == [
        ("bo", 1, 1, 0, 1, 2),
        ("di", 1, 1, 0, 1, 2),
        ("ana", 1, 0, 1, 0, 0),
        ("cy", 1, 0, 1, 0, 0),
        ("ed", 0, 0, 0, 0, 0),
        ("flo", 0, 0, 0, 0, 0),
    ]  # olga organises and plays no fixture: not in the table (issue 18)
    rating = {r.user.username: r for r in Rating.objects.filter(league=season.league)}
    assert sorted(rating) == ["ana", "bo", "cy", "di"]
    assert rating["bo"].mu == pytest.approx(26.964294621803063)
    assert rating["ana"].mu == pytest.approx(23.035705378196937)
    assert rating["bo"].sigma == pytest.approx(8.177962604389991)
    assert rating["bo"].matches == 1
    history = RatingHistory.objects.get(user=members["bo"])
    assert (history.won, history.mu_before, history.match_id) == (True, 25.0, fixture.match_id)
    assert history.before == pytest.approx(0.0)
    assert history.after == pytest.approx(26.964294621803063 - 3 * 8.177962604389991)


def test_the_result_handler_run_twice_applies_once(season, organiser, members, play_out):
    """The signal delivered again (and the catch-up sweep) change nothing the second time."""
    fixture = fixture_for(season, organiser, members, ["ana", "cy"], ["bo", "di"])
    match = play_out(fixture.table, winner_team=0)
    before = list(Rating.objects.order_by("user_id").values_list("mu", "sigma", "matches"))
    assert results.do_record_match(match.pk) == ""
    results.on_match_finished(sender=None, match_id=match.pk)
    assert results.do_catch_up() == 0
    assert list(Rating.objects.order_by("user_id").values_list("mu", "sigma", "matches")) == (
        before
    )
    assert RatingHistory.objects.count() == 4
    assert [r.played for r in results.season_standings(season)[:4]] == [1, 1, 1, 1]


def test_the_first_delivery_applies_when_the_signal_was_lost(
    season, organiser, members, play_out, monkeypatch
):
    """If the signal never arrived, the catch-up sweep records the result, once."""
    monkeypatch.setattr(results, "do_record_match", lambda match_id: "")  # the signal is lost
    fixture = fixture_for(season, organiser, members, ["ana", "cy"], ["bo", "di"])
    play_out(fixture.table, winner_team=0)
    monkeypatch.undo()
    assert Fixture.objects.get(pk=fixture.pk).processed_at is None
    assert results.do_catch_up() == 1
    assert results.do_catch_up() == 0
    assert Fixture.objects.get(pk=fixture.pk).winner_team == 0
    assert RatingHistory.objects.count() == 4


def test_an_unrated_table_changes_no_rating(season, organiser, members, play_out):
    """A league that is not rated opens unrated tables: standings count, ratings do not."""
    season.league.rated = False
    season.league.save()
    fixture = fixture_for(season, organiser, members, ["ana", "cy"], ["bo", "di"])
    assert fixture.table.rated is False
    play_out(fixture.table, winner_team=0)
    assert Rating.objects.count() == 0 and RatingHistory.objects.count() == 0
    assert [(r.name, r.won) for r in results.season_standings(season)[:2]] == [
        ("ana", 1),
        ("cy", 1),
    ]


def test_an_ai_stand_in_makes_the_match_unrated(season, organiser, members, play_out):
    """A seat played by an AI for its person: the result counts, the ratings do not move."""
    fixture = fixture_for(season, organiser, members, ["ana", "cy"], ["bo", "di"])
    Seat.objects.filter(table=fixture.table, number=3).update(ai_policy="heuristic")
    play_out(fixture.table, winner_team=0)
    assert Fixture.objects.get(pk=fixture.pk).winner_team == 0
    assert Rating.objects.count() == 0


def test_partner_stats_follow_who_played_beside_whom(season, organiser, members, play_out):
    """ana won beside cy, then lost beside bo: 1 match and 1 win with cy (listed first: more
    wins), 1 match and 0 wins with bo."""
    first = fixture_for(season, organiser, members, ["ana", "cy"], ["bo", "di"])
    play_out(first.table, winner_team=0)
    second = fixture_for(season, organiser, members, ["ana", "bo"], ["cy", "di"])
    play_out(second.table, winner_team=1)
    stats = results.league_partner_stats(season.league, members["ana"])
    assert [(members_name(members, p.partner), p.played, p.won) for p in stats] == [
        ("cy", 1, 1),
        ("bo", 1, 0),
    ]
    stats = results.league_partner_stats(season.league, members["di"])
    assert [(members_name(members, p.partner), p.played, p.won) for p in stats] == [
        ("cy", 1, 1),
        ("bo", 1, 0),
    ]


def members_name(members, user_id):
    return next(name for name, user in members.items() if user.pk == user_id)


def test_a_rated_tournament_match_feeds_its_pairing_round_and_league_ratings(
    league, members, play_out
):
    """A rated tournament in a league: the finished match gives the pairing its winner, the
    round finishes (the other pairing is a bye), and the four players are rated once."""
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
    assert pairing.table.rated is True
    play_out(pairing.table, winner_team=1)
    pairing = Pairing.objects.get(pk=pairing.pk)
    assert (pairing.winner_team, pairing.levels_a, pairing.levels_b, pairing.caught_b) == (
        1,
        0,
        1,
        2,
    )
    assert TournamentRound.objects.get(pk=rnd.pk).status == "finished"
    assert RatingHistory.objects.filter(match=pairing.match).count() == 4
    assert results.do_record_match(pairing.match_id) == ""
    assert RatingHistory.objects.count() == 4
    rows = [(r.name, r.won, r.levels, r.byes) for r in results.tournament_standings(t)]
    assert rows == [("cy & di", 1, 1, 0), ("ed & flo", 1, 0, 1), ("ana & bo", 0, 0, 0)]


@pytest.mark.django_db(transaction=True)
def test_two_deliveries_at_once_apply_once(in_process, make_user, monkeypatch):
    """Two threads record the same finished match at the same moment: the fixture row lock
    lets one apply it; the other finds the marker set. Ratings move once."""
    olga = make_user("olga")
    league = league_services.do_create_league(olga, name="Race", table_options=QUICK)
    people = [make_user(n) for n in ("ana", "bo", "cy", "di")]
    for person in people:
        league_services.do_join(league, person)
    season = league_services.do_create_season(
        League.objects.get(pk=league.pk),
        olga,
        name="S",
        starts_on=datetime.date(2026, 1, 1),
        ends_on=datetime.date(2026, 2, 1),
    )
    fixture = league_services.do_create_fixture(season, olga, [people[::2], people[1::2]])
    tables.start(fixture.table_id, people[0], seed=9)
    real = results.do_record_match
    monkeypatch.setattr(results, "do_record_match", lambda match_id: "")  # hold the signal
    match = install_winning_round(fixture.table, 0)
    for seat, payload in (
        (2, {"action": "play", "cards": ["JH"]}),
        (3, {"action": "pass"}),
        (0, {"action": "pass"}),
        (1, {"action": "pass"}),
        (0, {"action": "play", "cards": ["KH"]}),
    ):
        version = Match.objects.get(pk=match.pk).version
        assert services.submit(match.pk, people[seat], {**payload, "version": version}).ok
    outcomes, barrier = [], threading.Barrier(2)

    def deliver():
        barrier.wait()
        try:
            outcomes.append(real(match.pk))
        finally:
            connection.close()

    threads = [threading.Thread(target=deliver) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["", "fixture"]
    assert RatingHistory.objects.count() == 4
    assert list(Rating.objects.values_list("matches", flat=True)) == [1, 1, 1, 1]
