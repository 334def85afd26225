"""Rematch (``games.play.rematches``, issue #10 item 4) and "play again" on PostgreSQL: the same
seats and options at a new table, started when everyone accepts; the seats of people who leave or
do not answer in time open empty. No worker runs here: the answer time's wake-up is
``rematches.expire`` itself."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.live import push, regions
from games.live.presenters import table_context
from games.models import Match, Rematch, Seat, Table
from games.play import rematches, services, tables

pytestmark = pytest.mark.django_db

QUICK = {"target_level": "5", "claim_window_seconds": 0, "turn_seconds": 20}


@pytest.fixture
def finished(make_table):
    """ana (seat 0) and bo (seat 2) with expert and casual AI seats at 1 and 3, a private rated
    quick table; bo resigns at once, so the match is over (team 1 wins)."""
    table = make_table(
        ["ana", None, "bo", None], QUICK, rated=True, visibility=Table.Visibility.PRIVATE
    )
    Seat.objects.filter(table=table, number=1).update(ai_policy=Seat.Policy.EXPERT)
    match = tables.start(table.pk, table.host, seed=7)
    bo = Seat.objects.get(table=table, number=2).user
    assert services.submit(match.pk, bo, {"action": "resign", "version": match.version}).ok
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    return table, table.host, bo


def seating(table: Table) -> list[tuple[int, str | None, str]]:
    return [
        (s.number, s.user.username if s.user_id else None, s.ai_policy)
        for s in Seat.objects.filter(table=table).select_related("user").order_by("number")
    ]


def test_when_everyone_accepts_the_new_match_starts_with_the_same_seats(finished):
    table, ana, bo = finished
    asked = rematches.do_ask(table.pk, ana)
    assert asked.answers == {"0": "yes"} and asked.people == {"0": ana.pk, "2": bo.pk}
    assert not asked.settled
    settled = rematches.do_answer(table.pk, bo, accept=True)
    new = settled.new_table
    assert settled.settled and new is not None and new.pk != table.pk
    assert (
        seating(new)
        == seating(table)
        == [
            (0, "ana", ""),
            (1, None, "expert"),
            (2, "bo", ""),
            (3, None, "heuristic"),
        ]
    )
    assert (new.options, new.rated, new.visibility, new.host_id) == (
        table.options,
        True,
        Table.Visibility.PRIVATE,
        ana.pk,
    )
    assert new.status == Table.Status.PLAYING
    assert Match.objects.get(table=new).winner_team is None


def test_a_player_who_leaves_leaves_an_empty_seat_at_an_open_table(finished, make_user):
    table, ana, bo = finished
    rematches.do_ask(table.pk, bo)  # bo asks this time: he hosts the new table
    settled = rematches.do_answer(table.pk, ana, accept=False)
    new = settled.new_table
    assert new.status == Table.Status.OPEN and new.host_id == bo.pk
    assert seating(new) == [
        (0, None, ""),
        (1, None, "expert"),
        (2, "bo", ""),
        (3, None, "heuristic"),
    ]
    assert not Match.objects.filter(table=new).exists()
    tables.take_seat(new.pk, make_user("cy"), 0)  # an ordinary open table from here
    tables.start(new.pk, bo, seed=1)


def test_nobody_answering_in_time_settles_it_without_them(finished):
    table, ana, bo = finished
    asked = rematches.do_ask(table.pk, ana)
    assert not rematches.expire(asked.pk), "not due yet: a task woken early does nothing"
    assert rematches.sweep_expired() == 0
    Rematch.objects.filter(pk=asked.pk).update(deadline=timezone.now() - timedelta(seconds=5))
    assert rematches.sweep_expired() == 1
    settled = Rematch.objects.get(pk=asked.pk)
    assert settled.settled and settled.answers == {"0": "yes"}
    assert seating(settled.new_table)[2] == (2, None, "")
    assert not rematches.expire(asked.pk), "settled once"
    with pytest.raises(rematches.RematchError, match="settled already"):
        rematches.do_answer(table.pk, bo, accept=True)


def test_refusals_change_nothing(finished, make_table, make_user):
    table, ana, bo = finished
    stranger = make_user("eve")
    with pytest.raises(rematches.RematchError, match="players of this match"):
        rematches.do_ask(table.pk, stranger)
    with pytest.raises(rematches.RematchError, match="Nobody has asked"):
        rematches.do_answer(table.pk, bo, accept=True)
    running = make_table(["flo", None])
    tables.start(running.pk, running.host, seed=2)
    with pytest.raises(rematches.RematchError, match="once the match is over"):
        rematches.do_ask(running.pk, running.host)
    assert not Rematch.objects.exists()
    rematches.do_ask(table.pk, ana)
    rematches.do_ask(table.pk, ana)  # asking again is the same answer: nothing changes
    with pytest.raises(rematches.RematchError, match="no seat at this table"):
        rematches.do_answer(table.pk, stranger, accept=True)
    assert Rematch.objects.get().answers == {"0": "yes"}


def test_a_league_fixture_has_no_rematch(finished):
    from leagues.models import Fixture, League, Season

    table, ana, _bo = finished
    league = League.objects.create(name="L", slug="l")
    season = Season.objects.create(
        league=league, name="S", starts_on=timezone.now().date(), ends_on=timezone.now().date()
    )
    Fixture.objects.create(season=season, table=table)
    assert table_context(table, table.match, services.load_state(table.match), 0).rematch is None
    with pytest.raises(rematches.RematchError, match="league or a tournament"):
        rematches.do_ask(table.pk, ana)


def region(table: Table, seat: int | None) -> tuple[dict | None, str]:
    table = Table.objects.get(pk=table.pk)
    match = Match.objects.get(table=table)
    context = table_context(table, match, services.load_state(match), seat)
    return context.rematch, regions.REMATCH.render(context)


def test_each_page_shows_its_part_of_the_rematch(finished):
    table, ana, bo = finished
    offer, html = region(table, 2)
    assert offer["state"] == "offer" and 'id="rematch-button"' in html
    assert "60 seconds to accept or leave" in html
    spectator, html = region(table, None)
    assert spectator["state"] == "offer" and not spectator["can_ask"] and " hidden" in html

    rematches.do_ask(table.pk, ana)
    mine, html = region(table, 0)
    assert mine["my_answer"] == "yes" and 'id="rematch-waiting"' in html
    assert 'id="rematch-accept"' not in html and 'class="countdown countdown-rematch"' in html
    theirs, html = region(table, 2)
    assert theirs["asked"] and 'id="rematch-accept"' in html and 'id="rematch-leave"' in html
    assert theirs["answers"] == [("ana", "yes"), ("bo", "")]
    _, html = region(table, None)
    assert "ana asks for a rematch" in html and "rematch-accept" not in html

    rematches.do_answer(table.pk, bo, accept=True)
    new = Rematch.objects.get().new_table
    for seat in (0, 2):
        settled, html = region(table, seat)
        assert settled["go"] and f'data-go="/tables/{new.pk}/"' in html
    watcher, html = region(table, None)
    # A spectator of a private table is not sent to (or told of) the new private table.
    assert not watcher["go"] and watcher["new_url"] == "" and "data-go" not in html


def test_the_snapshot_a_page_gets_carries_the_rematch(finished):
    """Every page of the finished table gets a full frame when the rematch changes (its
    revision moves on); the seats' frames send them to the new table."""
    table, ana, bo = finished
    revision = Table.objects.get(pk=table.pk).revision
    rematches.do_ask(table.pk, ana)
    rematches.do_answer(table.pk, bo, accept=True)
    assert Table.objects.get(pk=table.pk).revision == revision + 2
    new = Rematch.objects.get().new_table
    text, _version, _revision = push.snapshot(table.pk, 2, bo, "en")
    assert f'data-go="/tables/{new.pk}/"' in text and 'id="rematch"' in text


