"""Running a tournament as staff: staff pages and Django admin actions call the same logged
services; everyone else is refused."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone
from lxml import html as lxml_html

from games.models import Match, Seat, Table
from leagues import results, tournaments
from leagues.models import (
    Notice,
    Pairing,
    TeamMember,
    Tournament,
    TournamentLog,
    TournamentRound,
    TournamentTeam,
)

from .conftest import QUICK, options_post, register_confirmed

pytestmark = pytest.mark.django_db

NAMES = ["ana", "bo", "cy", "di", "ed", "flo", "gus", "hal"]


@pytest.fixture
def staff_client(client, staff):
    client.force_login(staff)
    return client


@pytest.fixture
def superuser_client(client, make_user):
    client.force_login(make_user("root", is_staff=True, is_superuser=True))
    return client


@pytest.fixture
def players(make_user):
    return {name: make_user(name) for name in NAMES}


@pytest.fixture
def running(staff, players):
    """A running Swiss tournament of four pairs: ana+bo, cy+di, ed+flo, gus+hal."""
    t = tournaments.do_create_tournament(staff, name="Spring Cup", table_options=QUICK)
    tournaments.do_open_registration(t, staff)
    for a, b in zip(NAMES[::2], NAMES[1::2], strict=True):
        register_confirmed(t, players[a], [b])
    tournaments.do_start(t, staff)
    return Tournament.objects.get(pk=t.pk)


def actions_logged(t):
    return list(
        TournamentLog.objects.filter(tournament=t).order_by("pk").values_list("action", flat=True)
    )


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
