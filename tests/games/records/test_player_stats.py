"""Player statistics and the site rating (``games.records.player_stats``, issue #10 item 6): counted
once per finished match from its rounds and move log, rated once when the table is rated and
every seat a person, shown on the profile with a fixed number of statements (the leaderboard:
tests/leagues/test_leaderboard.py)."""

from __future__ import annotations

from io import StringIO

import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from config import celery_app
from games.engine.events import Answered, Bombed, Hooked, Played, Resigned, RoundOver, Unhooked
from games.models import Match, MatchTally, PlayerMatch, Table
from games.records import player_stats as record
from games.records.player_tally import tally
from games.signals import match_finished
from leagues.models import SiteRating, SiteRatingChange

pytestmark = pytest.mark.django_db


def test_tally_counts_rounds_first_outs_levels_claims_and_bombs():
    """Pure counting: round 1 taken by team 1 (seat 3 out first), round 2 by team 0 (seat 0
    first); a hook and an unhook that won their windows, a pending answer that did not count,
    two bombs; the final levels 5 and 3 mean 3 and 1 levels gained (§8)."""
    events = [
        Played(0, ("9S",), "single"),
        Answered(1, ("9H", "9C")),  # pending: not a hook yet
        Hooked(1, ("9H", "9C"), owner=0),
        Unhooked(2, ("9D",), owner=1),
        Played(3, ("5S", "5H", "5D"), "kind_bomb"),
        Bombed(3, ("BJ", "RJ"), "joker_bomb"),
        Played(2, ("6S", "6H"), "pair"),
        RoundOver(1, (0, 2), (2, 3), 3, None),
        Resigned(2, team=0),
    ]
    seats = tally(4, 1, (5, 3), [(1, [3, 1]), (0, [0, 2])], events)
    assert [(s.rounds_played, s.rounds_won, s.first_out) for s in seats] == [
        (2, 1, 1),
        (2, 1, 0),
        (2, 1, 0),
        (2, 1, 1),
    ]
    assert [(s.hooks, s.unhooks, s.bombs) for s in seats] == [
        (0, 0, 0),
        (1, 0, 0),
        (0, 1, 0),
        (0, 0, 2),
    ]
    assert [s.levels_gained for s in seats] == [3, 1, 3, 1]
    assert [s.won for s in seats] == [False, True, False, True]
    assert [s.resigned for s in seats] == [False, False, True, False]


def test_a_rated_match_is_counted_and_rated_exactly_once(bomb_to_win):
    match = bomb_to_win(rated=True)
    tally_row = MatchTally.objects.get(match=match)
    assert tally_row.rated
    rows = {r.user.username: r for r in PlayerMatch.objects.select_related("user")}
    assert set(rows) == {"ana", "bo", "cy", "di"}
    ana, cy, bo = rows["ana"], rows["cy"], rows["bo"]
    assert (ana.won, ana.rounds_won, ana.levels_gained, ana.bombs, ana.first_out) == (
        True,
        1,
        1,
        1,
        0,
    )
    assert (cy.first_out, cy.bombs) == (1, 0)
    assert (bo.won, bo.rounds_won, bo.levels_gained) == (False, 0, 0)
    ratings = {r.user.username: r for r in SiteRating.objects.select_related("user")}
    assert ratings["ana"].ordinal > ratings["bo"].ordinal
    assert (ratings["ana"].matches, ratings["ana"].wins, ratings["bo"].wins) == (1, 1, 0)
    before = {name: (r.mu, r.sigma) for name, r in ratings.items()}

    # The signal again (a redelivery), and the catch-up: nothing is counted twice.
    match_finished.send(sender=Match, match_id=match.pk)
    assert not record.do_record_match(match.pk)
    assert record.do_catch_up() == 0
    assert PlayerMatch.objects.count() == 4 and SiteRatingChange.objects.count() == 4
    assert {r.user.username: (r.mu, r.sigma) for r in SiteRating.objects.all()} == before


def test_a_match_with_an_ai_seat_is_counted_but_not_rated(resigned):
    match = resigned(["ana", None, "bo", None], by=2, rated=True)
    assert not MatchTally.objects.get(match=match).rated
    rows = {r.user.username: r for r in PlayerMatch.objects.select_related("user")}
    assert set(rows) == {"ana", "bo"}
    assert rows["bo"].resigned and not rows["bo"].won and not rows["ana"].won
    assert not SiteRating.objects.exists()


