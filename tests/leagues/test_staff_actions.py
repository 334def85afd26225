"""Running a tournament's rounds as staff, on the manage page: forfeits, replacing a player,
AI stand-ins, re-pairing and closing call the logged services (leagues.tournaments)."""

from __future__ import annotations

import pytest
from lxml import html as lxml_html

from games.models import Match, Seat, Table
from leagues import results, tournaments
from leagues.models import TeamMember, Tournament, TournamentRound, TournamentTeam

from .conftest import actions_logged

pytestmark = pytest.mark.django_db


def test_forfeit_records_the_other_team_as_winner_and_abandons_the_table(staff_client, running):
    """Team A forfeits board 1: team B wins by forfeit with no levels, the table is abandoned
    and its timer stopped; a second forfeit of the same match is refused."""
    rnd = tournaments.do_generate_round(running, running.created_by)
    pairing = rnd.pairings.get(board=1)
    url = f"/tournaments/{running.pk}/manage/forfeit/"
    staff_client.post(url, {"pairing": pairing.pk, "forfeiting": "0"})
    pairing.refresh_from_db()
    assert (pairing.winner_team, pairing.forfeit, pairing.levels_a, pairing.levels_b) == (
        1,
        True,
        0,
        0,
    )
    assert pairing.processed_at is not None
    assert pairing.table.status == Table.Status.ABANDONED
    match = Match.objects.get(table=pairing.table)
    assert (match.deadline, match.deadline_kind, match.deadline_token) == (
        None,
        "",
        match.version + 1,
    )
    response = staff_client.post(url, {"pairing": pairing.pk, "forfeiting": "1"}, follow=True)
    assert "This match already has a result." in response.content.decode()
    assert actions_logged(running)[-1] == "forfeit"
    rows = {r.name: (r.won, r.lost, r.levels) for r in results.tournament_standings(running)}
    assert rows["cy & di"] == (1, 0, 0) and rows["ana & bo"] == (0, 1, 0)


def test_replace_player_changes_the_team_and_the_seat_at_the_live_table(
    staff_client, running, make_user
):
    """bo is replaced by zoe: the team lists zoe, and zoe has bo's seat at the live table."""
    make_user("zoe")
    rnd = tournaments.do_generate_round(running, running.created_by)
    team = TournamentTeam.objects.get(tournament=running, name="ana & bo")
    staff_client.post(
        f"/tournaments/{running.pk}/manage/replace_player/",
        {"team": team.pk, "old": "bo", "new": "zoe"},
    )
    assert [m.user.username for m in team.members.all()] == ["ana", "zoe"]
    table = rnd.pairings.get(board=1).table
    assert [(s.number, s.user.username) for s in table.seats.all()] == [
        (0, "ana"),
        (1, "cy"),
        (2, "zoe"),
        (3, "di"),
    ]
    response = staff_client.post(
        f"/tournaments/{running.pk}/manage/replace_player/",
        {"team": team.pk, "old": "ana", "new": "cy"},
        follow=True,
    )
    assert "cy is already in team “cy &amp; di”." in response.content.decode()
    assert TeamMember.objects.get(team=team, position=0).user.username == "ana"
    assert actions_logged(running)[-1] == "replace_player"


def test_a_seat_can_be_handed_to_an_ai_stand_in_and_back(staff_client, running):
    """The stand-in keeps the person on the seat and sets its ai_policy; "" hands it back."""
    rnd = tournaments.do_generate_round(running, running.created_by)
    team = TournamentTeam.objects.get(tournament=running, name="cy & di")
    url = f"/tournaments/{running.pk}/manage/stand_in/"
    staff_client.post(url, {"team": team.pk, "username": "di", "policy": "random"})
    seat = Seat.objects.get(table=rnd.pairings.get(board=1).table, number=3)
    assert (seat.user.username, seat.ai_policy) == ("di", "random")
    staff_client.post(url, {"team": team.pk, "username": "di", "policy": ""})
    seat.refresh_from_db()
    assert (seat.user.username, seat.ai_policy) == ("di", "")


def test_re_pair_gives_new_pairings_before_the_round_starts_and_not_after(staff_client, running):
    """Round 1 paired without starting (ana&bo–cy&di, ed&flo–gus&hal) is re-paired into
    different meetings with new tables; once started it can no longer be re-paired."""
    rnd = tournaments.do_generate_round(running, running.created_by, start=False)

    def meetings():
        return [(p.team_a.name, p.team_b.name) for p in rnd.pairings.all()]

    assert meetings() == [("ana & bo", "cy & di"), ("ed & flo", "gus & hal")]
    old_tables = list(rnd.pairings.values_list("table_id", flat=True))
    url = f"/tournaments/{running.pk}/manage/repair_round/"
    staff_client.post(url, {"round": rnd.pk})
    assert meetings() == [("ana & bo", "ed & flo"), ("cy & di", "gus & hal")]
    assert not Table.objects.filter(pk__in=old_tables).exists()
    assert all(p.table.status == "open" for p in rnd.pairings.all())
    staff_client.post(f"/tournaments/{running.pk}/manage/start_round/", {"round": rnd.pk})
    assert all(p.table.status == "playing" for p in rnd.pairings.all())
    response = staff_client.post(url, {"round": rnd.pk}, follow=True)
    assert "Only a round whose matches have not started can be re-paired." in (
        response.content.decode()
    )
    assert actions_logged(running)[-3:] == ["generate_round", "repair_round", "start_round"]


def test_close_waits_for_every_result(staff_client, running):
    """Close is refused while matches have no result, and works once they are forfeited."""
    rnd = tournaments.do_generate_round(running, running.created_by)
    url = f"/tournaments/{running.pk}/manage/close/"
    response = staff_client.post(url, follow=True)
    assert "2 matches have no result yet" in response.content.decode()
    for pairing in rnd.pairings.all():
        tournaments.do_forfeit(pairing, running.created_by, 1)
    assert TournamentRound.objects.get(pk=rnd.pk).status == "finished"
    staff_client.post(url)
    assert Tournament.objects.get(pk=running.pk).status == "closed"


def test_the_manage_page_asks_before_closing(staff_client, running):
    """Closing cannot be undone: the one form that posts it sits inside a "Close" disclosure,
    beside what closing does, behind a "Yes, close it" button; the page alone closes nothing."""
    close_url = f"/tournaments/{running.pk}/manage/close/"
    page = lxml_html.fromstring(staff_client.get(f"/tournaments/{running.pk}/manage/").content)
    [form] = page.xpath(f'//form[@action="{close_url}"]')
    [confirm] = form.xpath('ancestor::details[@id="close-tournament-confirm"]')
    assert confirm.get("open") is None
    assert confirm.xpath("./summary")[0].text_content().strip() == "Close"
    assert "the standings as they are name the winner" in form.text_content()
    assert form.xpath(".//button")[0].text_content().strip() == "Yes, close it"
    assert Tournament.objects.get(pk=running.pk).status == "running"