def test_the_form_answers_htmx_with_nothing_and_a_plain_post_with_the_new_table(finished, client):
    table, ana, bo = finished
    client.force_login(ana)
    url = f"/tables/{table.pk}/rematch/"
    assert client.post(url, {"answer": "ask"}, headers={"HX-Request": "true"}).status_code == 204
    refused = client.post(url, {"answer": "maybe"}, headers={"HX-Request": "true"})
    assert (
        refused.status_code == 200 and "Accept the rematch or leave it." in refused.content.decode()
    )
    client.force_login(bo)
    answered = client.post(url, {"answer": "yes"})
    new = Rematch.objects.get().new_table
    assert answered.status_code == 302 and answered["Location"] == f"/tables/{new.pk}/"
    assert client.get(url).status_code == 405


@pytest.mark.parametrize("answer", [None, "maybe", "yes", "no", "ask"])
def test_a_spectator_posting_a_rematch_during_the_match_is_told_they_have_no_seat(
    make_table, make_user, client, answer
):
    """A spectator's rematch POST while the match is played, whatever its ``answer``: refused
    because they have no seat (never "accept or leave", never an error), htmx and plain alike;
    a seated player's answer that is no answer is told no rematch was asked."""
    table = make_table(["ana", None])
    tables.start(table.pk, table.host, seed=2)
    client.force_login(make_user("eve"))
    url = f"/tables/{table.pk}/rematch/"
    data = {} if answer is None else {"answer": answer}
    refused = client.post(url, data, headers={"HX-Request": "true"})
    body = refused.content.decode()
    assert refused.status_code == 200 and "Accept the rematch or leave it." not in body
    expected = "ask for a rematch" if answer == "ask" else "no rematch for you to answer"
    assert expected in body
    plain = client.post(url, data, follow=True)
    assert plain.status_code == 200
    assert [str(m) for m in plain.context["messages"]] == [
        "Only the players of this match can ask for a rematch."
        if answer == "ask"
        else "You have no seat at this table, so there is no rematch for you to answer."
    ]
    client.force_login(table.host)
    seated = client.post(url, data, headers={"HX-Request": "true"}).content.decode()
    if answer in (None, "maybe"):
        assert "Nobody has asked for a rematch at this table." in seated
    assert not Rematch.objects.exists()


