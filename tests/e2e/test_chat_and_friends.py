"""Table chat and friends in chromium against Daphne and the live worker (issue #10 item 5).

ana (English) and bo (Spanish) sit at a table and chat: a typed line (a stored XSS attempt,
shown as text) and a quick phrase each reader sees in their own language. ana follows cy from
cy's profile and invites her by name from the table; cy finds the invitation in her notices,
opens the table as a spectator and talks in the spectators' room, which the players never see,
while she never sees theirs. ana mutes bo: his next line is not sent to her page. Screenshots
at 1280 and 375 px (``make screenshots``): chat_*.png."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.models import ChatLine, ChatMute

from .helpers import (  # noqa: F401 - stop_tables_after_the_test is an autouse fixture
    axe_violations,
    describe,
    log_in_as,
    screenshot,
    start_with_a_guest,
    stop_tables_after_the_test,
    wait_until_live,
)

pytestmark = pytest.mark.django_db(transaction=True)

XSS = "<img src=x onerror=alert(1)>hi"


def say(page, text: str) -> None:
    page.fill("#chat-text", text)
    page.click("#chat-send")
    expect(page.locator("#chat-text")).to_have_value("")


def no_overflow(page, width: int) -> None:
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= width


def test_two_players_chat_and_invite_a_friend_by_name(new_page):
    ana, bo, cy = new_page(), new_page(), new_page()
    log_in_as(ana, "ana_chat")
    log_in_as(bo, "bo_chat", language="es")
    log_in_as(cy, "cy_chat", language="vi")
    dialogs = []
    for page in (ana, bo, cy):
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))

    url = start_with_a_guest(ana, bo, "Chat table", fields={"#id_turn_seconds": "120"})
    expect(ana.locator("#chat-title")).to_have_text("Table chat")
    expect(bo.locator("#chat-title")).to_have_text("Chat de la mesa")

    # A typed line reaches the partner as text, never as markup.
    say(ana, XSS)
    line = bo.locator("#chat-lines .chat-line").last
    expect(line.locator(".chat-text")).to_have_text(XSS)
    assert bo.locator("#chat-lines img").count() == 0 and not dialogs
    # A quick phrase reads in each reader's language; Enter in the box sends too.
    bo.click("#chat-phrases-toggle")  # beside the table during a match: a small menu
    bo.click(".chat-phrase-button[value=gg]")
    expect(bo.locator("#chat-phrases-toggle")).to_have_attribute("aria-expanded", "false")
    expect(ana.locator("#chat-lines .chat-line").last).to_contain_text("Good game!")
    expect(bo.locator("#chat-lines .chat-line").last).to_contain_text("¡Buena partida!")
    bo.fill("#chat-text", "hola ana")
    bo.press("#chat-text", "Enter")
    expect(ana.locator("#chat-lines .chat-line").last).to_contain_text("hola ana")
    # The own line offers no mute or report; the partner's does.
    expect(ana.locator("#chat-lines .chat-line.mine .chat-mute")).to_have_count(1)
    expect(ana.locator("#chat-lines .chat-line.mine .chat-mute").first).to_be_hidden()

    # ana follows cy from her profile, then invites her by name from the table.
    ana.goto("/accounts/cy_chat/")
    ana.click("#follow-button")
    expect(ana.locator("#unfollow-button")).to_be_visible()
    ana.goto(url)
    wait_until_live(ana)
    ana.fill("#invite-username", "cy_chat")
    ana.click("#invite-send")
    expect(ana.locator("#flash")).to_contain_text("Invitation sent to cy_chat.")

    # cy: the badge counts it, the notice leads to the table, where she is a spectator.
    cy.goto("/")
    expect(cy.locator("#notices-link .badge")).to_have_text("1")
    cy.goto("/leagues/notices/")
    expect(cy.locator(".notice-table_invite")).to_contain_text("ana_chat")
    table_id = url.rstrip("/").split("/")[-1]
    cy.click(f".notice-table_invite a[href$='/tables/{table_id}/']")
    expect(cy.locator("#chat-title")).to_have_text("Trò chuyện của người xem")
    wait_until_live(cy)
    expect(cy.locator("#chat-lines")).not_to_contain_text("hola ana")
    say(cy, "xin chào mọi người")
    expect(cy.locator("#chat-lines .chat-line").last).to_contain_text("xin chào mọi người")

    # ana sees cy online, at the table.
    ana.goto("/social/friends/")
    friend = ana.locator(".friend[data-username=cy_chat]")
    expect(friend).to_contain_text("online")
    expect(friend.locator(".friend-table a")).to_have_text("Chat table")
    screenshot(ana, "chat_friends_1280", full_page=True)
    ana.goto(url)
    wait_until_live(ana)
    expect(ana.locator("#chat-lines")).to_contain_text("hola ana")  # kept for a reload
    expect(ana.locator("#chat-lines")).not_to_contain_text("xin chào")

    # ana mutes bo: his next line does not show on her page, and it is remembered.
    bo_line = ana.locator("#chat-lines .chat-line:not(.mine)").last
    bo_line.locator(".chat-mute").click()
    expect(ana.locator("#flash")).to_contain_text("bo_chat is muted")
    expect(bo_line).to_be_hidden()
    bo.click("#chat-phrases-toggle")
    bo.click(".chat-phrase-button[value=thanks]")
    expect(bo.locator("#chat-lines .chat-line").last).to_contain_text("¡Gracias!")
    say(ana, "still here")
    expect(ana.locator("#chat-lines .chat-line").last).to_contain_text("still here")
    # Her own later line came on the same group, after his: his was never sent to her page.
    expect(ana.locator("#chat-lines .chat-line", has_text="Thanks!")).to_have_count(0)
    assert ChatMute.objects.filter(user__username="ana_chat", muted__username="bo_chat").exists()
    assert set(ChatLine.objects.values_list("room", flat=True)) == {"p", "w"}

    found = axe_violations(ana)
    assert not found, describe(found)
    screenshot(ana, "chat_table_1280", full_page=True)
    for page, name in ((ana, "chat_table_375"), (cy, "chat_spectator_375")):
        page.set_viewport_size({"width": 375, "height": 800})
        page.click("#panel-toggle")  # on a phone the chat is in the drawer with the moves
        page.locator("#chat").scroll_into_view_if_needed()
        expect(page.locator("#chat-text")).to_be_visible()
        no_overflow(page, 375)
        screenshot(page, f"{name}", full_page=True)
