"""Running a tournament from the Django admin: its action menus (tournaments, teams, pairings)
call the same logged services as the staff pages, every leagues page of the admin opens, and
everyone but staff is refused (the staff pages' actions: test_staff_actions.py)."""

from __future__ import annotations

import pytest

from games.models import Seat
from leagues import tournaments
from leagues.models import Tournament, TournamentRound, TournamentTeam

from .conftest import QUICK, actions_logged, register_confirmed

pytestmark = pytest.mark.django_db


def test_admin_actions_call_the_same_services(superuser_client, staff, players):
    """The admin's tournament actions open registration, start and generate a round (with AI
    stand-ins chosen beside the action menu), and are logged like the staff pages."""
    t = tournaments.do_create_tournament(staff, name="Admin Cup", table_options=QUICK)
    url = "/admin/leagues/tournament/"

    def act(action, follow=False, **extra):
        return superuser_client.post(
            url, {"action": action, "_selected_action": [t.pk], "index": 0, **extra}, follow=follow
        )

    assert act("open_registration").status_code == 302
    for a, b in (("ana", "bo"), ("cy", "di"), ("ed", "flo")):
        register_confirmed(t, players[a], [b])
    act("start")
    act("generate_round", start_matches="on", stand_in="heuristic")
    t.refresh_from_db()
    assert t.status == "running"
    rnd = TournamentRound.objects.get(tournament=t)
    pairs = [
        (p.team_a.name, p.team_b.name if p.team_b else None, p.winner_team)
        for p in rnd.pairings.all()
    ]
    assert pairs == [("ana & bo", "cy & di", None), ("ed & flo", None, 0)]  # a bye: a win
    table = rnd.pairings.get(board=1).table
    assert [(s.user.username, s.ai_policy) for s in table.seats.all()] == [
        ("ana", "heuristic"),
        ("cy", "heuristic"),
        ("bo", "heuristic"),
        ("di", "heuristic"),
    ]
    act("pause")
    assert Tournament.objects.get(pk=t.pk).status == "paused"
    response = act("generate_round", follow=True)
    assert "Not possible while the tournament is" in response.content.decode()
    assert actions_logged(t) == [
        "create",
        "open_registration",
        *["register", "partner_accept"] * 3,
        "start",
        "generate_round",
        "pause",
    ]


def test_non_staff_are_refused_everywhere(client, running, players):
    """A logged-in player gets the login page for staff pages, staff actions and admin
    actions, and nothing changes."""
    client.force_login(players["ana"])
    for url in (
        "/tournaments/staff/",
        "/tournaments/staff/new/",
        f"/tournaments/{running.pk}/manage/",
    ):
        response = client.get(url)
        assert response.status_code == 302 and response.url.startswith("/admin/login/"), url
    response = client.post(f"/tournaments/{running.pk}/manage/pause/")
    assert response.status_code == 302 and response.url.startswith("/admin/login/")
    response = client.post(
        "/admin/leagues/tournament/", {"action": "close", "_selected_action": [running.pk]}
    )
    assert response.status_code == 302 and response.url.startswith("/admin/login/")
    client.logout()
    response = client.post(f"/tournaments/{running.pk}/manage/generate_round/")
    assert response.status_code == 302 and response.url.startswith("/admin/login/")
    running.refresh_from_db()
    assert running.status == "running" and not running.rounds.exists()


def test_staff_pages_and_admin_pages_render(superuser_client, running):
    """The manage page lists the actions, rounds and log; the admin lists and change pages of
    every leagues model open."""
    rnd = tournaments.do_generate_round(running, running.created_by)
    html = superuser_client.get(f"/tournaments/{running.pk}/manage/").content.decode()
    for text in (
        "Pause",
        "Close",
        "Forfeits",
        "Replace",
        "Hand over the seat",
        "Withdraw",
        "generate_round",
    ):
        assert text in html, text
    assert superuser_client.get("/tournaments/staff/").status_code == 200
    assert superuser_client.get("/tournaments/").status_code == 200
    pairing = rnd.pairings.first()
    for url in (
        "tournament",
        "tournamentteam",
        "tournamentround",
        "pairing",
        "tournamentlog",
        "league",
        "membership",
        "season",
        "fixture",
        "rating",
        "ratinghistory",
        "notice",
    ):
        assert superuser_client.get(f"/admin/leagues/{url}/").status_code == 200, url
    for url in (
        f"tournament/{running.pk}",
        f"pairing/{pairing.pk}",
        f"tournamentround/{rnd.pk}",
        f"tournamentteam/{pairing.team_a_id}",
    ):
        assert superuser_client.get(f"/admin/leagues/{url}/change/").status_code == 200, url


def test_admin_team_and_pairing_actions(superuser_client, running, make_user):
    """Replace a player and forfeit from the admin's action menus, through the services."""
    make_user("zoe")
    rnd = tournaments.do_generate_round(running, running.created_by)
    team = TournamentTeam.objects.get(tournament=running, name="gus & hal")
    superuser_client.post(
        "/admin/leagues/tournamentteam/",
        {
            "action": "replace_player",
            "_selected_action": [team.pk],
            "index": 0,
            "old_username": "hal",
            "new_username": "zoe",
        },
    )
    assert [m.user.username for m in team.members.all()] == ["gus", "zoe"]
    board2 = rnd.pairings.get(board=2)
    assert Seat.objects.get(table=board2.table, number=3).user.username == "zoe"
    superuser_client.post(
        "/admin/leagues/pairing/",
        {"action": "forfeit_b", "_selected_action": [board2.pk], "index": 0},
    )
    board2.refresh_from_db()
    assert (board2.winner_team, board2.forfeit) == (0, True)
    assert actions_logged(running)[-2:] == ["replace_player", "forfeit"]
