"""A refused table socket says why on the page, in the page's language (issue #9, item 3).

The places are taken for real in the Redis counts the live Daphne process reads
(``games.sockets.socket_limits``): the table's spectator places (close code 4430) or the places of
this browser's address (4429); table.js then shows the sentence from ``#table-strings``.
"""

from __future__ import annotations

import re
import time

import pytest
from django.utils import translation
from playwright.sync_api import expect

from games.live import redis_store
from games.live.presenters import table_strings
from games.models import Match, Move, Table
from games.play import tables
from tests.e2e.helpers import (  # noqa: F401 - stop_tables_after_the_test is an autouse fixture
    log_in_as,
    log_in_user,
    open_started_table,
    screenshot,
    stop_tables_after_the_test,
    wait_until_live,
)
from tests.e2e.phases import claim_window, settle, show_phase, your_turn
from tests.e2e.pixels import count_near

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


# The offline notice: shown whole inside the screen, where the player looks (at most ``near`` px
# from the claim bar or the hand's buttons, whichever it is nearer), not only in the header, and
# over none of the buttons it is about.
NOTICE_NEAR = """(near) => {
  const notice = document.querySelector('#flash .offline-message');
  if (!notice) return ['no offline notice'];
  const r = notice.getBoundingClientRect(), out = [];
  if (r.width < 1 || r.top < -0.5 || r.left < -0.5 || r.bottom > innerHeight + 0.5
      || r.right > innerWidth + 0.5) out.push(`the notice is outside the screen: ${r.top}`);
  const gap = b => Math.hypot(Math.max(0, b.left - r.right, r.left - b.right),
                              Math.max(0, b.top - r.bottom, r.top - b.bottom));
  const targets = ['#claim-bar:not([hidden])', '#hand-actions:not([hidden])']
    .map(s => document.querySelector(s)).filter(Boolean);
  const nearest = Math.min(...targets.map(t => gap(t.getBoundingClientRect())));
  if (!(nearest <= near)) out.push(`the notice is ${Math.round(nearest)} px from the buttons`);
  for (const button of document.querySelectorAll('#claim-form button, #hand-actions button')) {
    const b = button.getBoundingClientRect();
    if (b.width < 1) continue;
    const hit = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
    if (hit && notice.contains(hit)) out.push(`the notice covers #${button.id}`);
  }
  return out;
}"""

#: Where the notice is looked at: a laptop, two phones upright and one on its side.
SIZES = [(375, 667), (375, 740), (740, 375), (1280, 800)]


def offline_moves(page, table: Table) -> tuple[int, int]:
    """The match's version and the count of its moves by the page's seat (seat 0)."""
    match = Match.objects.get(table=table)
    return match.version, Move.objects.filter(match=match, seat=0).count()


def go_offline(page, strings: dict, name: str) -> None:
    """The network goes: the notice says so by the claim bar and the hand, in the page's
    language, at every size, and every button that sends a move is disabled."""
    page.context.set_offline(True)
    notice = page.locator("#flash .offline-message")
    expect(notice).to_be_visible(timeout=5_000)
    expect(notice).to_have_text(strings["offline"])
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        settle(page)
        screenshot(page, f"offline/{name}-{width}x{height}")
        assert page.evaluate(NOTICE_NEAR, 60) == [], (width, height)


def refused(page, strings: dict, before: tuple[int, int], table: Table) -> None:
    """What the player pressed was not sent, and the page says so: "not sent" by the claim bar
    and the hand and in the alert region; the match did not move."""
    notice = page.locator("#flash .offline-message")
    expect(notice).to_have_text(strings["notSent"])
    expect(page.locator("#alert-announcer")).to_have_text(strings["notSent"])
    page.wait_for_timeout(2_500)  # the sent-lock's 2 s: nothing comes back to free a button
    assert offline_moves(page, table) == before


def back_online(page, before: tuple[int, int], table: Table) -> None:
    """The network is back: a new socket and its snapshot, the notice gone, and nothing the
    player pressed meanwhile sent by itself."""
    opens = page.evaluate("() => window.club414.socketOpens")
    page.context.set_offline(False)
    page.wait_for_function("n => window.club414.socketOpens > n", arg=opens, timeout=20_000)
    expect(page.locator("#flash .offline-message")).to_have_count(0)
    expect(page.locator("#connection")).to_be_hidden()
    page.wait_for_timeout(1_000)
    assert offline_moves(page, table) == before
    expect(page.locator("#flash")).to_be_empty()


