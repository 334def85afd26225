"""Organising without raw JSON (issue #10 item 7): league, season and tournament table options
through the create-table form's fields, checked on save and editable after; the page a player
gets at /leagues/new/; partners who confirm their registration; a closed tournament's winner."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from games.forms import TableOptionsForm
from games.play import tables
from leagues import services, tournaments
from leagues.models import League, Notice, TeamMember, Tournament, TournamentTeam

from .conftest import QUICK, options_post, register_confirmed

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]

NAMES = ["ana", "bo", "cy", "di", "ed", "flo"]


@pytest.fixture
def players(make_user):
    return {name: make_user(name) for name in NAMES}


# --- table options ------------------------------------------------------------------------------


def test_a_league_refuses_an_unknown_option_everywhere_it_can_be_saved(organiser):
    """The service, the model's clean (what the admin runs) and the options form each refuse
    {"bogus_option": 1}; nothing is created."""
    with pytest.raises(services.LeagueError, match="unknown option 'bogus_option'"):
        services.do_create_league(organiser, name="Bogus", table_options={"bogus_option": 1})
    assert not League.objects.filter(name="Bogus").exists()
    league = League(name="Bogus", slug="bogus", table_options={"bogus_option": 1})
    with pytest.raises(ValidationError) as error:
        league.full_clean()
    assert "table_options" in error.value.message_dict
    league.table_options = {"target_level": "1"}
    with pytest.raises(ValidationError):
        league.full_clean()
    form = TableOptionsForm(options_post(target_level="Z"), prefix="options", players=4)
    assert not form.is_valid() and "target_level" in form.errors


def test_an_organiser_mends_options_saved_before_they_were_checked(
    client, league, organiser, members, season
):
    """A league whose stored options cannot open a table says where to fix them; its options
    page shows the fields (warning about the bad name), saving replaces them, and the next
    fixture's table gets exactly the saved rules."""
    League.objects.filter(pk=league.pk).update(table_options={"bogus_option": 1})
    league.refresh_from_db()
    teams = [[members["ana"], members["cy"]], [members["bo"], members["di"]]]
    with pytest.raises(services.LeagueError, match="Organise → Table options"):
        services.do_create_fixture(season, organiser, teams)
    client.force_login(organiser)
    page = client.get(f"/leagues/{league.slug}/manage/options/").content.decode()
    assert "bogus_option" in page and 'name="options-target_level"' in page
    assert "RULES.md" not in page
    response = client.post(
        f"/leagues/{league.slug}/manage/options/",
        options_post(target_level="3", claim_window_seconds=0, joker_hook=True),
    )
    assert response.status_code == 302
    league.refresh_from_db()
    assert "bogus_option" not in league.table_options
    assert (league.table_options["target_level"], league.table_options["joker_hook"]) == ("3", True)
    fixture = services.do_create_fixture(season, organiser, teams)
    assert fixture.table.options == league.table_options
    assert fixture.table.engine_options().joker_hook is True
    manage = client.get(f"/leagues/{league.slug}/manage/").content.decode()
    assert 'id="edit-league-options"' in manage and "Play to level" in manage
    # Everyone sees the league's rules on its page, named as the create-table form names them.
    rules = client.get(f"/leagues/{league.slug}/").content.decode().split('id="league-rules"')[1]
    assert 'data-option="joker_hook"' in rules.split("</section>")[0]


def test_only_organisers_edit_league_and_season_options(client, league, members, season):
    client.force_login(members["ana"])
    assert client.get(f"/leagues/{league.slug}/manage/options/").status_code == 403
    assert client.get(f"/leagues/{league.slug}/seasons/{season.pk}/options/").status_code == 403
    before = dict(league.table_options)
    client.post(f"/leagues/{league.slug}/manage/options/", options_post(target_level="K"))
    league.refresh_from_db()
    assert league.table_options == before


