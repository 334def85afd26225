"""League pages: list, detail (members, season table, fixtures, live matches), joining and
leaving, organiser tools, season standings and a player's rating with its history."""

from __future__ import annotations

import datetime

import pytest
from django.utils import translation
from django.utils.formats import date_format
from lxml import html as lxml_html
from lxml.html import HtmlElement

from games.play import tables
from leagues import services
from leagues.models import League, Membership, Season

from .conftest import options_post

pytestmark = pytest.mark.django_db


def test_the_league_list_shows_public_leagues_only(client, league, organiser):
    """Invite-only leagues stay off the list and their page is not found for outsiders."""
    hidden = services.do_create_league(
        organiser, name="Secret Society", visibility=League.Visibility.INVITE_ONLY
    )
    html = client.get("/leagues/").content.decode()
    assert "Tuesday Club" in html and "Secret Society" not in html
    assert client.get(f"/leagues/{hidden.slug}/").status_code == 404
    client.force_login(organiser)
    assert client.get(f"/leagues/{hidden.slug}/").status_code == 200


def test_joining_an_open_league_and_leaving_it(client, league, make_user):
    """Join makes an active member listed on the page; leave marks the membership left."""
    ana = make_user("ana")
    client.force_login(ana)
    assert "Join league" in client.get(f"/leagues/{league.slug}/").content.decode()
    response = client.post(f"/leagues/{league.slug}/join/", follow=True)
    html = response.content.decode()
    assert "Welcome to Tuesday Club!" in html and "You are a member" in html
    assert Membership.objects.get(league=league, user=ana).status == "active"
    client.post(f"/leagues/{league.slug}/leave/")
    assert Membership.objects.get(league=league, user=ana).status == "left"


def test_an_approval_league_waits_for_an_organiser(client, organiser, make_user):
    """A request is pending until an organiser approves it on the organise page; a member who
    is not an organiser cannot open that page."""
    league = services.do_create_league(
        organiser, name="Strict", join_policy=League.JoinPolicy.APPROVAL
    )
    bo = make_user("bo")
    client.force_login(bo)
    html = client.post(f"/leagues/{league.slug}/join/", follow=True).content.decode()
    assert "Your request is sent to the organisers." in html
    assert Membership.objects.get(league=league, user=bo).status == "pending"
    assert client.get(f"/leagues/{league.slug}/manage/").status_code == 403
    client.force_login(organiser)
    assert "bo" in client.get(f"/leagues/{league.slug}/manage/").content.decode()
    client.post(f"/leagues/{league.slug}/manage/members/", {"username": "bo", "action": "approve"})
    assert Membership.objects.get(league=league, user=bo).status == "active"
    client.force_login(bo)
    assert "You are now a member of Strict." in client.get("/leagues/notices/").content.decode()


def test_the_league_page_shows_season_table_fixtures_and_live_matches(
    client, league, organiser, members, season, play_out
):
    """A finished fixture shows in the season table and results; a started one is listed as
    live with its /tables/<id>/ link."""
    client.force_login(organiser)
    client.post(
        f"/leagues/{league.slug}/fixtures/new/",
        {"season": season.pk, "team0": "ana, cy", "team1": "bo, di"},
    )
    client.post(
        f"/leagues/{league.slug}/fixtures/new/",
        {"season": season.pk, "team0": "ed, flo", "team1": "ana, bo"},
    )
    first, second = season.fixtures.order_by("pk")
    tables.start(first.table_id, members["ana"], seed=2)
    play_out(first.table, winner_team=0)
    tables.start(second.table_id, members["ed"], seed=3)
    html = client.get(f"/leagues/{league.slug}/").content.decode()
    live = html.split('id="live-matches"')[1].split("</section>")[0]
    assert f'href="/tables/{second.table_id}/"' in live and f"/tables/{first.table_id}/" not in live
    assert '<span class="fixture-result">Team 1 won</span>' in html
    standings = html.split('id="standings"')[1].split("</table>")[0]
    order = [
        name
        for name in ("ana", "cy", "bo", "di", "ed", "flo", "olga")
        if f">{name}</a>" in standings
    ]
    # olga organises and plays no fixture: she is not in the table (issue 18)
    assert order == ["ana", "cy", "bo", "di", "ed", "flo"]
    assert standings.index(">ana<") < standings.index(">cy<") < standings.index(">bo<")
    season_page = client.get(f"/leagues/{league.slug}/seasons/{season.pk}/").content.decode()
    assert "Spring" in season_page and "Team 1 won" in season_page


