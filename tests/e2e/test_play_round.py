"""A person signs up, opens a 4-seat table with 3 AI seats and plays a round in chromium; a
spectator in a second browser context watches without ever seeing a hand."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from .helpers import fill_with_ai_and_start, log_in_as, open_started_table, wait_until_live

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "e2e-long-passphrase-414"
HIDDEN_REGIONS = "#trick, #tribute, #log, #result"
#: Counts the out-of-band swaps htmx makes and the ``htmx:oobAfterSwap`` events a listener of
#: the page's document hears (added before the page's own scripts run).
SWAPS_HEARD = """
window.swapsMade = 0; window.swapsHeard = 0;
document.addEventListener('htmx:oobBeforeSwap', () => { window.swapsMade += 1; });
document.addEventListener('htmx:oobAfterSwap', () => { window.swapsHeard += 1; });
"""


def sign_up(page, username: str) -> None:
    page.goto("/accounts/signup/")
    page.fill("#id_username", username)
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("form[action$='/signup/'] button[type=submit]")
    expect(page.locator("#account-menu summary")).to_have_text(username)


def log_in(page, username: str) -> None:
    """Signed in without the form (the sign-up test above goes through it)."""
    log_in_as(page, username)
    expect(page.locator("#account-menu summary")).to_have_text(username)


def open_ai_table(page) -> str:
    """Create a table (short claim window), fill it with AI seats, start it; its URL."""
    page.goto("/tables/new/")
    page.fill("#id_name", "E2E table")
    page.select_option("#id_seats", "4")
    page.fill("#id_claim_window_seconds", "1")
    page.fill("#id_turn_seconds", "20")
    page.click("#create-table-form button[type=submit]")
    expect(page.locator("#seats")).to_be_visible()
    wait_until_live(page)
    fill_with_ai_and_start(page)
    expect(page.locator("#status")).to_contain_text("Round 1")
    return page.url


def private_cards_shown(page) -> int:
    """Cards a spectator's page draws outside the public regions (the trick, tributes…)."""
    return page.evaluate(
        """sel => [...document.querySelectorAll('[data-card], input[name=cards]')]
                .filter(el => !el.closest(sel)).length""",
        HIDDEN_REGIONS,
    )


def play_until_round_over(page, spectator, seconds: float = 240) -> int:
    """Answer every prompt as a person would: claim when offered, else pass the window; on
    our turn take the hint and play it, or pass when nothing beats the top play. Returns how
    many of our moves were sent."""
    moves = 0
    checked_spectator = False
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            if page.locator("#result").is_visible():
                return moves
            claim = page.locator("#claim-form button[name=action]")
            if page.locator("#claim-form").is_visible() and claim.count():
                claim.first.click(timeout=2000)
                moves += 1
            elif page.locator("#status.my-turn").count():
                if page.locator("#hint-button").is_enabled():
                    page.click("#hint-button", timeout=2000)
                    page.click("#play-button", timeout=2000)
                else:  # nothing beats the top play: pass rather than wait out the turn
                    page.click("#pass-button", timeout=2000)
                moves += 1
                if not checked_spectator:
                    assert spectator.locator("#hand input[name=cards]").count() == 0
                    assert private_cards_shown(spectator) == 0
                    checked_spectator = True
        except PlaywrightError:
            pass  # the region was re-rendered under the click: look again
        page.wait_for_timeout(100)
    pytest.fail("the round did not end in time")


def test_sign_up_play_a_round_and_see_levels_change(new_page):
    """Sign up → table with 3 AI seats → play to the round's end → levels move; the next round
    is dealt at the winners' level. The spectator never sees a hand."""
    page = new_page()
    sign_up(page, "e2e_player")
    table_url = open_ai_table(page)
    expect(page.locator("#hand input[name=cards]")).to_have_count(27)

    spectator = new_page()
    spectator.goto(table_url)
    expect(spectator.locator("#status")).to_contain_text("Round 1")
    assert spectator.locator("#hand input[name=cards]").count() == 0

    moves = play_until_round_over(page, spectator)
    assert moves > 0
    result = page.locator("#result")
    expect(result.locator("#result-headline")).to_contain_text("wins the round")
    expect(result).to_contain_text("→")  # the winners' level moved up
    assert private_cards_shown(spectator) == 0
    expect(spectator.locator("#result-headline")).to_contain_text("wins the round")

    expect(page.locator("#status")).to_contain_text("Round 2", timeout=40_000)
    level = page.locator("#status .round-level b").inner_text()
    assert level in {"3", "4"}
    assert spectator.locator("#hand input[name=cards]").count() == 0


