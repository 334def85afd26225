"""The lobby's public lists kept a moment per language (games.live.lobby_cache), as deployed:
a change shows at once (the notification drops the copy), an anonymous page from the copy
costs no statement, and the statements of a page are pinned."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from games.live import lobby_cache, notify
from games.models import Table
from games.play import tables

pytestmark = pytest.mark.django_db

LOBBY = reverse("games:lobby")


@pytest.fixture(autouse=True)
def _cache_on(settings) -> None:
    """On, for longer than any test takes (so nothing here depends on time), starting from a
    version no earlier test kept a copy under."""
    settings.GAMES_LOBBY_CACHE_SECONDS = 600
    lobby_cache.invalidate()


def quietly_open(host, name: str) -> Table:
    """A table made without its lobby notification (inside the test's transaction the
    on-commit notification never runs): what the cache alone would show."""
    return tables.create_table(host, name=name, players=4, options={})


def lobby_page(client: Client | None = None, language: str = "en") -> str:
    response = (client or Client()).get(LOBBY, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.content.decode()


def test_a_new_table_appears_once_the_lobby_is_told(make_user) -> None:
    host = make_user("host")
    first = quietly_open(host, "first")
    assert f'id="lobby-table-{first.pk}"' in lobby_page()
    second = quietly_open(host, "second")
    assert f'id="lobby-table-{second.pk}"' not in lobby_page()  # the copy, as kept
    notify.lobby_changed([host.pk])
    page = lobby_page()
    assert f'id="lobby-table-{first.pk}"' in page and f'id="lobby-table-{second.pk}"' in page


def test_a_table_opened_through_the_writer_is_listed_at_once(
    make_user, django_capture_on_commit_callbacks
) -> None:
    """The writer's own notification (on commit) is what drops the copy."""
    host = make_user("host")
    lobby_page()
    with django_capture_on_commit_callbacks(execute=True):
        table = tables.create_table(host, name="fresh", players=4, options={})
    assert f'id="lobby-table-{table.pk}"' in lobby_page()


def test_a_kept_page_costs_an_anonymous_visitor_no_statement(
    make_user, django_assert_num_queries
) -> None:
    table = quietly_open(make_user("host"), "kept")
    with django_assert_num_queries(4):  # the public lists (games.live.lobby._load_public)
        lobby_page()
    with django_assert_num_queries(0):
        page = lobby_page()
    assert f'id="lobby-table-{table.pk}"' in page


def test_each_language_has_its_own_copy(make_user) -> None:
    quietly_open(make_user("host"), "words")
    english, spanish = lobby_page(language="en"), lobby_page(language="es")
    assert "Open tables" in english and "Open tables" not in spanish
    assert "Open tables" in lobby_page(language="en")
    assert "Open tables" not in lobby_page(language="es")


def test_a_signed_in_page_reads_only_its_own_rows(make_user, django_assert_num_queries) -> None:
    """From the copy, a player's page reads their session and account, their own tables (2),
    what "play again" would open (1 before their first match) and their unseen notices (1)."""
    player = make_user("player")
    mine = quietly_open(player, "mine")
    client = Client()
    client.force_login(player)
    lobby_page()  # the copy
    with django_assert_num_queries(6):
        page = lobby_page(client)
    assert f'id="lobby-table-{mine.pk}"' in page


def test_an_old_copy_is_renewed_by_one_request_the_others_get_the_copy(
    make_user, django_assert_num_queries
) -> None:
    """Past its age limit a copy is rendered again by the one request that takes the renewal;
    a request meanwhile is served the copy (of the current version: no change it hides) rather
    than rendering the lists too. The copy is aged here by hand, not by waiting."""
    host = make_user("host")
    lobby_page()
    later = quietly_open(host, "later")  # not told: only a renewal shows it
    key = lobby_cache._html_key(cache.get(lobby_cache._VERSION_KEY), "en")
    read_at, html = cache.get(key)
    cache.set(key, (read_at - 3600, html))
    cache.add(f"{key}:renewing", 1)  # another request is renewing it
    with django_assert_num_queries(0):
        assert f'id="lobby-table-{later.pk}"' not in lobby_page()
    cache.delete(f"{key}:renewing")
    with django_assert_num_queries(4):
        assert f'id="lobby-table-{later.pk}"' in lobby_page()
    with django_assert_num_queries(0):
        assert f'id="lobby-table-{later.pk}"' in lobby_page()
