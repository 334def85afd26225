"""The table on a phone (375×740) and with the keyboard alone.

Phone: no sideways scrolling of the page or the hand (its cards overlap and wrap), the hand
grouped by rank, every card a tap target of at least 32×44 px, the Play dock and the claim
bar's Hook button large, fixed, apart from each other and in the same place whatever the
page's scroll. Screenshots: ``make screenshots``.

Keyboard: a round played with keys only (Y, arrows, Space, Enter, H, P, K), checking that the
live regions announce plays, the turn and claim windows, and that the tab title and the beep
tell the player when it is their turn.
"""

from __future__ import annotations

import json
import time

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from tests.e2e.helpers import (  # noqa: F401 - stop_tables_after_the_test is an autouse fixture
    log_in_as,
    open_started_table,
    screenshot,
    stop_tables_after_the_test,
    take_turn,
)

pytestmark = pytest.mark.django_db(transaction=True)

MIN_TARGET = 44  # px, WCAG 2.5.5 target size


def box(page, selector: str) -> dict:
    """The element's box; a push may be re-rendering it, so look again for a moment."""
    for _ in range(20):
        try:
            rect = page.locator(selector).first.bounding_box(timeout=1000)
        except PlaywrightError:
            rect = None
        if rect is not None:
            return rect
        page.wait_for_timeout(100)
    raise AssertionError(f"{selector} is not displayed")


def overlap(a: dict, b: dict) -> bool:
    return not (
        a["x"] + a["width"] <= b["x"]
        or b["x"] + b["width"] <= a["x"]
        or a["y"] + a["height"] <= b["y"]
        or b["y"] + b["height"] <= a["y"]
    )


CARD_TARGETS = """() => {
  // The part of each card that a finger can reach: its label, the strip of the card that the
  // next card (overlapping it to the right, and the next row, below) leaves uncovered.
  return [...document.querySelectorAll('#hand .hand-cards label')].map(label => {
    const r = label.getBoundingClientRect();
    return {width: r.width, height: r.height};
  });
}"""
MIN_STRIP = 32  # px, a card's visible width in the fanned hand (WCAG 2.5.8 asks 24)


def test_table_on_a_phone(new_page) -> None:
    page = new_page(375, 740)
    log_in_as(page, "phone_player", "id", landing=None)  # Indonesian: the longest button labels
    open_started_table(page, claim_seconds=4)
    expect(page.locator("#hand input[name=cards]")).to_have_count(27)

    # Neither the page nor the hand scrolls sideways: the cards overlap and wrap.
    widths = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert widths[0] <= widths[1] == 375, f"the page overflows sideways: {widths}"
    hand = page.evaluate("""() => { const h = document.querySelector('#hand .hand-cards');
        return {scroll: h.scrollWidth, client: h.clientWidth,
                groups: h.querySelectorAll('.rank-group').length}; }""")
    assert hand["scroll"] <= hand["client"] <= 375, hand
    ranks = page.evaluate(
        """() => new Set([...document.querySelectorAll('#hand .card-check')]
                 .map(e => /J$/.test(e.value) ? e.value : e.value.slice(0, -1))).size"""
    )
    assert hand["groups"] == ranks, "the hand is grouped by rank"

    # Every card is a big enough tap target.
    targets = page.evaluate(CARD_TARGETS)
    assert len(targets) == 27
    small = [t for t in targets if t["width"] < MIN_STRIP - 0.5 or t["height"] < MIN_TARGET - 0.5]
    assert not small, f"cards smaller than {MIN_STRIP}x{MIN_TARGET} px: {small}"

    # The Play dock: fixed at the bottom, its buttons big enough.
    play = box(page, "#play-button")
    assert play["height"] >= MIN_TARGET and play["width"] >= MIN_TARGET
    assert play["y"] + play["height"] <= 740 and play["y"] > 740 - 100
    assert (
        page.evaluate("() => getComputedStyle(document.querySelector('.hand-actions')).position")
        == "fixed"
    )
    for button in ("#hint-button", "#clear-button"):
        b = box(page, button)
        assert b["height"] >= MIN_TARGET and b["x"] + b["width"] <= 375
    screenshot(page, "table-375x740")

    # A claim window for this seat: the Hook button is large, fixed, above Play, never over it.
    end = time.monotonic() + 90
    positions = []
    while len(positions) < 2 and time.monotonic() < end:
        try:
            if page.locator("#claim-form").is_visible():
                hook = box(page, "#claim-button")
                pass_ = box(page, "#claim-pass-button")
                play = box(page, "#play-button")
                assert hook["height"] >= 56 and hook["width"] >= 180, hook
                assert pass_["height"] >= MIN_TARGET
                assert not overlap(hook, play) and not overlap(pass_, play)
                assert hook["y"] + hook["height"] <= play["y"] + 1
                if not positions:
                    screenshot(page, "table-375x740-claim")
                    page.mouse.wheel(0, 600)  # scroll the page: the bar must not move
                    page.wait_for_timeout(150)
                    moved = page.locator("#claim-button").bounding_box()
                    if moved:  # (unless the window closed meanwhile)
                        assert (moved["x"], moved["y"]) == (hook["x"], hook["y"])
                positions.append((round(hook["x"]), round(hook["y"]), round(hook["width"])))
                version = page.get_attribute("#status", "data-version") or ""
                page.click("#claim-pass-button", timeout=2000)
                # The answer moves the table on (another window may open at once).
                expect(page.locator("#status")).not_to_have_attribute(
                    "data-version", version, timeout=8000
                )
            else:
                take_turn(page)
        except PlaywrightError:
            pass  # a region was re-rendered under the click: look again
        page.wait_for_timeout(100)
    assert len(positions) == 2, "no claim window opened for this seat"
    assert positions[0] == positions[1], f"the Hook button moved: {positions}"
    widths = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert widths[0] <= widths[1], f"the page overflows sideways: {widths}"