def test_a_season_has_its_own_options_or_the_leagues(client, league, organiser, members, season):
    """Ticked, the season's rules go to its fixtures' tables; unticked, the league's again."""
    client.force_login(organiser)
    url = f"/leagues/{league.slug}/seasons/{season.pk}/options/"
    assert 'name="own"' in client.get(url).content.decode()
    response = client.post(url, {"own": "on", **options_post(target_level="5")})
    assert response.status_code == 302
    season.refresh_from_db()
    assert season.table_options["target_level"] == "5"
    teams = [[members["ana"], members["cy"]], [members["bo"], members["di"]]]
    fixture = services.do_create_fixture(season, organiser, teams)
    assert fixture.table.engine_options().target_level == 5
    page = client.get(f"/leagues/{league.slug}/seasons/{season.pk}/").content.decode()
    assert 'id="edit-season-options"' in page
    client.post(url, options_post(target_level="7"))  # "own" unticked: back to the league's
    season.refresh_from_db()
    assert season.table_options == {} and season.effective_options() == QUICK


def test_staff_set_tournament_options_with_the_fields_and_new_rounds_use_them(
    client, staff, players
):
    t = tournaments.do_create_tournament(staff, name="Cup", table_options=QUICK)
    with pytest.raises(tournaments.TournamentError, match="unknown option"):
        tournaments.do_set_table_options(t, staff, {"bogus_option": 1})
    client.force_login(staff)
    url = f"/tournaments/{t.pk}/manage/options/"
    assert 'name="options-bomb_order"' in client.get(url).content.decode()
    response = client.post(url, options_post(target_level="4", claim_window_seconds=0))
    assert response.status_code == 302
    t.refresh_from_db()
    assert t.table_options["target_level"] == "4"
    assert t.log.filter(action="table_options").exists()
    tournaments.do_open_registration(t, staff)
    register_confirmed(t, players["ana"], ["bo"])
    register_confirmed(t, players["cy"], ["di"])
    tournaments.do_start(t, staff)
    rnd = tournaments.do_generate_round(t, staff, start=False)
    assert rnd.pairings.get().table.engine_options().target_level == 4
    client.force_login(players["ana"])
    assert client.get(url).status_code == 302  # staff only: to the log-in
    rules = client.get(f"/tournaments/{t.pk}/").content.decode().split('id="tournament-rules"')[1]
    assert '<div data-option="target_level"><dt>Play to level</dt>' in rules


@pytest.mark.parametrize(
    ("language", "none", "one"),
    [
        ("en", "as many rounds as its format needs", "1 round planned"),
        ("es", "tantas rondas como requiera su formato", "1 ronda prevista"),
        ("id", "sebanyak ronde yang dibutuhkan formatnya", "1 ronde direncanakan"),
        ("vi", "số vòng tùy theo thể thức", "Dự kiến 1 vòng"),
    ],
)
def test_the_manage_page_counts_the_planned_rounds_in_the_right_number(
    client, staff, players, language, none, one
):
    """Two teams play one round: the page read "1 rounds planned" ("1 rondas previstas"). With
    no round set and no team yet, the rounds are the format's to say, not "0 rounds planned"."""
    from django.conf import settings

    t = tournaments.do_create_tournament(staff, name="Cup", table_options=QUICK)
    client.force_login(staff)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    url = f"/tournaments/{t.pk}/manage/"
    assert none in client.get(url).content.decode()
    tournaments.do_open_registration(t, staff)
    register_confirmed(t, players["ana"], ["bo"])
    register_confirmed(t, players["cy"], ["di"])
    assert tournaments.planned_rounds(t) == 1
    html = client.get(url).content.decode()
    assert one in html


# --- who can create a league --------------------------------------------------------------------


