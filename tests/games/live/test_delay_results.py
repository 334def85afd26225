"""What follows from a delayed match's result waits for the spectators' view (issue 17, item 2).

A rated public table with a spectator delay: the live match is over, its spectators' view is
not. The site rating (leaderboard, profile), the profile's statistics, and a rematch table (the
lobby, its page, profiles and match lists) say nothing of the result until the view reaches the
end (``games.live.delay``); then they all do, the match counted once. The league side (fixtures,
standings, tournament rounds) is ``tests/leagues/test_delayed_results.py``.
"""

from __future__ import annotations

import time

import pytest
from django.test import Client
from django.urls import reverse

from games.live import delay, lobby
from games.models import DelayedView, Match, MatchTally, PlayerMatch, Seat
from games.play import rematches, services
from games.records import player_stats
from games.signals import match_finished
from leagues.models import SiteRating
from tests.games.live.test_delay import QUICK, at, move_once, pace, play_until
from tests.servers import wait_for

#: Each test plays a match to its end through the writer: `make test`, not `make test-fast`.
pytestmark = [pytest.mark.django_db, pytest.mark.slow]

PEOPLE = ("ana", "bo", "cy", "di")


def finished_behind(make_table, rated: bool = True, plays: int = 3) -> Match:
    """Four people play a delayed table to its end; the spectators' view waits ``plays`` or more
    behind (the moves were a second apart), and the writer's ``match_finished`` was sent."""
    table = make_table(list(PEOPLE), QUICK, rated=rated, spectator_delay=plays)
    from games.play import tables

    match = tables.start(table.pk, table.host, seed=9)
    play_until(match, lambda m: m.winner_team is not None)
    pace(match)
    delay.note_move(match, now=at(match.version))  # the view waits for the live table
    assert DelayedView.objects.get(match=match).winner_team is None
    match_finished.send(sender=Match, match_id=match.pk)  # the writer's, after its commit
    return Match.objects.select_related("table").get(pk=match.pk)


def reveal(match: Match) -> None:
    """The view's wake-up rings long after the last move: it shows the end."""
    delay.advance(match.pk, now=at(10 * match.version))
    assert DelayedView.objects.get(match=match).winner_team is not None


def stranger(make_user) -> Client:
    client = Client()
    client.force_login(make_user("stranger"))
    return client


def test_the_site_rating_and_statistics_wait_for_the_spectators_view(make_table, make_user):
    """Before the view reaches the end: nobody is rated or counted — the leaderboard is empty,
    profiles show no rating; after it, the four players are, once."""
    match = finished_behind(make_table)
    client = stranger(make_user)
    profile = reverse("profile", args=["bo"])

    assert not SiteRating.objects.exists() and not PlayerMatch.objects.exists()
    assert not MatchTally.objects.exists()
    board = client.get("/leaderboard/").content.decode()
    assert not any(f'id="leaderboard-{name}"' in board for name in PEOPLE)
    assert '<dd id="site-rating">—</dd>' in client.get(profile).content.decode()
    assert player_stats.do_catch_up() == 0  # the beat counts nothing not public either

    reveal(match)
    board = client.get("/leaderboard/").content.decode()
    assert all(f'id="leaderboard-{name}"' in board for name in PEOPLE)
    assert '<dd id="site-rating">—</dd>' not in client.get(profile).content.decode()
    assert SiteRating.objects.filter(matches=1).count() == 4
    assert PlayerMatch.objects.filter(match=match).count() == 4
    # Once: another wake-up, a redelivered signal and the catch-up count nothing more.
    reveal(match)
    match_finished.send(sender=Match, match_id=match.pk)
    assert player_stats.do_catch_up() == 0
    assert SiteRating.objects.filter(matches=1).count() == 4