def checkbox_index(page, code: str, taken: set[int]) -> int:
    codes = page.eval_on_selector_all("#hand .card-check", "els => els.map(e => e.value)")
    for i, c in enumerate(codes):
        if c == code and i not in taken:
            return i
    raise AssertionError(f"{code} is not in the hand")


def select_with_arrows(page, cards: list[str]) -> None:
    """Y to reach the hand, Home, then arrows and Space on each card to select."""
    page.keyboard.press("y")
    page.keyboard.press("Home")
    position = 0
    taken: set[int] = set()
    for code in cards:
        index = checkbox_index(page, code, taken)
        taken.add(index)
        key = "ArrowRight" if index > position else "ArrowLeft"
        for _ in range(abs(index - position)):
            page.keyboard.press(key)
        position = index
        page.keyboard.press("Space")
    focused = page.evaluate("() => document.activeElement && document.activeElement.className")
    assert "card-check" in focused, "the focus stays on the cards"


RECORD = """() => {
  window.__heard = [];
  for (const id of ['announcer', 'alert-announcer']) {
    const el = document.getElementById(id);
    new MutationObserver(() => window.__heard.push([id, el.textContent.trim()]))
      .observe(el, {childList: true, characterData: true, subtree: true});
  }
  window.__titles = [];
  new MutationObserver(() => window.__titles.push(document.title))
    .observe(document.querySelector('title'),
             {childList: true, characterData: true, subtree: true});
}"""


# The ids an element's aria-describedby names, and those of them no element on the page has.
DESCRIBED_BY = """id => { const el = document.getElementById(id);
  const ids = ((el && el.getAttribute('aria-describedby')) || '').split(/\\s+/).filter(Boolean);
  return {ids, missing: ids.filter(d => !document.getElementById(d))}; }"""


def test_a_round_with_the_keyboard_alone(new_page) -> None:
    page = new_page()
    log_in_as(page, "keys_player", landing=None)
    open_started_table(page, claim_seconds=3, turn_seconds=30)
    page.evaluate(RECORD)
    page.locator("body").focus()

    counts = {"selected": 0, "hint": 0, "pass": 0, "claim": 0, "claim_pass": 0, "described": 0}
    end = time.monotonic() + 240
    moves = 0
    # A person's pace: a socket takes 5 messages a second (games.sockets.socket_limits), and
    # this loop, answering the AI seats' 50-ms moves, sent up to eight: the one dropped never
    # moved the table on, and the wait below for its version timed out.
    last_sent = [0.0]

    def pace() -> None:
        wait = last_sent[0] + 0.25 - time.monotonic()
        if wait > 0:
            page.wait_for_timeout(wait * 1000)
        last_sent[0] = time.monotonic()

    while time.monotonic() < end and moves < 60:
        try:
            if page.locator("#result").is_visible():
                break
            if page.locator("#claim-form").is_visible():
                version = page.get_attribute("#status", "data-version") or ""
                pace()
                if page.locator("#claim-button:not([disabled])").count():
                    page.keyboard.press("k")
                    counts["claim"] += 1
                else:
                    page.keyboard.press("p")
                    counts["claim_pass"] += 1
                moves += 1
                expect(page.locator("#status")).not_to_have_attribute(
                    "data-version", version, timeout=8000
                )
            elif (
                page.locator("#status.my-turn").count()
                and page.locator("#hint-button:not([disabled])").count()
            ):
                hints = json.loads(page.get_attribute("#hand-actions", "data-hints") or "[]")
                leading = page.locator("#pass-button").count() == 0
                version = page.get_attribute("#status", "data-version")
                pace()
                if not leading and counts["pass"] < 3 and moves % 2:
                    page.keyboard.press("p")
                    counts["pass"] += 1
                elif counts["selected"] <= counts["hint"]:
                    select_with_arrows(page, hints[0])
                    page.keyboard.press("Enter")
                    counts["selected"] += 1
                else:
                    page.keyboard.press("h")
                    page.keyboard.press("Enter")
                    counts["hint"] += 1
                moves += 1
                expect(page.locator("#status")).not_to_have_attribute(
                    "data-version", version or "", timeout=8000
                )
            elif page.locator("#status.my-turn").count() and page.locator("#pass-button").count():
                # Nothing beats the top play. Wait for the pass's frame, not for the turn to
                # leave: the AI seats can bring it back within a poll's interval.
                version = page.get_attribute("#status", "data-version") or ""
                # The greyed Hint button is described by the note saying why, which is on the
                # page (a report said its aria-describedby pointed to no element).
                described = page.evaluate(DESCRIBED_BY, "hint-button")
                if described["ids"]:
                    assert not described["missing"], described
                    counts["described"] += 1
                pace()
                page.keyboard.press("p")
                counts["pass"] += 1
                moves += 1
                expect(page.locator("#status")).not_to_have_attribute(
                    "data-version", version, timeout=8000
                )
        except PlaywrightError:
            pass  # a region was re-rendered between two keys: look again
        page.wait_for_timeout(80)

    print("keyboard round:", moves, counts, page.locator("#result").is_visible())
    assert page.locator("#result").is_visible() or moves >= 30, (moves, counts)
    assert counts["selected"] >= 2 and counts["hint"] >= 1, counts
    assert counts["pass"] + counts["claim_pass"] >= 1, counts
    heard = page.evaluate("() => window.__heard")
    polite = [text for region, text in heard if region == "announcer" and text]
    urgent = [text for region, text in heard if region == "alert-announcer" and text]
    assert any("played" in t for t in polite), polite[-5:]
    assert any("Your turn" in t for t in urgent), urgent[-5:]
    # The keys read out are the ones that work: a lead may not pass, so no "P to pass" then.
    turns = [t for t in urgent if t.startswith("Your turn")]
    assert all(("P to pass" in t) != ("you lead" in t) for t in turns), turns
    assert any("Hook" in t or "Unhook" in t for t in urgent), urgent[-5:]
    titles = page.evaluate("() => window.__titles")
    assert any(t.startswith("▶ Your turn") for t in titles), titles[-5:]
    assert any(t.startswith("▶ Claim window") for t in titles), titles[-5:]
    assert page.evaluate("() => window.club414.beeps") >= 1