def test_a_player_opening_new_league_learns_who_creates_leagues(client, make_user, settings):
    client.force_login(make_user("ana"))
    make_user("boss", is_staff=True)
    settings.CLUB_CONTACT_EMAIL = "staff@club.example"
    response = client.get("/leagues/new/")
    page = response.content.decode()
    assert response.status_code == 403
    assert "Who can create a league" in page
    assert 'href="mailto:staff@club.example?subject=A%20new%20league"' in page
    assert 'href="/accounts/boss/"' in page
    client.logout()
    response = client.get("/leagues/new/")
    assert response.status_code == 302 and response.url.startswith("/accounts/login/")


# --- partners confirm ---------------------------------------------------------------------------


def test_a_named_partner_accepts_from_their_notices_and_the_team_is_confirmed(
    client, staff, players
):
    t = tournaments.do_create_tournament(staff, name="Pairs", table_options=QUICK)
    tournaments.do_open_registration(t, staff)
    team = tournaments.do_register_team(t, players["ana"], ["bo"])
    assert not team.is_confirmed
    assert list(team.members.values_list("user__username", "pending")) == [
        ("ana", False),
        ("bo", True),
    ]
    client.force_login(players["bo"])
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert 'id="partner-request"' in page and "not yet accepted" in page
    notices = client.get("/leagues/notices/").content.decode()
    assert "ana named you as a partner in team “ana &amp; bo” for Pairs." in notices
    assert f'action="/tournaments/{t.pk}/partner/{team.pk}/"' in notices
    # An unanswered request stays unseen (the header keeps counting it) until answered.
    assert Notice.objects.get(user=players["bo"], kind="partner_request").seen_at is None
    response = client.post(
        f"/tournaments/{t.pk}/partner/{team.pk}/", {"answer": "accept"}, follow=True
    )
    assert "You are in team “ana &amp; bo”." in response.content.decode()
    team.refresh_from_db()
    assert team.is_confirmed
    assert Notice.objects.get(user=players["bo"], kind="partner_request").seen_at is not None
    assert sorted(
        Notice.objects.filter(kind="team_confirmed").values_list("user__username", flat=True)
    ) == ["ana", "bo"]
    # Nobody else can answer for bo, and bo cannot answer twice.
    client.force_login(players["cy"])
    response = client.post(
        f"/tournaments/{t.pk}/partner/{team.pk}/", {"answer": "decline"}, follow=True
    )
    assert "There is no request from this team for you to answer." in response.content.decode()
    assert TournamentTeam.objects.filter(pk=team.pk).exists()


def test_a_declining_partner_withdraws_the_registration_and_the_others_are_told(
    client, staff, players
):
    t = tournaments.do_create_tournament(staff, name="Pairs", table_options=QUICK)
    tournaments.do_open_registration(t, staff)
    team = tournaments.do_register_team(t, players["ana"], ["bo"])
    assert tournaments.do_answer_partner(team, players["bo"], accept=False) is None
    assert not TournamentTeam.objects.filter(pk=team.pk).exists()
    assert not TeamMember.objects.filter(tournament=t).exists()
    declined = Notice.objects.get(user=players["ana"], kind="partner_declined")
    assert declined.about == players["bo"]
    client.force_login(players["ana"])
    notices = client.get("/leagues/notices/").content.decode()
    assert "bo declined to play with you in Pairs: your registration is withdrawn." in notices
    # Both are free to register again.
    assert tournaments.do_register_team(t, players["bo"], ["cy"]).name == "bo & cy"


def test_only_confirmed_teams_start_and_pending_ones_are_dropped(staff, players):
    t = tournaments.do_create_tournament(staff, name="Pairs", table_options=QUICK)
    tournaments.do_open_registration(t, staff)
    register_confirmed(t, players["ana"], ["bo"])
    pending = tournaments.do_register_team(t, players["ed"], ["flo"])
    with pytest.raises(tournaments.TournamentError, match="partners have all accepted"):
        tournaments.do_start(t, staff)
    register_confirmed(t, players["cy"], ["di"])
    tournaments.do_start(t, staff)
    assert not TournamentTeam.objects.filter(pk=pending.pk).exists()
    assert list(t.log.filter(action="drop_unconfirmed").values_list("detail", flat=True)) == [
        "ed & flo"
    ]
    rnd = tournaments.do_generate_round(t, staff, start=False)
    assert [(p.team_a.name, p.team_b.name) for p in rnd.pairings.all()] == [("ana & bo", "cy & di")]
    with pytest.raises(tournaments.TournamentError, match="no request"):
        tournaments.do_answer_partner(pending, players["flo"], accept=True)


