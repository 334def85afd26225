"""Setting a tournament up as staff: created, opened and started on the staff pages, teams
registered under the entry conditions, round-robin rounds with byes and withdrawals."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from games.models import Match
from leagues import tournaments
from leagues.models import Notice, Pairing, Tournament, TournamentTeam

from .conftest import QUICK, actions_logged, options_post, register_confirmed

pytestmark = pytest.mark.django_db


def test_staff_run_a_tournament_through_the_staff_pages(staff_client, staff, players, client):
    """Create (with the create-table rules fields), open registration, teams register on the
    public form and each partner accepts from their notices, start, generate round 1: four-seat
    tables with the first team at the even seats, started, players notified; all logged."""
    response = staff_client.post(
        "/tournaments/staff/new/",
        {
            "name": "Club Cup",
            "format": "swiss",
            "team_size": "2",
            "planned_rounds": "0",
            **options_post(target_level="3"),
        },
    )
    t = Tournament.objects.get(name="Club Cup")
    assert response.status_code == 302 and response.url == f"/tournaments/{t.pk}/manage/"
    assert staff_client.post(f"/tournaments/{t.pk}/manage/open_registration/").status_code == 302
    for a, b in (("ana", "bo"), ("cy", "di")):
        client.force_login(players[a])
        response = client.post(f"/tournaments/{t.pk}/register/", {"name": "", "partner_1": b})
        assert response.status_code == 302, response.content.decode()
        client.force_login(players[b])
        team = t.teams.get(members__user=players[a])
        notices = client.get("/leagues/notices/").content.decode()
        assert f"/tournaments/{t.pk}/partner/{team.pk}/" in notices
        response = client.post(f"/tournaments/{t.pk}/partner/{team.pk}/", {"answer": "accept"})
        assert response.status_code == 302
    client.force_login(staff)
    staff_client.post(f"/tournaments/{t.pk}/manage/start/")
    response = staff_client.post(
        f"/tournaments/{t.pk}/manage/generate_round/", {"start": "on", "stand_in": ""}, follow=True
    )
    assert "Round 1 is paired" in response.content.decode()
    t.refresh_from_db()
    assert t.status == "running"
    pairing = Pairing.objects.get(round__tournament=t)
    assert (pairing.team_a.name, pairing.team_b.name) == ("ana & bo", "cy & di")
    table = pairing.table
    assert (table.players, table.status, table.options["target_level"]) == (4, "playing", "3")
    assert [(s.number, s.user.username, s.ai_policy) for s in table.seats.all()] == [
        (0, "ana", ""),
        (1, "cy", ""),
        (2, "bo", ""),
        (3, "di", ""),
    ]
    assert Match.objects.filter(table=table).exists()
    assert sorted(Notice.objects.filter(table=table).values_list("user__username", flat=True)) == [
        "ana",
        "bo",
        "cy",
        "di",
    ]
    assert actions_logged(t) == [
        "create",
        "open_registration",
        "register",
        "partner_accept",
        "register",
        "partner_accept",
        "start",
        "generate_round",
    ]
    client.force_login(players["di"])
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert 'id="your-table"' in page and f"/tables/{table.pk}/" in page


def test_registration_enforces_the_entry_conditions_with_clear_messages(
    client, staff, players, league, organiser
):
    """League membership, the minimum rating, team size, one team per player and the
    registration window each refuse with their own message."""
    from leagues import services
    from leagues.models import Rating

    t = tournaments.do_create_tournament(staff, name="Members Cup", league=league, min_rating=-1.0)
    tournaments.do_open_registration(t, staff)
    client.force_login(players["ana"])
    url = f"/tournaments/{t.pk}/register/"

    def register(partner):
        return client.post(url, {"name": "", "partner_1": partner}).content.decode()

    assert "ana is not a member of the league “Tuesday Club”." in register("bo")
    for name in ("ana", "bo", "cy"):
        services.do_join(league, players[name])
    Rating.objects.create(league=league, user=players["bo"], mu=20.0, sigma=8.0)
    assert (
        "bo&#x27;s rating in “Tuesday Club” is -4.0; this tournament needs at least -1.0."
        in register("bo")
    )
    assert "No player is called “nobody”." in register("nobody")
    assert "Name each partner once, and not yourself." in register("ana")
    assert client.post(url, {"name": "Aces", "partner_1": "cy"}).status_code == 302
    client.force_login(players["bo"])
    assert "cy is named in team “Aces” and has not answered yet" in register("cy")
    tournaments.do_answer_partner(TournamentTeam.objects.get(name="Aces"), players["cy"], True)
    assert "cy is already in team “Aces”." in register("cy")
    Tournament.objects.filter(pk=t.pk).update(
        registration_closes=timezone.now() - datetime.timedelta(hours=1)
    )
    assert "Registration closed on" in register("di")
    assert TournamentTeam.objects.filter(tournament=t).count() == 1


def test_round_robin_plays_everyone_once_with_byes_and_withdrawals(staff, players):
    """Three teams: three rounds, one bye each; after a team withdraws its opponent gets a
    bye; a fourth round is refused."""
    t = tournaments.do_create_tournament(
        staff, name="RR", format="round_robin", table_options=QUICK
    )
    tournaments.do_open_registration(t, staff)
    for a, b in (("ana", "bo"), ("cy", "di"), ("ed", "flo")):
        register_confirmed(t, players[a], [b])
    tournaments.do_start(t, staff)
    assert tournaments.planned_rounds(t) == 3

    def play_round():
        rnd = tournaments.do_generate_round(t, staff)
        for p in rnd.pairings.filter(team_b__isnull=False):
            tournaments.do_forfeit(p, staff, 1)
        return [(p.team_a.name, p.team_b.name if p.team_b else None) for p in rnd.pairings.all()]

    first = play_round()
    tournaments.do_withdraw_team(TournamentTeam.objects.get(name="ed & flo"), staff)
    second, third = play_round(), play_round()
    assert first == [("ed & flo", "cy & di"), ("ana & bo", None)]
    meetings = {frozenset(p) for r in (first, second, third) for p in r if p[1]}
    assert meetings == {frozenset(("cy & di", "ed & flo")), frozenset(("ana & bo", "cy & di"))}
    byes = [p[0] for r in (first, second, third) for p in r if p[1] is None]
    assert sorted(byes) == ["ana & bo", "ana & bo", "cy & di"]  # ed & flo withdrew: a bye
    with pytest.raises(tournaments.TournamentError, match="Every planned round"):
        tournaments.do_generate_round(t, staff)