def test_turn_alerts_follow_the_preferences(new_page) -> None:
    """Sound and title alerts off in the preferences: no beep, the title stays."""
    page = new_page()
    log_in_as(page, "quiet_player")
    page.goto("/accounts/preferences/")
    page.uncheck("#id_sound_on")
    page.uncheck("#id_title_alerts")
    page.click("form[action$='/preferences/'] button[type=submit]")
    open_started_table(page, claim_seconds=2)
    assert page.get_attribute("#table-page", "data-sound") == "off"
    assert page.get_attribute("#table-page", "data-title-alerts") == "off"
    page.evaluate(RECORD)
    end = time.monotonic() + 90
    while page.evaluate("() => window.club414.alerts") < 2 and time.monotonic() < end:
        try:
            if page.locator("#claim-form").is_visible():
                page.click("#claim-pass-button", timeout=2000)
            elif page.locator("#status.my-turn").count():
                if page.locator("#hint-button").is_enabled():
                    page.click("#hint-button", timeout=2000)
                    page.click("#play-button", timeout=2000)
                else:
                    page.click("#pass-button", timeout=2000)
        except PlaywrightError:
            pass
        page.wait_for_timeout(100)
    assert page.evaluate("() => window.club414.alerts") >= 2  # it noticed, and stayed quiet
    assert page.evaluate("() => window.club414.beeps") == 0
    assert not any(t.startswith("▶") for t in page.evaluate("() => window.__titles"))


def _my_turn_read_out(page, name: str):
    """``name`` signs in and opens a started table; returns the assertive live region once it
    has read out their turn (the status marks it theirs)."""
    log_in_as(page, name, landing=None)
    open_started_table(page, claim_seconds=2, turn_seconds=60)
    alert = page.locator("#alert-announcer")
    expect(alert).to_contain_text("Press H for a hint", timeout=60000)
    expect(page.locator("#status.my-turn")).to_have_count(1)
    return alert


def test_no_turn_alert_is_left_once_the_match_is_over(new_page) -> None:
    """The player resigns on their turn, its alert just read out: once the status says the
    match is over, the assertive live region no longer holds "Your turn … Press H …"."""
    page = new_page()
    alert = _my_turn_read_out(page, "resigning_player")
    page.click("#resign-button")
    page.click("#resign-yes")
    expect(page.locator("#status")).to_have_attribute("data-phase", "match_over", timeout=10000)
    expect(alert).not_to_contain_text("Your turn")
    expect(alert).not_to_contain_text("Press H")


def test_no_turn_alert_is_left_once_the_turn_has_passed(new_page) -> None:
    """The player's turn is read out ("Your turn — you lead. … Press H …"); they hand their seat
    to the AI, so the turn is no longer theirs, and no other alert comes for them: the
    assertive live region no longer holds the turn (it stayed there, read out again by a
    screen reader going back to it, after the player had gone out and the round had ended)."""
    page = new_page()
    alert = _my_turn_read_out(page, "standing_in_player")
    page.click("#stand-in-button")
    expect(page.locator("#stand-in-banner")).to_be_visible()
    expect(page.locator("#status.my-turn")).to_have_count(0)
    expect(alert).not_to_contain_text("Your turn")
    expect(alert).not_to_contain_text("Press H")
