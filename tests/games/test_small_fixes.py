"""Issue #10 item 9's smaller fixes: countdowns keep the locale's space before the unit, dates
use the locale's short formats on every page, and the "confirm before playing" preference
reaches the table page (its browser test: tests/e2e/test_header_and_confirm.py)."""

from __future__ import annotations

import datetime
import json
import re

import pytest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.formats import date_format

from games.play import tables
from leagues import services

pytestmark = pytest.mark.django_db

COUNTDOWN = {"kind": "turn", "deadline_ms": 0, "remaining": 30, "total": 30}


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html)).strip()


@pytest.mark.parametrize(
    ("language", "shown"),
    [("en", "Turn 30s"), ("es", "Turno 30 s"), ("id", "Giliran 30 dtk"), ("vi", "Lượt 30 giây")],
)
def test_a_countdown_reads_as_its_language_writes_it(language, shown):
    with translation.override(language):
        html = render_to_string("games/partials/bits.html#countdown", {"countdown": COUNTDOWN})
    assert text_of(html) == shown
    # table.js still finds the number it counts down.
    assert '<span class="countdown-seconds">30</span>' in html


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


def test_confirm_before_playing_is_a_preference_the_table_page_carries(client, make_user):
    player = make_user("careful")
    client.force_login(player)
    assert 'name="confirm_play"' in client.get(reverse("preferences")).content.decode()
    response = client.post(reverse("preferences"), {"language": "", "confirm_play": "on"})
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.confirm_play is True
    table = tables.create_table(player, name="t", players=2, options={})
    html = client.get(reverse("games:table", args=[table.pk])).content.decode()
    assert 'data-confirm-play="on"' in html
    strings = json.loads(html.split('id="table-strings" type="application/json">')[1].split("<")[0])
    assert strings["confirmPlay"] == "Play %(cards)s?"
    client.post(reverse("preferences"), {"language": ""})
    html = client.get(reverse("games:table", args=[table.pk])).content.decode()
    assert 'data-confirm-play="off"' in html
