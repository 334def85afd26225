"""The table page on one screen at the sizes a new tester used: at 1280×800 the side panel's
parts (the spectators' line, the seat menu, the card tracker, the moves, the chat, the
invitation) share its height and the chat's lines scroll inside it, its newest line in view,
whatever the panel holds (the page grew past the screen with the panel: 1015 px after a few chat
lines, 1046 with the invitation, 23 px more for "1 spectator watching").

Screenshots (``make screenshots``): panel-fit/<case>.png.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .helpers import ADD_CHAT_LINES, log_in_as, open_started_table, screenshot
from .measures import PANEL_SHARED
from .phases import settle

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_side_panel_shares_its_height_and_the_page_never_grows(new_page) -> None:
    """1280×800, a long chat, the invitation used, a spectator watching: the page stays the
    screen's height, the panel's parts all show without scrolling the panel, and the chat's
    newest line is in view (after the spectator's line took its room above it too)."""
    page = new_page(1280, 800)
    log_in_as(page, "panel_fit", landing=None)
    url = open_started_table(page, claim_seconds=0, turn_seconds=120)
    page.evaluate(ADD_CHAT_LINES, 14)
    page.fill("#chat-text", "the newest line")
    page.click("#chat-send")
    expect(page.locator("#chat-lines > li").last).to_contain_text("the newest line")
    page.fill("#invite-username", "nobody_by_that_name")
    page.click("#invite-send")
    expect(page.locator("#flash .flash-message")).to_be_visible()
    watcher = new_page(1280, 800)
    watcher.goto(url)
    expect(page.locator("#spectators .spectator-count")).to_be_visible()
    settle(page)
    screenshot(page, "panel-fit/long-chat-invite-spectator-1280x800")
    assert page.evaluate(PANEL_SHARED) == []