# --- closing ------------------------------------------------------------------------------------


def test_a_closed_tournament_names_its_winner_and_tells_every_player(
    client, staff, players, play_out
):
    t = tournaments.do_create_tournament(staff, name="Final Cup", table_options=QUICK)
    tournaments.do_open_registration(t, staff)
    register_confirmed(t, players["ana"], ["bo"])
    register_confirmed(t, players["cy"], ["di"])
    tournaments.do_start(t, staff)
    pairing = tournaments.do_generate_round(t, staff).pairings.get()
    play_out(pairing.table, winner_team=1)  # the second team (cy & di) wins
    tournaments.do_close(t, staff)
    t.refresh_from_db()
    assert (t.status, t.winner.name) == ("closed", "cy & di")
    told = Notice.objects.filter(kind="tournament_closed", tournament=t)
    assert sorted(told.values_list("user__username", flat=True)) == ["ana", "bo", "cy", "di"]
    assert {n.team_id for n in told} == {t.winner_id}
    client.force_login(players["ana"])
    page = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert 'id="tournament-winner"' in page and "Winner: cy &amp; di" in page
    notices = client.get("/leagues/notices/").content.decode()
    assert "Final Cup is over: “cy &amp; di” won." in notices
    assert "Winner: cy &amp; di" in client.get("/tournaments/").content.decode()


def test_a_tournament_closed_before_any_match_has_no_winner(staff, players):
    t = tournaments.do_create_tournament(staff, name="Empty Cup", table_options=QUICK)
    tournaments.do_open_registration(t, staff)
    register_confirmed(t, players["ana"], ["bo"])
    tournaments.do_close(t, staff)
    t = Tournament.objects.get(pk=t.pk)
    assert t.winner is None
    notice = Notice.objects.get(user=players["bo"], kind="tournament_closed")
    assert notice.team is None


def test_the_start_of_a_fixture_table_still_works_with_edited_options(
    league, organiser, members, season
):
    """Sanity: a league's edited options deal a real match."""
    services.do_set_league_options(league, organiser, {"target_level": "3", "turn_seconds": 20})
    teams = [[members["ana"], members["cy"]], [members["bo"], members["di"]]]
    fixture = services.do_create_fixture(season, organiser, teams)
    tables.start(fixture.table_id, members["ana"], seed=4)
    fixture.table.refresh_from_db()
    assert fixture.table.status == "playing"


# --- a fixture's table is its organisers' to close ----------------------------------------------


def test_a_fixture_table_is_neither_closed_by_its_host_nor_by_everyone_standing_up(
    season, organiser, members, client
):
    """A waiting table closes when its host closes it or its last person stands up
    (``games.play.tables``), but not a league fixture's: its host (a player) has no "Close
    table" and is refused, and the fixture stays open when all four stand up."""
    from games.models import Table

    teams = [[members["ana"], members["cy"]], [members["bo"], members["di"]]]
    fixture = services.do_create_fixture(season, organiser, teams)
    table = fixture.table
    assert table.host == members["ana"]
    client.force_login(members["ana"])
    assert 'id="close-table"' not in client.get(table.get_absolute_url()).content.decode()
    with pytest.raises(tables.TableError, match="only its organisers can close it"):
        tables.close_table(table.pk, members["ana"])
    for name in ("ana", "bo", "cy", "di"):
        tables.leave_seat(table.pk, members[name])
    assert Table.objects.get(pk=table.pk).status == Table.Status.OPEN