def test_a_count_whose_signal_was_lost_at_the_reveal_is_caught_up(
    make_table, make_user, monkeypatch
):
    """The view reached the end but its signal was lost (a crash after the step's commit): the
    statistics' catch-up beat counts the match and rates it."""
    match = finished_behind(make_table)
    monkeypatch.setattr(delay, "_reveal", lambda match_id: None)
    reveal(match)
    assert not MatchTally.objects.exists()
    assert player_stats.do_catch_up() == 1
    assert SiteRating.objects.filter(matches=1).count() == 4


def test_a_rematch_table_is_hidden_until_the_spectators_see_the_end(make_table, make_user):
    """Everyone accepted a rematch at once: its table (playing) is not in the public lobby,
    answers 404 to a stranger and is in no profile or match list — it would tell the result;
    its players see it. Once the view of the match before reaches the end, everyone does."""
    match = finished_behind(make_table, rated=False)
    people = {s.user.username: s.user for s in Seat.objects.filter(table=match.table)}
    rematches.do_ask(match.table_id, people["ana"])
    for name in ("bo", "cy", "di"):
        rematch = rematches.do_answer(match.table_id, people[name], accept=True)
    new = rematch.new_table
    assert new is not None and Match.objects.filter(table=new).exists()
    client = stranger(make_user)
    row = f'data-table="{new.pk}"'  # its row, in whichever list
    link = f"/tables/{new.pk}/"
    profile = reverse("profile", args=["bo"])
    matches = reverse("games:player_matches", args=["bo"])

    assert row not in Client().get("/").content.decode()
    assert row not in lobby.public_frames(["en"])["en"]
    assert client.get(reverse("games:table", args=[new.pk])).status_code == 404
    assert link not in client.get(profile).content.decode()
    assert link not in client.get(matches).content.decode()
    mine = lobby.mine_frames({people["bo"].pk: ["en"]})[people["bo"].pk, "en"]
    assert row in mine  # the players see their own rematch
    player = Client()
    player.force_login(people["bo"])
    assert player.get(reverse("games:table", args=[new.pk])).status_code == 200
    staff = make_user("steward", is_staff=True)
    watcher = Client()
    watcher.force_login(staff)
    assert watcher.get(reverse("games:table", args=[new.pk])).status_code == 404

    reveal(match)
    assert row in lobby.public_frames(["en"])["en"]
    assert client.get(reverse("games:table", args=[new.pk])).status_code == 200
    assert link in client.get(profile).content.decode()
    assert link in client.get(matches).content.decode()
    assert watcher.get(reverse("games:table", args=[new.pk])).status_code == 200


# --- through the real worker -------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("worker")
def test_the_worker_reveals_the_result_and_only_then_rates_it(make_table, make_user) -> None:
    """A rated table with a delay of 2: two plays 1.5 s apart, then a resignation. The writer's
    own signal at the end rates nobody; the worker's wake-ups step the spectators' view, and the
    step that shows the end rates the four players — the leaderboard shows them only then."""
    from games.play import tables

    table = make_table(list(PEOPLE), QUICK, rated=True, spectator_delay=2)
    match = tables.start(table.pk, table.host, seed=9)
    move_once(match)
    time.sleep(1.5)
    move_once(match)
    time.sleep(1.5)
    person = Seat.objects.get(table=table, number=1).user
    assert services.submit(match.pk, person, {"action": "resign", "version": match.version}).ok
    # The view shows the end 1.25 × 3 s after the first play was made: not yet.
    assert Match.objects.get(pk=match.pk).winner_team == 0
    assert DelayedView.objects.get(match=match).winner_team is None
    assert not SiteRating.objects.exists() and not MatchTally.objects.exists()
    assert 'id="leaderboard-bo"' not in Client().get("/leaderboard/").content.decode()

    assert wait_for(lambda: MatchTally.objects.filter(match=match).exists(), 60)
    assert DelayedView.objects.get(match=match).winner_team == 0
    assert SiteRating.objects.filter(matches=1).count() == 4
    assert 'id="leaderboard-bo"' in Client().get("/leaderboard/").content.decode()
