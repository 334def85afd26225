"""Profile page and preferences."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from games.models import Match
from games.play import tables

pytestmark = pytest.mark.django_db


def test_profile_page_renders_record(client, user) -> None:
    """Anyone may see a profile, with the matches played and won (zero for now)."""
    response = client.get(reverse("profile", args=["player"]))
    assert response.status_code == 200
    html = response.content.decode()
    assert "player" in html
    assert 'id="matches-played">0<' in html
    assert 'id="matches-won">0<' in html


def test_unknown_profile_is_404(client) -> None:
    assert client.get(reverse("profile", args=["nobody"])).status_code == 404


def test_preferences_need_login(client) -> None:
    response = client.get(reverse("preferences"))
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


def test_preferences_save_language_and_switches(client, user) -> None:
    """Saving preferences stores them and sets the language cookie to the chosen language."""
    client.force_login(user)
    response = client.post(
        reverse("preferences"),
        {"language": "vi", "title_alerts": "on", "auto_pass_hooks": "on"},
    )
    assert response.status_code == 302
    assert response.cookies["django_language"].value == "vi"
    user.refresh_from_db()
    assert (user.language, user.sound_on, user.title_alerts, user.auto_pass_hooks) == (
        "vi",
        False,
        True,
        True,
    )


def test_preferences_empty_language_follows_browser(client, make_user) -> None:
    """Choosing no language clears the cookie so the browser's language applies again."""
    ana = make_user("ana", language="es")
    client.force_login(ana)
    response = client.post(reverse("preferences"), {"language": "", "sound_on": "on"})
    assert response.cookies["django_language"].value == ""  # deleted
    ana.refresh_from_db()
    assert ana.language == ""


def test_preferences_reject_unknown_language(client, user) -> None:
    client.force_login(user)
    response = client.post(reverse("preferences"), {"language": "xx"})
    assert response.status_code == 200
    user.refresh_from_db()
    assert user.language == ""


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


def test_profile_counts_finished_matches_played_and_won(client, started_two_seats) -> None:
    table, match = started_two_seats
    Match.objects.filter(pk=match.pk).update(winner_team=1)
    response = client.get(reverse("profile", args=["bo"]))
    html = response.content.decode()
    assert 'id="matches-played">1<' in html
    assert 'id="matches-won">1<' in html
    assert table.get_absolute_url() in html
    html = client.get(reverse("profile", args=["ana"])).content.decode()
    assert 'id="matches-played">1<' in html and 'id="matches-won">0<' in html