def test_a_member_schedules_a_fixture_in_an_open_season_but_not_for_others(
    client, league, members, season
):
    """In an open season a member may schedule a match they play in, not one of others."""
    client.force_login(members["ana"])
    html = client.post(
        f"/leagues/{league.slug}/fixtures/new/",
        {"season": season.pk, "team0": "bo, cy", "team1": "di, ed"},
        follow=True,
    ).content.decode()
    assert "You can only schedule a fixture you play in." in html
    client.post(
        f"/leagues/{league.slug}/fixtures/new/",
        {"season": season.pk, "team0": "ana, cy", "team1": "di, ed"},
    )
    assert season.fixtures.count() == 1
    season.format = Season.Format.ROUND_ROBIN
    season.save()
    html = client.post(
        f"/leagues/{league.slug}/fixtures/new/",
        {"season": season.pk, "team0": "ana, cy", "team1": "di, ed"},
        follow=True,
    ).content.decode()
    assert "Only the league&#x27;s organisers schedule fixtures this season." in html


def test_the_player_page_shows_rating_history_and_partners(
    client, league, organiser, members, season, play_out
):
    """After one rated win beside cy, ana's page shows her rating (μ − 3σ), one history row
    from 0.0 up, and cy as partner with 1 match and 1 win."""
    fixture = services.do_create_fixture(
        season, organiser, [[members["ana"], members["cy"]], [members["bo"], members["di"]]]
    )
    tables.start(fixture.table_id, members["ana"], seed=4)
    play_out(fixture.table, winner_team=0)
    html = client.get(f"/leagues/{league.slug}/players/ana/").content.decode()
    assert '<dd id="rating">2.4</dd>' in html  # 26.964 − 3 × 8.178
    history = html.split('id="rating-history"')[1].split("</table>")[0]
    assert history.count("<tr><td>") == 1 and ">0.0<" in history and ">2.4<" in history
    partners = html.split('id="partners"')[1].split("</table>")[0]
    assert '<tr><td>cy</td><td class="num">1</td><td class="num">1</td></tr>' in partners


def test_staff_create_leagues_and_players_cannot(client, make_user):
    """The new-league page is staff only: a player gets a page saying who creates leagues
    and naming the staff to ask (403), not the admin's log-in."""
    client.force_login(make_user("ana"))
    boss = make_user("boss", is_staff=True)
    response = client.get("/leagues/new/")
    page = response.content.decode()
    assert response.status_code == 403
    assert "Who can create a league" in page and "/admin/login" not in page
    assert 'href="/accounts/boss/"' in page
    client.force_login(boss)
    response = client.post(
        "/leagues/new/",
        {
            "name": "Night Owls",
            "slug": "",
            "description": "",
            "visibility": "public",
            "join_policy": "open",
            "players": "4",
            "rated": "on",
            **options_post(target_level="5", turn_seconds="20"),
        },
    )
    league = League.objects.get(name="Night Owls")
    assert response.status_code == 302 and response.url == "/leagues/night-owls/"
    assert league.organisers.get().username == "boss"
    # The create-table form's rules fields, stored under §10's names.
    assert (league.table_options["target_level"], league.table_options["turn_seconds"]) == (
        "5",
        20,
    )
    assert league.table_options["two_position"] == "low"


def test_a_player_is_told_who_creates_leagues_without_developer_instructions(client, make_user):
    """A club with no staff yet: the player reads that nobody can create a league for now and
    gets links back, never a shell command for the site's runner (that is in the README)."""
    client.force_login(make_user("ana"))
    with translation.override("en"):
        response = client.get("/leagues/new/", HTTP_ACCEPT_LANGUAGE="en")
    page = response.content.decode()
    assert response.status_code == 403
    assert "no staff member yet" in page and 'href="/leagues/"' in page
    assert "createsuperuser" not in page and "make manage" not in page