def test_a_casual_match_is_not_rated(bomb_to_win):
    bomb_to_win(rated=False)
    assert PlayerMatch.objects.count() == 4 and not SiteRating.objects.exists()


def test_a_lost_signal_is_caught_up(resigned):
    match = resigned(["ana", "bo"], by=1, callbacks=False)
    assert not MatchTally.objects.exists()
    assert record.do_catch_up() == 1
    assert MatchTally.objects.get().match_id == match.pk
    assert record.do_catch_up() == 0


def test_the_command_and_the_beat_entry_catch_up(resigned):
    """``manage.py stats_catch_up`` counts a match whose signal was lost; the beat's entry
    names a registered task that counts the next one (the last day's)."""
    resigned(["ana", "bo"], by=1, callbacks=False)
    out = StringIO()
    call_command("stats_catch_up", stdout=out)
    assert out.getvalue().strip() == "counted 1 finished match(es)"
    resigned(["cy", "di"], by=0, callbacks=False)
    entry = settings.CELERY_BEAT_SCHEDULE["player-stats-catch-up"]
    celery_app.loader.import_default_modules()  # the worker's autodiscovery of tasks.py
    task = celery_app.tasks[entry["task"]]
    assert task.name == "games.tasks.catch_up_player_stats"
    assert task() == 1
    assert MatchTally.objects.count() == 2


def test_the_profile_shows_statistics_partners_and_rating(bomb_to_win, client):
    bomb_to_win(rated=True)
    html = client.get("/accounts/ana/").content.decode()
    assert 'id="rounds-won">1<' in html and 'id="levels-gained">1<' in html
    assert 'id="bombs">1<' in html and 'id="hooks">0<' in html
    partners = html.split('id="favourite-partners"')[1].split("</ol>")[0]
    assert ">cy</a>" in partners and "1 match together, 1 won" in partners
    rating = SiteRating.objects.get(user__username="ana").display
    assert f">{rating}</a>" in html.split('id="site-rating"')[1].split("</dd>")[0]


def test_the_profile_counts_only_what_the_viewer_may_see(bomb_to_win, client, make_user):
    match = bomb_to_win(rated=True, visibility=Table.Visibility.PRIVATE)
    stranger = make_user("eve")
    client.force_login(stranger)
    html = client.get("/accounts/ana/").content.decode()
    assert 'id="rounds-won">0<' in html and 'id="bombs">0<' in html
    assert "No partner yet." in html
    client.force_login(match.table.seats.get(number=2).user)  # cy sat there
    assert 'id="bombs">1<' in client.get("/accounts/ana/").content.decode()


def statements(client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_the_profile_costs_the_same_statements_for_many_matches(bomb_to_win, resigned, client):
    """The profile adds stored rows up: its statements do not grow with the matches a player
    played."""
    bomb_to_win(rated=True)
    client.force_login(Match.objects.get().table.host)
    one_profile = statements(client, "/accounts/ana/")
    for n in range(3):
        bomb_to_win(names=("ana", f"bx{n}", f"cx{n}", f"dx{n}"), rated=True)
        resigned(["ana", f"e{n}"], by=1)
    assert PlayerMatch.objects.filter(user__username="ana").count() == 7
    assert statements(client, "/accounts/ana/") == one_profile
    assert one_profile <= 20


def test_counting_a_match_reads_its_move_log_in_one_statement(bomb_to_win):
    """Counting a match costs the same statements for 3 moves as for 300 more (14 for four
    rated players, savepoints included)."""
    from games.models import Move

    match = bomb_to_win(rated=True)

    def count_again() -> int:
        for model in (MatchTally, PlayerMatch, SiteRatingChange, SiteRating):
            model.objects.all().delete()
        with CaptureQueriesContext(connection) as queries:
            assert record.do_record_match(match.pk)
        return len(queries)

    short = count_again()
    Move.objects.bulk_create(
        Move(
            match=match,
            seq=100 + n,
            round_no=1,
            seat=1,
            action={"type": "pass"},
            events=[{"type": "pass", "seat": 1, "timeout": False}],
        )
        for n in range(300)
    )
    assert count_again() == short
    assert short <= 16, short