def test_a_move_pressed_offline_is_refused_on_the_page_and_never_sent_later(new_page):
    """The tester's walk (issue: a hook pressed offline was silently lost): in Vietnamese, the
    network goes in a claim window; Hook and Pass are disabled, the notice says so by the
    claim bar, and the K and P keys (and a press on the button) show "not sent" without
    sending anything, then or once the network is back. Back online, K hooks. Then the same on
    the own turn: Play and Pass disabled, Enter and P refused, Hint still picks cards (it needs
    no server); back online, the hint is played."""
    page = new_page(1280, 800)
    log_in_as(page, "offline_player", "vi", landing=None)
    open_started_table(page, claim_seconds=10, turn_seconds=60)
    table = Table.objects.get(host__username="offline_player")
    with translation.override("vi"):
        strings = table_strings()

    show_phase(page, table, claim_window)
    expect(page.locator("#claim-button")).to_be_enabled()
    before = offline_moves(page, table)
    go_offline(page, strings, "window")
    expect(page.locator("#claim-button")).to_be_disabled()
    expect(page.locator("#claim-pass-button")).to_be_disabled()
    page.locator("#claim-button").click(force=True)  # a press on the disabled button: nothing
    page.keyboard.press("k")
    refused(page, strings, before, table)
    settle(page)
    screenshot(page, "offline/window-not-sent-1280x800")
    page.keyboard.press("p")
    refused(page, strings, before, table)
    back_online(page, before, table)
    expect(page.locator("#claim-button")).to_be_enabled()
    page.keyboard.press("k")
    expect(page.locator("#claim-button")).to_have_count(0)
    version, hooks = offline_moves(page, table)
    assert version > before[0] and hooks == before[1] + 1
    assert Move.objects.filter(match__table=table, seat=0).last().action["type"] == "hook"

    show_phase(page, table, your_turn)
    expect(page.locator("#pass-button")).to_be_enabled()
    before = offline_moves(page, table)
    go_offline(page, strings, "turn")
    expect(page.locator("#pass-button")).to_be_disabled()
    page.keyboard.press("h")  # Hint is the page's own: it still picks cards
    expect(page.locator("#hand .card-check:checked")).not_to_have_count(0)
    expect(page.locator("#play-button")).to_be_disabled()
    page.keyboard.press("Enter")
    refused(page, strings, before, table)
    page.keyboard.press("p")
    refused(page, strings, before, table)
    back_online(page, before, table)
    expect(page.locator("#pass-button")).to_be_enabled()
    page.keyboard.press("h")
    page.keyboard.press("Enter")
    expect(page.locator("#status")).not_to_have_class(re.compile(r"\bmy-turn\b"))
    version, plays = offline_moves(page, table)
    assert version > before[0] and plays == before[1] + 1
    assert Move.objects.filter(match__table=table, seat=0).last().action["type"] == "play"


# Where the panel button's icon is drawn: left of its words, or the whole button where its words
# are not shown (a phone held upright: font-size 0); and the button's own colour, the icon's.
ICON_AREA = """() => {
  const button = document.getElementById('panel-toggle'), r = button.getBoundingClientRect();
  const walk = document.createTreeWalker(button, NodeFilter.SHOW_TEXT);
  let words = null;
  while (walk.nextNode()) if (walk.currentNode.data.trim()) words = walk.currentNode;
  const range = document.createRange();
  range.selectNodeContents(words);
  const w = range.getBoundingClientRect();
  const right = w.width >= 1 ? w.left : r.right;
  const colour = getComputedStyle(button).color.match(/\\d+/g).slice(0, 3).map(Number);
  return [{x: r.left, y: r.top, width: right - r.left, height: r.height}, colour];
}"""


def test_the_panel_button_keeps_its_icon_and_opens_while_offline(new_page):
    """The tester's walk: a page opened wide (the panel beside the table, its button not shown),
    the network goes, then the window narrows to a phone's: the header's "Moves and chat"
    button showed blank, its icon an image never loaded and now unreachable. Offline, at every
    size that shows it, the button draws its icon (the only thing it shows on a phone held
    upright), and it still opens the drawer with the chat: the drawer is the page's own."""
    page = new_page(1280, 800)
    log_in_as(page, "offline_panel", landing=None)
    open_started_table(page, turn_seconds=60)
    page.context.set_offline(True)
    expect(page.locator("#flash .offline-message")).to_be_visible(timeout=5_000)
    toggle = page.locator("#panel-toggle")
    for width, height in SIZES[:3]:  # below 60rem, where the button shows
        page.set_viewport_size({"width": width, "height": height})
        settle(page)
        expect(toggle).to_be_visible()
        screenshot(page, f"offline/panel-button-{width}x{height}")
        area, colour = page.evaluate(ICON_AREA)
        ink = count_near(page.screenshot(clip=area), tuple(colour))
        assert ink >= 40, (width, height, area, colour, ink)  # the icon is ~20 px square
    toggle.click()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    expect(page.locator("#table-panel")).to_be_in_viewport()
    expect(page.locator("#chat-form")).to_be_visible()
    page.keyboard.press("Escape")
    expect(toggle).to_have_attribute("aria-expanded", "false")
    expect(toggle).to_be_focused()
    page.context.set_offline(False)
