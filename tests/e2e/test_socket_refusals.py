"""A refused table socket says why on the page, in the page's language (issue #9, item 3).

The places are taken for real in the Redis counts the live Daphne process reads
(``games.sockets.socket_limits``): the table's spectator places (close code 4430) or the places of
this browser's address (4429); table.js then shows the sentence from ``#table-strings``.
"""

from __future__ import annotations

import time

import pytest
from django.utils import translation
from playwright.sync_api import expect

from games.live import redis_store
from games.live.presenters import table_strings
from games.play import tables
from tests.e2e.helpers import (  # noqa: F401 - stop_tables_after_the_test is an autouse fixture
    log_in_user,
    stop_tables_after_the_test,
    wait_until_live,
)

pytestmark = pytest.mark.django_db(transaction=True)


def take_places(key: str, count: int) -> None:
    """``count`` sockets of another (live) process hold places in ``key`` for a minute."""
    expiry = time.time() + 60
    redis_store.client().zadd(key, {f"elsewhere-{n}": expiry for n in range(count)})


@pytest.mark.parametrize(
    ("language", "cap", "sentence"),
    [("en", "table", "tableFull"), ("es", "table", "tableFull"), ("vi", "ip", "tooManySockets")],
)
def test_a_refused_spectator_is_told_why(new_page, make_user, settings, language, cap, sentence):
    """A full table (4430) or too many sockets from this address (4429): the page's connection
    notice and its alert region say so, translated; the socket stays closed."""
    host = make_user(f"host_{language}_{cap}")
    table = tables.create_table(host, name="crowded", players=4, options={})
    if cap == "table":
        key = redis_store.key("sockets", "table", table.pk)
        take_places(key, settings.GAMES_MAX_SPECTATORS_PER_TABLE)
    else:  # the live server's peer is this machine: the browser's address is 127.0.0.1
        key = redis_store.key("sockets", "ip", "127.0.0.1")
        take_places(key, settings.GAMES_MAX_SOCKETS_PER_IP)
    with translation.override(language):
        expected = table_strings()[sentence]
    try:
        page = new_page()
        page.context.add_cookies(
            [
                {
                    "name": settings.LANGUAGE_COOKIE_NAME,
                    "value": language,
                    "domain": "127.0.0.1",
                    "path": "/",
                }
            ]
        )
        page.goto(f"/tables/{table.pk}/")
        expect(page.locator("html")).to_have_attribute("lang", language)
        connection = page.locator("#connection")
        expect(connection).to_have_text(expected)
        expect(connection).to_be_visible()
        expect(page.locator("#alert-announcer")).to_have_text(expected)
    finally:
        redis_store.client().delete(key)


def open_own_table(new_page, host):
    """A page of ``host`` on a table of their own that waits for players, its socket live."""
    table = tables.create_table(host, name=f"{host.username}'s", players=4, options={})
    page = new_page()
    log_in_user(page, host)
    page.goto(f"/tables/{table.pk}/")
    wait_until_live(page)
    return page


def assert_live_again(page, line: str) -> None:
    """The page opened a second socket by itself, says nothing of reconnecting, and its next
    chat ``line`` goes through."""
    page.wait_for_function("() => window.club414.socketOpens >= 2", timeout=20_000)
    expect(page.locator("#connection")).to_be_hidden()
    page.fill("#chat-text", line)
    page.click("#chat-send")
    last = page.locator("#chat-lines .chat-line").last
    expect(last.locator(".chat-text")).to_have_text(line)


def test_a_message_too_big_closes_the_socket_and_the_page_connects_again(new_page, make_user):
    """A chat line past the socket's 4 KB (only a page whose field limit was taken away sends
    one) is refused by closing the socket (1009 from Daphne). The page connects again by itself
    and the player's next line goes through: one bad message never leaves a table frozen on
    "Reconnecting…"."""
    page = open_own_table(new_page, make_user("big_line_host"))
    page.evaluate("() => document.getElementById('chat-text').removeAttribute('maxlength')")
    page.fill("#chat-text", "x" * 5000)
    page.click("#chat-send")
    assert_live_again(page, "still here")


def test_a_page_that_lost_the_network_says_so_and_plays_on_once_it_is_back(new_page, make_user):
    """The network goes (the browser offline; its socket may stay "open", its sends held):
    "Reconnecting…" at once, where it used to show nothing for the half-minute the socket
    took to time out, the turn running out meanwhile. Back online, a new socket, the table as
    it stands, and the player's next message goes through."""
    page = open_own_table(new_page, make_user("offline_host"))
    page.context.set_offline(True)
    expect(page.locator("#connection")).to_be_visible(timeout=5_000)
    page.context.set_offline(False)
    assert_live_again(page, "back again")
