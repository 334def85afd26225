"""Organiser forms that answer every input (issue 18 §3), case by case: each wrong input the
issue names is answered on the same page, next to its field, with what was typed kept and
nothing created; a forged address or id is a 404 or the fallback page, never a 500.
(``test_organiser_fuzz`` posts generated input to the same forms; ``test_season_schedule``
has the round robin, the staff's Start and the standings.)"""

from __future__ import annotations

import datetime
import re

import pytest
from django.urls import reverse

from leagues import services, tournaments
from leagues.models import Fixture, League, Membership, Season, Tournament

from .conftest import QUICK, options_post, register_confirmed

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def _field_errors(html: str, name: str) -> str:
    """The error text shown in the field block of the input called ``name``
    (``form_snippet.html``), or "" when it has none."""
    block = re.search(
        rf'<div class="field has-error[^"]*">(?:(?!<div class="field).)*?name="{name}".*?'
        r'<div class="errors" role="alert">(.*?)</div>',
        html,
        re.S,
    )
    return re.sub(r"<[^>]+>", " ", block.group(1)) if block else ""


# --- the league form ----------------------------------------------------------------------------


@pytest.mark.parametrize("seats", ["0", "3", "7", "999999"])
def test_a_league_with_a_seat_count_no_table_has_says_so_beside_the_field(client, staff, seats):
    """0, 3, 7 or 999999 seats per table were a 500 ('LeagueForm' has no field named
    'table_options'): now the seats field says what it takes and no league is made."""
    client.force_login(staff)
    response = client.post(
        reverse("leagues:create"),
        {"name": "Odd Club", "visibility": "public", "join_policy": "open", "players": seats}
        | options_post(),
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert _field_errors(html, "players")
    assert 'value="Odd Club"' in html
    assert not League.objects.filter(name="Odd Club").exists()


# --- next and back addresses --------------------------------------------------------------------


@pytest.mark.parametrize("target", ["abc", "-1"])
def test_a_forged_next_on_fixture_creation_falls_back_to_the_league_page(
    client, league, organiser, members, season, target
):
    """``redirect("abc")`` read a bare word as a URL name and failed (a 500)."""
    client.force_login(organiser)
    response = client.post(
        reverse("leagues:fixture_create", args=[league.slug]),
        {"season": season.pk, "team0": "ana, cy", "team1": "bo, di", "next": target},
    )
    assert response.status_code == 302
    assert response["Location"] == league.get_absolute_url()
    assert season.fixtures.count() == 1


def test_the_chat_and_friends_back_address_stays_on_the_site(client, make_user):
    """games.chat.views.back took ``/\\evil.example`` for a path of this site; browsers go
    to evil.example with it (an open redirect)."""
    me, other = make_user("me"), make_user("other")
    client.force_login(me)
    response = client.post(reverse("chat:mute", args=[other.pk]), {"next": "/\\evil.example"})
    assert response.status_code == 302
    assert response["Location"] == "/social/friends/"


# --- tournaments --------------------------------------------------------------------------------


def _tournament_post(**changes) -> dict:
    data = {
        "name": "Cup",
        "format": "swiss",
        "team_size": "2",
        "planned_rounds": "0",
        "registration_opens": "",
        "registration_closes": "",
        "league": "",
        "min_rating": "",
    } | options_post()
    data.update(changes)
    return data


@pytest.mark.parametrize(
    "changes, field",
    [
        (
            {"registration_opens": "2026-06-10T18:00", "registration_closes": "2026-06-01T18:00"},
            "registration_closes",
        ),
        ({"rated": "on"}, "rated"),
        ({"planned_rounds": "999"}, "planned_rounds"),
        ({"planned_rounds": "16"}, "planned_rounds"),
    ],
)
def test_the_tournament_form_refuses_nonsense_beside_the_field(client, staff, changes, field):
    """Registration closing before it opens, "Rated" without a league, 999 Swiss rounds:
    each was accepted; now the field says why and no tournament is made."""
    client.force_login(staff)
    response = client.post(reverse("tournaments:create"), _tournament_post(**changes))
    assert response.status_code == 200
    assert _field_errors(response.content.decode(), field)
    assert not Tournament.objects.exists()


def test_the_tournament_service_refuses_the_same_nonsense(staff, league):
    when = datetime.datetime(2026, 6, 10, 18, tzinfo=datetime.UTC)
    for fields in (
        {"registration_opens": when, "registration_closes": when - datetime.timedelta(days=1)},
        {"rated": True},
        {"planned_rounds": 999},
    ):
        with pytest.raises(tournaments.TournamentError):
            tournaments.do_create_tournament(staff, name="Cup", **fields)
    assert not Tournament.objects.exists()
    tournaments.do_create_tournament(staff, name="Cup", rated=True, league=league)


def test_a_swiss_plans_at_most_teams_less_one_rounds_once_its_teams_are_known(staff, make_user):
    """Four teams meet each other in three rounds: a fourth Swiss round would repeat a
    meeting. The check (the admin's clean) says so, and the rounds played stop at three."""
    t = tournaments.do_create_tournament(staff, name="Cup", planned_rounds=4, table_options=QUICK)
    assert t.settings_problems() == {}
    tournaments.do_open_registration(t, staff)
    people = [make_user(f"p{i}") for i in range(8)]
    for i in range(0, 8, 2):
        register_confirmed(t, people[i], [people[i + 1].username])
    assert "at most 3 Swiss rounds" in t.settings_problems()["planned_rounds"]
    assert tournaments.planned_rounds(t) == 3
    t.planned_rounds = 3
    assert t.settings_problems() == {}


def test_the_manage_page_shows_the_registration_dates(client, staff):
    opens = datetime.datetime(2026, 6, 1, 18, tzinfo=datetime.UTC)
    t = tournaments.do_create_tournament(
        staff,
        name="Cup",
        registration_opens=opens,
        registration_closes=opens + datetime.timedelta(days=9),
    )
    client.force_login(staff)
    html = client.get(reverse("tournaments:manage", args=[t.pk])).content.decode()
    dates = html.split('id="registration-dates"')[1].split("</p>")[0]
    assert "06/01/2026" in dates and "06/10/2026" in dates


def test_start_the_matches_now_is_not_ticked(client, staff):
    t = tournaments.do_create_tournament(staff, name="Cup")
    client.force_login(staff)
    t.status = Tournament.Status.RUNNING
    t.save()
    html = client.get(reverse("tournaments:manage", args=[t.pk])).content.decode()
    box = re.search(r'<input type="checkbox" name="start"[^>]*>', html).group(0)
    assert "checked" not in box


@pytest.mark.parametrize("action, field", [("start_round", "round"), ("withdraw", "team")])
@pytest.mark.parametrize("forged", ["abc", "", "1.5"])
def test_a_forged_round_or_team_id_is_a_404(client, staff, action, field, forged):
    t = tournaments.do_create_tournament(staff, name="Cup")
    client.force_login(staff)
    response = client.post(reverse("tournaments:act", args=[t.pk, action]), {field: forged})
    assert response.status_code == 404


def _replace_in_team_of_ana_and_bo(client, staff, make_user, old: str, new: str):
    """A cup open for registration with one confirmed team (ana and bo); the staff, signed in,
    asks to replace ``old`` with ``new``. Gives the team and the response."""
    t = tournaments.do_create_tournament(staff, name="Cup", table_options=QUICK)
    tournaments.do_open_registration(t, staff)
    make_user("bo")
    team = register_confirmed(t, make_user("ana"), ["bo"])
    client.force_login(staff)
    response = client.post(
        reverse("tournaments:act", args=[t.pk, "replace_player"]),
        {"team": team.pk, "old": old, "new": new},
    )
    return team, response


def test_a_refused_replacement_comes_back_in_its_team_row_with_what_was_typed(
    client, staff, make_user
):
    team, response = _replace_in_team_of_ana_and_bo(client, staff, make_user, "ana", "nobody-here")
    assert response.status_code == 200
    html = response.content.decode()
    row = html.split('id="replace-errors"')[0].rsplit("<tr>", 1)[1]
    assert 'value="nobody-here"' in row and "<option selected>ana</option>" in row
    assert "nobody-here" in html.split('id="replace-errors"')[1].split("</div>")[0]
    assert set(team.members.values_list("user__username", flat=True)) == {"ana", "bo"}


def test_a_replacement_finds_both_players_in_any_case(client, staff, make_user):
    """The staff's "Player leaving" was looked up case-sensitively ("ANA" was nobody) while
    "Player coming in" was not: both now find the player whatever the case."""
    make_user("Cy")
    team, response = _replace_in_team_of_ana_and_bo(client, staff, make_user, "ANA", "cY")
    assert response.status_code == 302, response.content.decode()[-2000:]
    assert set(team.members.values_list("user__username", flat=True)) == {"Cy", "bo"}


# --- the organise page: seasons, members, fixtures, results -------------------------------------


def test_a_season_with_an_empty_name_says_so_and_keeps_the_dates(client, league, organiser):
    client.force_login(organiser)
    response = client.post(
        reverse("leagues:manage_season", args=[league.slug]),
        {"name": "  ", "starts_on": "2026-03-01", "ends_on": "2026-05-31", "format": "open"}
        | {"status": "running"},
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "This field is required." in _field_errors(html, "name")
    assert 'value="2026-03-01"' in html and 'value="2026-05-31"' in html
    assert not Season.objects.exists()


def test_a_season_that_ends_before_it_starts_says_so_beside_the_end(client, league, organiser):
    client.force_login(organiser)
    response = client.post(
        reverse("leagues:manage_season", args=[league.slug]),
        {"name": "Spring", "starts_on": "2026-05-01", "ends_on": "2026-03-01"}
        | {"format": "open", "status": "running"},
    )
    assert "cannot end before it starts" in _field_errors(response.content.decode(), "ends_on")
    assert not Season.objects.exists()


@pytest.mark.parametrize("username", ["", "   ", "nobody-here"])
def test_add_member_without_a_known_username_says_so(client, league, organiser, username):
    client.force_login(organiser)
    response = client.post(
        reverse("leagues:manage_members", args=[league.slug]),
        {"username": username, "action": "add"},
    )
    assert response.status_code == 200
    assert _field_errors(response.content.decode(), "username")
    assert league.memberships.filter(status=Membership.Status.ACTIVE).count() == 1


@pytest.mark.parametrize("typed", ["TESTER1", "tester1", " Tester1 "])
def test_add_member_finds_the_player_in_any_case(client, league, organiser, make_user, typed):
    """Sign-up counts "Tester1" as taken when "TESTER1" signs up; "Add a member" found nobody
    called "TESTER1" (its lookup was case-sensitive): now it adds Tester1."""
    tester = make_user("Tester1")
    client.force_login(organiser)
    response = client.post(
        reverse("leagues:manage_members", args=[league.slug]), {"username": typed, "action": "add"}
    )
    assert response.status_code == 302, _field_errors(response.content.decode(), "username")
    assert league.memberships.filter(user=tester, status=Membership.Status.ACTIVE).exists()


def test_add_member_by_a_look_alike_or_an_ambiguous_name_says_so(
    client, league, organiser, make_user
):
    """Only the case is set aside: "Testerl" (an l for the 1) is nobody. Two old accounts
    differing in case only ("Sam", "SAM", made before sign-up refused that): the one spelled
    as typed, and for another spelling a clear error instead of a guess."""
    from django.contrib.auth import get_user_model

    make_user("Tester1")
    sam = make_user("Sam")
    other = make_user("someone")
    get_user_model().objects.filter(pk=other.pk).update(
        username="SAM", username_key=f"sam#{other.pk}"
    )
    client.force_login(organiser)
    url = reverse("leagues:manage_members", args=[league.slug])
    response = client.post(url, {"username": "Testerl", "action": "add"})
    assert "No player is called “Testerl”." in _field_errors(response.content.decode(), "username")
    response = client.post(url, {"username": "sam", "action": "add"})
    errors = _field_errors(response.content.decode(), "username")
    assert "Several players are called “sam” in other cases" in errors
    assert league.memberships.filter(status=Membership.Status.ACTIVE).count() == 1
    response = client.post(url, {"username": "Sam", "action": "add"})
    assert response.status_code == 302
    assert league.memberships.filter(user=sam, status=Membership.Status.ACTIVE).exists()
    assert not league.memberships.filter(user=other).exists()


def test_a_refused_fixture_comes_back_on_the_organise_page_with_its_teams(
    client, league, organiser, members, season
):
    client.force_login(organiser)
    manage = reverse("leagues:manage", args=[league.slug])
    response = client.post(
        reverse("leagues:fixture_create", args=[league.slug]),
        {"season": season.pk, "team0": "ana, cy", "team1": "bo, nobody-here", "next": manage},
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "nobody-here" in _field_errors(html, "team1")
    assert 'value="ana, cy"' in html and 'value="bo, nobody-here"' in html
    assert 'id="schedule-fixture"' in html  # the organise page, not the league's
    # A service's refusal too (ana on both teams), beside the form's fields:
    response = client.post(
        reverse("leagues:fixture_create", args=[league.slug]),
        {"season": season.pk, "team0": "ana, cy", "team1": "ana, bo", "next": manage},
    )
    assert "only one team" in response.content.decode()
    assert not Fixture.objects.exists()


@pytest.mark.parametrize(
    "changes", [{"levels_team0": "13"}, {"caught_team1": "40000"}, {"winner_team": "2"}]
)
def test_a_refused_result_comes_back_in_its_row(
    client, league, organiser, members, season, changes
):
    """40000 catches did not fit the column (a database error, a 500)."""
    fixture = services.do_create_fixture(
        season, organiser, [[members["ana"], members["cy"]], [members["bo"], members["di"]]]
    )
    client.force_login(organiser)
    data = {"fixture": fixture.pk, "winner_team": "0"}
    data |= {"levels_team0": "1", "levels_team1": "0", "caught_team0": "0", "caught_team1": "0"}
    data |= changes
    response = client.post(reverse("leagues:manage_result", args=[league.slug]), data)
    assert response.status_code == 200
    html = response.content.decode()
    row = html.split('id="open-fixtures"')[1]
    errors = row.split('<div class="errors" role="alert">')[1].split("</div>")[0]
    assert errors.strip()
    for name, value in changes.items():
        if name != "winner_team":
            assert f'name="{name}" value="{value}"' in row
    fixture.refresh_from_db()
    assert fixture.processed_at is None


@pytest.mark.parametrize(
    ("fmt", "planned", "shown"),
    [
        ("swiss", 4, "4 rounds planned"),
        ("round_robin", 4, "4 rounds planned"),
        ("swiss", 0, "as many rounds as its format needs"),
    ],
)
def test_the_manage_page_shows_the_rounds_planned_before_teams_register(
    client, staff, fmt, planned, shown
):
    """A new tournament with 4 rounds planned said "0 rounds planned": the rounds were capped at
    an all-play-all of its teams, none yet. Until two teams register, it shows what was set."""
    t = tournaments.do_create_tournament(staff, name="Cup", format=fmt, planned_rounds=planned)
    client.force_login(staff)
    html = client.get(reverse("tournaments:manage", args=[t.pk])).content.decode()
    rounds = html.split('id="planned-rounds">')[1].split("</span>")[0]
    assert rounds == shown
