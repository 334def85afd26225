"""One naming of teams everywhere (issue #10 item 8): "Team 1" for the even seats (shown as
seats 1, 3), "Team 2" for the odd ones, from ``games.live.teams`` — on the table's record, the
league's fixtures and season pages, the organiser's page, tournament rounds, forms and admin
actions; and a league result shows the final levels the table showed, not the levels gained
as if they were levels."""

from __future__ import annotations

import re

import pytest
from django.contrib import admin
from django.utils import translation

from games.engine.events import MatchOver, RoundOver
from games.live import teams
from games.live.log import describe_event
from games.play import tables
from leagues import services, tournaments
from leagues.admin import PairingAdmin
from leagues.forms import FixtureForm, ResultForm
from leagues.models import Pairing
from leagues.tournament_forms import ForfeitForm

from .conftest import QUICK, register_confirmed

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]

OTHER_NAMINGS = re.compile(r"Team [0AB]\b|team [0AB]\b|even seats|odd seats|Team \{")


def visible_text(html: str) -> str:
    return re.sub(r"<[^>]+>", " ", html)


def test_team_name_is_team_1_and_team_2_in_every_language():
    assert [teams.team_name(0), teams.team_name(1)] == ["Team 1", "Team 2"]
    assert teams.team_label(0, ["ana", "cy"]) == "Team 1 (ana, cy)"
    assert teams.team_label(1, []) == "Team 2"
    with translation.override("vi"):
        assert teams.team_name(0) == "Đội 1"
    with translation.override("es"):
        assert str(teams.team_name_lazy(1)) == "Equipo 2"
    with pytest.raises(ValueError):
        teams.team_name(2)


def test_the_same_league_match_is_named_alike_on_the_record_and_the_league_pages(
    client, league, organiser, members, season, play_out
):
    """Team 0 (ana, cy at seats 1 and 3) wins at target 3 with levels 3–2: the record says
    "Team 1 won the match", final levels 3 and 2; the league and season pages say "Team 1 won"
    with final levels 3–2 (they said "Team 0 won (levels 1–0)")."""
    fixture = services.do_create_fixture(
        season, organiser, [[members["ana"], members["cy"]], [members["bo"], members["di"]]]
    )
    tables.start(fixture.table_id, members["ana"], seed=5)
    match = play_out(fixture.table, winner_team=0)
    fixture.refresh_from_db()
    assert (fixture.levels_team0, fixture.levels_team1) == (1, 0)  # stored: levels gained
    assert fixture.final_levels == ("3", "2")
    record = client.get(f"/matches/{match.pk}/").content.decode()
    assert "Team 1 won the match" in record
    final = visible_text(record.split('id="record-result"')[1].split("</p>")[0])
    assert re.search(r"Team 1\s+ana, cy\s+3\s+Team 2\s+bo, di\s+2", final), final
    for url in (f"/leagues/{league.slug}/", f"/leagues/{league.slug}/seasons/{season.pk}/"):
        page = client.get(url).content.decode()
        fixtures = page.split('class="data fixtures"')[1].split("</table>")[0]
        assert "Team 1 won" in fixtures and "final levels 3–2" in fixtures, url
        assert not OTHER_NAMINGS.search(visible_text(page)), (url, OTHER_NAMINGS.findall(page))
    assert not OTHER_NAMINGS.search(visible_text(record))


def test_the_organisers_page_and_forms_name_teams_as_the_table_does(
    client, make_user, league, organiser, members, season
):
    services.do_create_fixture(
        season, organiser, [[members["ana"], members["cy"]], [members["bo"], members["di"]]]
    )
    client.force_login(organiser)
    page = client.get(f"/leagues/{league.slug}/manage/").content.decode()
    text = visible_text(page)
    assert not OTHER_NAMINGS.search(text), OTHER_NAMINGS.findall(text)
    assert re.search(r"Team 1\s+ana, cy", text) and re.search(r"Team 2\s+bo, di", text)
    assert "Team 1 won" in text and "Team 2 won" in text
    form = FixtureForm(league=league)
    assert (str(form["team0"].label), str(form["team1"].label)) == ("Team 1", "Team 2")
    result = ResultForm()
    assert [str(label) for _value, label in result.fields["winner_team"].choices] == [
        "Team 1",
        "Team 2",
    ]
    assert str(result.fields["levels_team1"].label) == "Levels gained by Team 2"
    with translation.override("id"):
        assert str(ForfeitForm().fields["forfeiting"].choices[0][1]) == "Tim 1"
    client.force_login(make_user("root", is_staff=True, is_superuser=True))
    changelist = client.get("/admin/leagues/fixture/").content.decode()
    assert "Team 1 (ana, cy) · Team 2 (bo, di)" in changelist


def test_tournament_rounds_and_admin_actions_name_teams_as_the_table_does(
    client, make_user, league, members
):
    staff = make_user("boss", is_staff=True)
    t = tournaments.do_create_tournament(staff, name="Cup", table_options=QUICK)
    tournaments.do_open_registration(t, staff)
    register_confirmed(t, members["ana"], ["bo"])
    register_confirmed(t, members["cy"], ["di"])
    tournaments.do_start(t, staff)
    tournaments.do_generate_round(t, staff, start=False)
    client.force_login(staff)
    for url in (f"/tournaments/{t.pk}/", f"/tournaments/{t.pk}/manage/"):
        text = visible_text(client.get(url).content.decode())
        assert not OTHER_NAMINGS.search(text), (url, OTHER_NAMINGS.findall(text))
        rounds = text.split("Round 1")[1]
        assert re.search(r"Board\s+Team 1\s+Team 2", rounds), url
    pairing_admin = PairingAdmin(Pairing, admin.site)
    descriptions = [str(pairing_admin.forfeit_a.short_description)]
    descriptions.append(str(pairing_admin.forfeit_b.short_description))
    assert descriptions == ["Team 1 forfeits (Team 2 wins)", "Team 2 forfeits (Team 1 wins)"]


def test_log_lines_name_the_teams_as_the_table_does():
    names = {0: "ana", 1: "bo"}
    assert describe_event(RoundOver(1, (0,), (2, 3), 3, None), names) == (
        "Round over: every player of Team 2 is out"
    )
    assert describe_event(MatchOver(0), names) == "Match over: Team 1 wins"