@pytest.mark.parametrize("language", ["en", "vi"])
def test_league_and_season_pages_show_season_dates_in_one_short_format(client, make_user, language):
    """The league page and the season page (it used DATE_FORMAT, the league SHORT_DATE_FORMAT)
    show a season's dates the same way: the locale's short date format."""
    olga = make_user("olga")
    league = services.do_create_league(olga, name="Dates")
    season = services.do_create_season(
        league,
        olga,
        name="Spring",
        starts_on=datetime.date(2026, 3, 1),
        ends_on=datetime.date(2026, 5, 31),
    )
    client.cookies["django_language"] = language
    with translation.override(language):
        start = date_format(season.starts_on, "SHORT_DATE_FORMAT")
        long_start = date_format(season.starts_on, "DATE_FORMAT")
    assert start != long_start
    league_page = client.get(f"/leagues/{league.slug}/").content.decode()
    season_page = client.get(f"/leagues/{league.slug}/seasons/{season.pk}/").content.decode()
    for page in (league_page, season_page):
        assert f'lang="{language}"' in page
        assert start in page and long_start not in page


def _form(page: str, form_id: str) -> HtmlElement:
    """The form ``form_id`` of ``page`` as lxml reads it: ``form_values()`` is what a browser
    posts (the fields as rendered, checked boxes and selected options only)."""
    (form,) = lxml_html.fromstring(page).xpath(f'//form[@id="{form_id}"]')
    return form


def test_staff_create_a_league_with_the_rules_fields_and_a_player_is_told_who_can(
    client, make_user
):
    """The new-league page has the create-table form's rules fields (no JSON box), the rarer
    ones folded under "Advanced rules"; what it posts, as rendered and changed as a person
    would, is the league's rules, and its Organise page links to the options page that edits
    them; a player at /leagues/new/ reads who creates leagues. (Was a browser test: no script
    takes part, the ``<details>`` fold is the browser's own.)"""
    client.force_login(make_user("hopeful"))
    refused = lxml_html.fromstring(client.get("/leagues/new/").content)
    assert refused.xpath('string(//*[@id="league-create-refused"]//h1)') == (
        "Who can create a league"
    )

    client.force_login(make_user("organiser_boss", is_staff=True))
    page = client.get("/leagues/new/").content.decode()
    form = _form(page, "league-form")
    assert not form.xpath('.//*[@id="id_table_options"]')
    advanced = form.xpath('.//details[contains(@class, "advanced")]')
    assert len(advanced) == 1 and advanced[0].xpath('.//*[@id="id_options-joker_hook"]')
    assert form.xpath(".//summary") and not advanced[0].get("open")
    form.fields["name"] = "Thursday Club"
    form.fields["options-target_level"] = "5"
    form.fields["options-turn_seconds"] = "25"
    form.inputs["options-joker_hook"].checked = True
    response = client.post("/leagues/new/", dict(form.form_values()), follow=True)
    assert lxml_html.fromstring(response.content).xpath("string(//h1)") == "Thursday Club"
    league = League.objects.get(name="Thursday Club")
    assert league.table_options["target_level"] == "5"
    assert (league.table_options["turn_seconds"], league.table_options["joker_hook"]) == (25, True)

    manage = lxml_html.fromstring(client.get(f"/leagues/{league.slug}/manage/").content)
    (edit,) = manage.xpath('//*[@id="edit-league-options"]')
    options_url = edit.get("href")
    form = _form(client.get(options_url).content.decode(), "options-form")
    assert form.fields["options-target_level"] == "5"
    form.fields["options-target_level"] = "A"
    response = client.post(options_url, dict(form.form_values()), follow=True)
    messages = lxml_html.fromstring(response.content).xpath('string(//*[@class="messages"])')
    assert "The table options are saved" in messages
    league.refresh_from_db()
    assert league.table_options["target_level"] == "A"


def test_the_player_page_explains_the_rating_in_plain_words(client, league, members):
    """As on the leaderboard (test_leaderboard.py): a player's league page says what the
    rating means in a player's words; openskill, Plackett-Luce, μ and σ only behind "How is it
    computed?" (a closed <details>)."""
    html = client.get(f"/leagues/{league.slug}/players/ana/").content.decode()
    explained = html.split('id="rating-explained">')[1].split("</p>")[0]
    assert " ".join(explained.split()) == (
        "The rating shows how well this player plays in this league's rated matches. "
        "Winning raises it, more so against strong players; losing lowers it, below 0 too. "
        "Everyone starts at 0 and climbs as their matches show their skill."
    )
    computed = html.split('<details id="rating-computed">')[1].split("</details>")[0]
    assert "<summary>How is it computed?</summary>" in computed
    assert "openskill" in computed and "μ ± σ" in computed
    outside = html.replace(computed, "")
    assert not [w for w in ("openskill", "Plackett", "μ", "σ") if w in outside]