def test_an_illegal_move_is_refused_with_a_message(new_page):
    """Playing two unrelated cards is refused with a clear message and changes nothing."""
    page = new_page()
    log_in(page, "e2e_refused")
    open_started_table(page, claim_seconds=1, turn_seconds=20)
    end = time.monotonic() + 60
    while not page.locator("#status.my-turn").count():
        assert time.monotonic() < end, "our turn never came"
        claim_pass = page.locator("#claim-pass-button")
        if claim_pass.is_visible():
            try:
                claim_pass.click(timeout=1000)
            except PlaywrightError:
                pass
        page.wait_for_timeout(100)
    version = page.locator("#status").get_attribute("data-version")
    cards = page.locator("#hand input[name=cards]")
    # the first and last cards of a sorted 27-card hand never form a combination together
    page.locator(f"label[for='{cards.first.get_attribute('id')}']").click()
    page.locator(f"label[for='{cards.last.get_attribute('id')}']").click()
    page.click("#play-button")
    expect(page.locator("#flash")).to_contain_text("not a valid combination")
    assert page.locator("#status").get_attribute("data-version") == version


def test_a_page_that_loses_a_push_catches_up(new_page):
    """A spectator page drops a push on purpose (table.js's test hook): it notices the gap at
    the next delta (or its heartbeat), asks for a snapshot, and then shows exactly what a page
    loaded afresh shows — never a delta applied over the wrong state. Meanwhile the page's
    listeners hear of each region a push swaps once (htmx itself repeats ``oobAfterSwap`` for
    every region the same message swapped before: table.js stops the repeats)."""
    page = new_page()
    log_in(page, "e2e_lossy")
    table_url = open_started_table(page, claim_seconds=1, turn_seconds=20)
    spectator = new_page()
    spectator.add_init_script(SWAPS_HEARD)
    spectator.goto(table_url)
    expect(spectator.locator("#status")).to_contain_text("Round 1")
    # The page's HTML already shows round 1: wait for the socket's connect snapshot too, or the
    # frame dropped below could be that snapshot (same version: nothing to repair, none counted).
    spectator.wait_for_function("() => window.club414.snapshots >= 1")
    snapshots = spectator.evaluate("() => window.club414.snapshots")
    spectator.evaluate("() => { window.club414.dropFrames = 1; }")
    # The AI seats play on until it is this person's turn (the table then waits for them, at
    # most their 20 s turn, after which the clock plays for them): the next push is dropped.
    expect(spectator.locator("#status")).not_to_have_attribute(
        "data-version", spectator.get_attribute("#status", "data-version"), timeout=45_000
    )
    expect(page.locator("#status.my-turn")).to_have_count(1, timeout=40_000)
    version = page.get_attribute("#status", "data-version")
    # A lost *last* push is caught at the second heartbeat after it (5 s apart).
    expect(spectator.locator("#status")).to_have_attribute("data-version", version, timeout=20_000)
    assert spectator.evaluate("() => window.club414.dropFrames") == 0
    # Repaired by a snapshot: asked for at the gap, or sent on the heartbeat.
    assert spectator.evaluate("() => window.club414.snapshots") > snapshots
    fresh = new_page()
    fresh.goto(table_url)
    expect(fresh.locator("#status")).to_have_attribute("data-version", version)
    for region in ("#seats", "#trick", "#claim-bar", "#tribute"):
        assert spectator.locator(region).inner_text() == fresh.locator(region).inner_text()
    swaps, heard = spectator.evaluate("() => [window.swapsMade, window.swapsHeard]")
    assert swaps > 10 and heard == swaps, (swaps, heard)
