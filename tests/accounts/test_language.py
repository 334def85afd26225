"""The language switcher in the page header (Django's set_language view)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.urls import reverse
from django.utils import translation

from accounts.models import User
from games.engine.events import Hooked, Passed
from games.live.cards import card_name
from games.live.log import describe_event
from games.play import tables
from games.sockets.scope import scope_language

pytestmark = pytest.mark.django_db


def test_header_offers_the_four_languages(client) -> None:
    html = client.get("/").content.decode()
    for code in ("en", "es", "id", "vi"):
        assert f'<option value="{code}"' in html


def test_switcher_sets_language_cookie_and_page_language(client) -> None:
    """Choosing a language stores it in the cookie and the next page is served in it."""
    response = client.post(reverse("set_language"), {"language": "id", "next": "/"})
    assert response.status_code == 302
    assert response.cookies["django_language"].value == "id"
    assert '<html lang="id">' in client.get("/").content.decode()


def test_browser_language_is_used_without_a_choice(client) -> None:
    html = client.get("/", headers={"accept-language": "vi,en;q=0.5"}).content.decode()
    assert '<html lang="vi">' in html


# --- the choice follows the player -------------------------------------------------------------


def test_switcher_saves_the_choice_on_the_account(client, user) -> None:
    client.force_login(user)
    response = client.post(reverse("set_language"), {"language": "es", "next": "/"})
    assert response.status_code == 302
    assert response.cookies["django_language"].value == "es"
    user.refresh_from_db()
    assert user.language == "es"


def test_saved_language_wins_over_cookie_and_browser(client, make_user) -> None:
    """Another device (an old cookie, another browser language): the account's choice."""
    client.force_login(make_user("vi_player", language="vi"))
    client.cookies["django_language"] = "es"
    response = client.get("/", headers={"accept-language": "id"})
    assert '<html lang="vi">' in response.content.decode()
    assert response.cookies["django_language"].value == "vi"  # the cookie follows the account


def test_login_applies_the_saved_language(client, make_user, password) -> None:
    make_user("id_player", language="id")
    response = client.post(reverse("login"), {"username": "id_player", "password": password})
    assert response.status_code == 302
    assert response.cookies["django_language"].value == "id"
    assert '<html lang="id">' in client.get("/").content.decode()


def test_sign_up_keeps_the_language_chosen_before(client, password) -> None:
    client.cookies["django_language"] = "vi"
    response = client.post(
        reverse("signup"), {"username": "new_vi", "password1": password, "password2": password}
    )
    assert response.status_code == 302
    assert User.objects.get(username="new_vi").language == "vi"


def test_preferences_empty_language_follows_the_browser_again(client, make_user) -> None:
    player = make_user("es_player", language="es")
    client.force_login(player)
    response = client.post(reverse("preferences"), {"language": "", "sound_on": "on"})
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.language == ""
    assert response.cookies["django_language"].value == ""  # deleted
    html = client.get("/", headers={"accept-language": "id"}).content.decode()
    assert '<html lang="id">' in html


def test_socket_language_is_the_account_language_first(make_user) -> None:
    player = make_user("socket_es", language="es")
    scope = {
        "user": player,
        "cookies": {"django_language": "vi"},
        "headers": [(b"accept-language", b"id")],
    }
    assert scope_language(scope) == "es"
    scope["user"] = AnonymousUser()
    assert scope_language(scope) == "vi"
    scope["cookies"] = {}
    assert scope_language(scope) == "id"


def test_log_lines_and_card_names_are_translated() -> None:
    with translation.override("es"):
        assert describe_event(Hooked(1, ("9S", "9H"), owner=0), {1: "ana"}) == (
            "ana enganchó con 9♠ 9♥"
        )
        assert card_name("QH") == "Reina de corazones"
        assert card_name("RJ") == "Joker Rojo"
    with translation.override("vi"):
        assert describe_event(Passed(0, timeout=False), {0: "bo"}) == "bo bỏ qua"
        assert card_name("AS") == "Át bích"
    with translation.override("id"):
        assert card_name("10D") == "10 wajik"
    with translation.override("en"):
        names = [card_name(code) for code in ("AS", "KC", "QD", "JH", "2C", "BJ")]
        assert names == [
            "Ace of spades",
            "King of clubs",
            "Queen of diamonds",
            "Jack of hearts",
            "2 of clubs",
            "Black joker",
        ]


def test_table_page_passes_the_alert_preferences(client, make_user) -> None:
    host = make_user("quiet", sound_on=False, title_alerts=False)
    table = tables.create_table(host, name="t", players=2, options={})
    client.force_login(host)
    html = client.get(reverse("games:table", args=[table.pk])).content.decode()
    assert 'data-sound="off"' in html and 'data-title-alerts="off"' in html
    assert 'id="table-strings"' in html and 'aria-live="assertive"' in html