def test_play_again_opens_a_table_like_the_last_one(finished, client, make_user):
    """From the lobby: bo's last match was at seat 2 beside two AI seats; the new table has
    its options, bo hosting at seat 2, the AI seats again, ana's seat open."""
    table, _ana, bo = finished
    client.force_login(bo)
    lobby = client.get("/").content.decode()
    assert 'id="play-again-button"' in lobby and "2 AI players" in lobby
    response = client.post("/tables/again/")
    new = Table.objects.exclude(pk=table.pk).get()
    assert response.status_code == 302 and response["Location"] == f"/tables/{new.pk}/"
    assert seating(new) == [
        (0, None, ""),
        (1, None, "expert"),
        (2, "bo", ""),
        (3, None, "heuristic"),
    ]
    assert (new.options, new.rated, new.host_id, new.status) == (
        table.options,
        True,
        bo.pk,
        Table.Status.OPEN,
    )
    # A private table's copy is as private as it was (docs/ACCESS.md, "Copies of a table").
    assert (new.name, new.visibility) == (table.name, Table.Visibility.PRIVATE)
    newcomer = make_user("gil")
    client.force_login(newcomer)
    assert 'id="play-again-button"' not in client.get("/").content.decode()
    refused = client.post("/tables/again/", follow=True)
    assert "You have not played a match yet" in refused.content.decode()


def test_play_again_copies_a_public_casual_table_as_it_was(make_table, client):
    """Nothing organises a public casual table: its copy keeps its name, rating, visibility
    and spectator delay, and is listed in the lobby as the first one was."""
    table = make_table(["ana", None, "bo", None], QUICK, rated=True, spectator_delay=2)
    match = tables.start(table.pk, table.host, seed=7)
    bo = Seat.objects.get(table=table, number=2).user
    assert services.submit(match.pk, bo, {"action": "resign", "version": match.version}).ok
    client.force_login(table.host)
    client.post("/tables/again/")
    new = Table.objects.exclude(pk=table.pk).get()
    assert (new.name, new.rated, new.visibility, new.spectator_delay) == (
        "test table",
        True,
        Table.Visibility.PUBLIC,
        2,
    )
    client.logout()
    assert f'id="lobby-table-{new.pk}"' in client.get("/").content.decode()


def test_a_player_who_left_for_good_is_not_asked(make_table):
    """bo left the casual match for good (the AI finished it for him): ana's rematch asks
    nobody else, so it is settled at once, with bo's seat open at the new table."""
    from games.play import standins

    table = make_table(["ana", None, "bo", None], QUICK)
    match = tables.start(table.pk, table.host, seed=3)
    ana, bo = table.host, Seat.objects.get(table=table, number=2).user
    assert standins.control(match.pk, bo, {"action": "leave", "stand_in_seq": 0}).ok
    assert services.submit(match.pk, ana, {"action": "resign", "version": 0}).ok
    settled = rematches.do_ask(table.pk, ana)
    assert settled.people == {"0": ana.pk} and settled.settled
    assert seating(settled.new_table)[2] == (2, None, "")
    assert settled.new_table.status == Table.Status.OPEN
    with pytest.raises(rematches.RematchError, match="not asked"):
        rematches.do_answer(table.pk, bo, accept=True)


def test_a_rematch_table_closed_before_it_started_is_no_longer_offered(finished):
    """bo's rematch table waits for a player; bo closes it: the finished table's pages are
    sent again (its revision moves) and say it was closed, with no link to a closed page."""
    table, ana, bo = finished
    rematches.do_ask(table.pk, bo)
    new = rematches.do_answer(table.pk, ana, accept=False).new_table
    _, html = region(table, 2)
    assert f'href="/tables/{new.pk}/"' in html and "The rematch table is open" in html
    revision = Table.objects.get(pk=table.pk).revision
    tables.close_table(new.pk, bo)
    assert Table.objects.get(pk=table.pk).revision > revision
    for seat in (0, 2, None):
        shown, html = region(table, seat)
        assert shown["new_closed"] and not shown["go"] and shown["new_url"] == ""
        assert "The rematch table was closed before its match started" in html
        assert f"/tables/{new.pk}/" not in html
