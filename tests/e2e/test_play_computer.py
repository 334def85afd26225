""" "Play the computer" in chromium (issue #18 §4): one click on the lobby, and the player's hand
is dealt at a table with three AI players of the difficulty picked — with htmx, and in a page
without scripts (a plain form post)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.models import Seat

from .helpers import log_in_as

pytestmark = pytest.mark.django_db(transaction=True)


def test_one_click_deals_a_hand_against_three_ai(new_page):
    page = new_page()
    log_in_as(page, "ana_pc")
    page.goto("/")
    page.wait_for_function("() => window.htmx")
    page.select_option("#play-computer-difficulty", "random")
    page.click("#play-computer-button")
    expect(page.locator("#hand input[name=cards]")).to_have_count(27)
    policies = Seat.objects.filter(table__host__username="ana_pc").values_list(
        "ai_policy", flat=True
    )
    assert sorted(policies) == ["", "random", "random", "random"]
    page.goto("/")
    expect(page.locator("#play-computer-difficulty")).to_have_value("random")  # remembered


def test_it_works_without_scripts(browser, live_url):
    context = browser.new_context(base_url=live_url, java_script_enabled=False)
    try:
        page = context.new_page()
        log_in_as(page, "bo_pc")
        page.goto("/")
        page.click("#play-computer-button")
        expect(page.locator("#hand input[name=cards]")).to_have_count(27)
    finally:
        context.close()
