"""The table and the own hand on one screen, every move (issue #18 §1): at 1280×800, 1366×768,
1920×1080, 375×740 (a phone upright) and 740×375 (a phone on its side) the page does not
scroll, and the seats (name never cut off without its full text at hand), the play to beat,
every card of the own hand (each one reachable where it shows, at least 44 px tall), the
buttons and, in a claim window, the claim bar are all inside the viewport at once — in four
phases put in place directly through the match's state (the engine's own deal, play and
tribute functions): the own turn mid-trick, a claim window, a tribute return, a round over.
The log, chat, tracker and seat menu sit in a side panel on wide screens and in a drawer on
narrow ones. After the match the hand and the tracker go.

Screenshots (``make screenshots``): one-screen/<phase>-<width>x<height>.png.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.engine.state import MATCH_OVER
from games.models import Seat, Table

from .helpers import (
    ADD_CHAT_LINES,
    axe_violations,
    describe,
    log_in_as,
    open_started_table,
)
from .measures import MEASURE, ROUND_LINE, WHOLE
from .phases import (
    ONE_SCREEN_SIZES,
    PHASES,
    install_match_over,
    own_unhook_window,
    round_over,
    round_over_out,
    settle,
    shoot,
    show_phase,
    your_turn,
)

pytestmark = pytest.mark.django_db(transaction=True)

#: The screens every phase is measured on: the one screen (``ONE_SCREEN_SIZES``).
SIZES = ONE_SCREEN_SIZES


def test_the_table_and_the_hand_fit_one_screen_in_every_phase(new_page) -> None:
    page = new_page(1280, 800)
    log_in_as(page, "one_screen", "id", landing=None)  # Indonesian: the longest labels
    open_started_table(page, claim_seconds=10, turn_seconds=60)
    table = Table.objects.get(host__username="one_screen")
    problems: dict[str, list[str]] = {}
    for phase, (make, cards, shown) in PHASES.items():
        state = show_phase(page, table, make)
        count = cards if cards is not None else len(state.hands[0])
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            settle(page)
            shoot(page, f"{phase}-{width}x{height}")
            found = page.evaluate(MEASURE, {"cards": count, "shown": shown, "seats": 4})
            if phase in ("turn", "window"):
                found += page.evaluate(WHOLE)
            if found:
                problems[f"{phase} {width}x{height}"] = found
        if phase in ("turn", "window"):
            for width, height in ((1280, 800), (375, 740)):
                page.set_viewport_size({"width": width, "height": height})
                violations = axe_violations(page)
                assert not violations, f"{phase} {width}: {describe(violations)}"
                page.emulate_media(reduced_motion="no-preference")
    assert not problems, "\n".join(f"{k}: {v[:6]}" for k, v in problems.items())


def test_the_panel_is_beside_the_table_or_a_drawer(new_page) -> None:
    """Wide: the log, chat, tracker and seat menu beside the table, no toggle. Narrow: a drawer
    behind a button (aria-expanded), which moves the focus in and Escape closes, giving the
    focus back. After the match the hand and the tracker are gone."""
    page = new_page(1280, 800)
    log_in_as(page, "panel_player", landing=None)
    open_started_table(page, claim_seconds=0, turn_seconds=60)
    toggle, panel = page.locator("#panel-toggle"), page.locator("#table-panel")
    expect(toggle).to_be_hidden()
    for part in ("#log", "#chat", "#seat-menu", ".tracker-box"):
        expect(page.locator(part)).to_be_in_viewport()
    for width, height in ((375, 740), (740, 375)):
        page.set_viewport_size({"width": width, "height": height})
        expect(toggle).to_be_visible()
        expect(toggle).to_have_attribute("aria-expanded", "false")
        expect(page.locator("#log")).to_be_hidden()
        toggle.click()
        expect(toggle).to_have_attribute("aria-expanded", "true")
        expect(page.locator("#log")).to_be_visible()
        expect(panel).to_be_in_viewport(ratio=1)
        assert page.evaluate(
            "() => document.getElementById('table-panel').contains(document.activeElement)"
        )
        shoot(page, f"panel-open-{width}x{height}")
        page.keyboard.press("Escape")
        expect(toggle).to_have_attribute("aria-expanded", "false")
        expect(page.locator("#log")).to_be_hidden()
        expect(toggle).to_be_focused()
        violations = axe_violations(page)
        assert not violations, describe(violations)
        page.emulate_media(reduced_motion="no-preference")

    table = Table.objects.get(host__username="panel_player")
    install_match_over(table)
    page.set_viewport_size({"width": 1280, "height": 800})
    page.reload()
    expect(page.locator("#status")).to_have_attribute("data-phase", MATCH_OVER)
    expect(page.locator("#result")).to_be_visible()
    expect(page.locator("#hand")).to_be_hidden()
    expect(page.locator(".tracker-box")).to_be_hidden()
    shoot(page, "match-over-1280x800")


OVERLAP = """() => {
  const own = document.querySelector('#seats .seat.pos-0').getBoundingClientRect();
  const result = document.getElementById('result').getBoundingClientRect();
  const centre = document.querySelector('.felt-centre').getBoundingClientRect();
  const out = [], at = r => `${Math.round(r.top)}-${Math.round(r.bottom)}`;
  if (result.bottom > own.top + 0.5)
    out.push(`the result (${at(result)}) runs under the own seat (${at(own)})`);
  if (result.bottom > centre.bottom + 0.5 || result.top < centre.top - 0.5)
    out.push(`the result (${at(result)}) is cut by the felt's middle (${at(centre)})`);
  return out;
}"""


# The felt's middle and what is in it never scroll inside themselves (their content is whole).
NO_INNER_SCROLL = """() => {
  const out = [], centre = document.querySelector('.felt-centre');
  const parts = ':scope > :not(.trick), :scope > :not(.trick) *';
  for (const el of [centre, ...centre.querySelectorAll(parts)]) {
    if (el.clientHeight < 2) continue;  // hidden, or read out only
    const overflow = getComputedStyle(el).overflowY;
    const clips = ['auto', 'scroll', 'hidden'].includes(overflow);
    if (el.scrollHeight > el.clientHeight + 1 && clips)
      out.push(`${el.id || el.className}: ${el.scrollHeight} px in ${el.clientHeight} px`);
  }
  return out;
}"""

# What is at a point: "ok" when it is inside #result or #rematch, else what covers it.
HIT = """([x, y]) => {
  const hit = document.elementFromPoint(x, y);
  if (hit && hit.closest('#result, #rematch')) return 'ok';
  return hit ? (hit.id || hit.className || hit.tagName) : 'nothing';
}"""


def test_a_long_chat_and_the_result_keep_one_screen(new_page) -> None:
    """At 1280×800, twelve and more chat lines scroll inside the chat, the page stays the
    screen's height; after a resignation the result ends above the own seat, whole (no edge
    cut by the felt's middle), its last link in view."""
    page = new_page(1280, 800)
    log_in_as(page, "long_chat", landing=None)
    open_started_table(page, claim_seconds=0, turn_seconds=60)
    page.evaluate(ADD_CHAT_LINES, 14)
    page.focus("#chat-text")
    settle(page)
    shoot(page, "long-chat-1280x800")
    height = page.evaluate("() => document.scrollingElement.scrollHeight")
    assert height <= 800, f"the page is {height} px tall with a long chat"
    page.click("#resign-button")
    page.click("#resign-yes")
    expect(page.locator("#status")).to_have_attribute("data-phase", MATCH_OVER, timeout=10000)
    expect(page.locator("#result")).to_be_visible()
    settle(page)
    shoot(page, "resigned-1280x800")
    assert page.evaluate(OVERLAP) == []
    lobby = page.locator("#result .result-links a").last
    lobby.scroll_into_view_if_needed()
    expect(lobby).to_be_in_viewport(ratio=1)
    # No inner scroll box after the match: the felt's middle holds the result, its links and
    # the rematch whole (a box of 100dvh - 24rem cut the lobby link in half and hid Rematch
    # under it); the page itself may scroll.
    assert page.evaluate(NO_INNER_SCROLL) == []
    for selector in ("#replay-link", "#record-link", "#result .result-links a >> nth=2",
                     "#rematch-button"):  # fmt: skip
        part = page.locator(selector)
        part.scroll_into_view_if_needed()
        expect(part).to_be_in_viewport(ratio=1)
        box = part.bounding_box()
        assert box is not None
        hit = page.evaluate(HIT, [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2])
        assert hit == "ok", f"{selector} is covered by {hit}"


# Each line of the round's result, scrolled into view inside its sheet: "ok" when the point at
# its middle is the line itself (nothing fixed over it), else what covers it.
SHEET_LINES = """() => {
  const out = [];
  const lines = '#result h2, #result li, #result .result-facts > div';
  for (const line of document.querySelectorAll(lines)) {
    line.scrollIntoView({block: 'nearest'});
    const r = line.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + Math.min(20, r.width / 2), r.top + r.height / 2);
    if (!hit || !line.contains(hit))
      out.push(`${line.textContent.trim().slice(0, 30)} covered by `
               + (hit ? (hit.id || hit.className || hit.tagName) : 'nothing'));
  }
  return out;
}"""


def test_the_round_result_sheet_sits_above_the_stand_in_banner_on_a_phone(new_page) -> None:
    """375×740, round over, the AI playing for this person: its fixed "I'm back" banner covered
    the bottom of the result sheet (finish order, caught, levels) and nothing scrolled them
    out from under it. Every line of the sheet is readable, the banner's button too."""
    page = new_page(375, 740)
    log_in_as(page, "sheet_banner", landing=None)
    open_started_table(page, claim_seconds=0, turn_seconds=60)
    table = Table.objects.get(host__username="sheet_banner")
    Seat.objects.filter(table=table, number=0).update(stand_in=Seat.StandIn.ASKED)
    show_phase(page, table, round_over)
    expect(page.locator("#im-back")).to_be_visible()
    expect(page.locator("#result")).to_be_visible()
    settle(page)
    shoot(page, "round-over-stood-in-375x740")
    assert page.evaluate(SHEET_LINES) == []
    expect(page.locator("#im-back")).to_be_in_viewport(ratio=1)
    # On its side the banner sits in the column, the sheet above it.
    page.set_viewport_size({"width": 740, "height": 375})
    settle(page)
    shoot(page, "round-over-stood-in-740x375")
    assert page.evaluate(SHEET_LINES) == []
    expect(page.locator("#im-back")).to_be_in_viewport(ratio=1)


def test_a_refusal_shows_by_the_hand_not_over_the_header(new_page) -> None:
    """1280×800, an invalid play: the refusal floats at the foot of the felt, just above the
    hand, and covers none of the header's links (it sat over Tournaments and Leaderboard)."""
    page = new_page(1280, 800)
    log_in_as(page, "refused_flash", landing=None)
    open_started_table(page, claim_seconds=0, turn_seconds=60)
    table = Table.objects.get(host__username="refused_flash")
    show_phase(page, table, your_turn)
    cards = page.locator("#hand input[name=cards]")
    # The first and last cards of a sorted 27-card hand never form a combination together.
    page.locator(f"label[for='{cards.first.get_attribute('id')}']").click()
    page.locator(f"label[for='{cards.last.get_attribute('id')}']").click()
    page.click("#play-button")
    flash = page.locator("#flash .flash-message")
    expect(flash).to_contain_text("not a valid combination")
    settle(page)
    shoot(page, "refusal-1280x800")
    box = flash.bounding_box()
    header = page.locator(".site-header").bounding_box()
    hand = page.locator("#hand").bounding_box()
    assert box is not None and header is not None and hand is not None
    assert box["y"] >= header["y"] + header["height"], f"over the header: {box} {header}"
    assert box["y"] + box["height"] <= hand["y"] + 0.5, f"not above the hand: {box} {hand}"
    assert hand["y"] - (box["y"] + box["height"]) < 60, f"far from the hand: {box} {hand}"


def test_a_round_over_for_a_seat_that_went_out_shows_the_whole_result(new_page) -> None:
    """Round over, this person out of cards: no empty hand (and its sort buttons) under the
    felt, so the result gets its room. At 1280x800 the result's last fact and the next round's
    seconds were cut by the own seat's row; on a phone the sheet held two lines above its fold.
    Every line of the result is readable, the countdown in view, at both sizes."""
    page = new_page(1280, 800)
    log_in_as(page, "out_at_round_end", landing=None)
    open_started_table(page, claim_seconds=0, turn_seconds=60)
    table = Table.objects.get(host__username="out_at_round_end")
    show_phase(page, table, round_over_out)
    for width, height in ((1280, 800), (375, 740)):
        page.set_viewport_size({"width": width, "height": height})
        settle(page)
        shoot(page, f"round-over-out-{width}x{height}")
        expect(page.locator("#result")).to_be_visible()
        assert page.evaluate(SHEET_LINES) == [], (width, height)
        expect(page.locator("#result .countdown")).to_be_in_viewport(ratio=1)
        expect(page.locator("#hand")).to_be_hidden()


# The parts a player needs once the match is over, as the page opens (not scrolled): each one
# whole inside the viewport, the seats' AI badges not cut either.
AFTER_THE_MATCH = """() => {
  const out = [], H = innerHeight, W = innerWidth;
  const parts = ['#result h2', '#result-explained', '#result .result-facts', '#replay-link',
                 '#record-link', '#result .result-links a:last-child', '#rematch-button',
                 '#rematch .rematch-rule', '#seats .seat.pos-0', ...document.querySelectorAll(
                   '#seats .seat .badge.ai')];
  for (const part of parts) {
    const el = typeof part === 'string' ? document.querySelector(part) : part;
    const selector = typeof part === 'string' ? part : `${el.closest('.seat').id}'s AI badge`;
    const r = el && el.getBoundingClientRect();
    if (!r || r.height < 1) { out.push(`${selector} is not shown`); continue; }
    if (el.scrollWidth > el.clientWidth + 1) out.push(`${selector} is cut`);
    if (r.top < -0.5 || r.bottom > H + 0.5 || r.left < -0.5 || r.right > W + 0.5)
      out.push(`${selector} is outside the ${W}x${H} screen: ${Math.round(r.top)}-`
               + `${Math.round(r.bottom)}`);
  }
  return out;
}"""


@pytest.mark.parametrize("language", ["id", "es"])
def test_the_match_result_the_rematch_and_the_own_seat_fit_one_screen(new_page, language) -> None:
    """1280×800, the match just over (a new user's walk): the result, tall and narrow in the
    felt's middle, and the rematch offer under it pushed the own seat below the fold. The
    result with its links, Rematch with what it does, and the own seat are on the screen as the
    page shows them, without scrolling (Indonesian and Spanish: the longest sentences)."""
    page = new_page(1280, 800)
    log_in_as(page, f"after_match_{language}", language, landing=None)
    open_started_table(page, claim_seconds=0, turn_seconds=60)
    table = Table.objects.get(host__username=f"after_match_{language}")
    install_match_over(table)
    page.reload()
    expect(page.locator("#status")).to_have_attribute("data-phase", MATCH_OVER)
    expect(page.locator("#rematch-button")).to_be_visible()
    settle(page)
    shoot(page, f"match-over-rematch-{language}-1280x800")
    assert page.evaluate("() => scrollY") == 0
    assert page.evaluate(AFTER_THE_MATCH) == []
    assert page.evaluate(OVERLAP) == []
    assert page.evaluate(NO_INNER_SCROLL) == []


@pytest.mark.parametrize("language", ["en", "id"])
def test_the_round_line_is_whole_on_a_short_phone_on_the_own_turn(new_page, language) -> None:
    """375×667 upright, the own turn (no claim window): the line with "Round N" and the teams'
    levels was cut ~16 px by the own seat. It is whole in the felt, above the own seat, and
    the one screen still holds (every card, the play to beat, the buttons)."""
    page = new_page(375, 667)
    log_in_as(page, f"round_line_{language}", language, landing=None)
    open_started_table(page, claim_seconds=10, turn_seconds=60)
    show_phase(page, Table.objects.get(host__username=f"round_line_{language}"), your_turn)
    settle(page)
    shoot(page, f"round-line-{language}-375x667")
    _make, cards, shown = PHASES["turn"]
    found = page.evaluate(ROUND_LINE) + page.evaluate(WHOLE)
    found += page.evaluate(MEASURE, {"cards": cards, "shown": shown, "seats": 4})
    assert found == []


# Each seat's last step whole in its seat: its box and its word ("DESENGANCHE") inside the
# seat's edges, the word not cut. A word not drawn (a side seat's hook is its cards alone at
# 667 px) has nothing to run past.
PLAYS_INSIDE = """() => [...document.querySelectorAll('#seats .seat-play')].flatMap(play => {
  const seat = play.closest('.seat'), s = seat.getBoundingClientRect(), out = [];
  const word = play.querySelector('.kind, .passed');
  for (const [what, el] of [['play', play], ['word', word]]) {
    if (!el || !el.getClientRects().length) continue;
    const range = document.createRange();
    range.selectNodeContents(el);
    const r = what === 'word' ? range.getBoundingClientRect() : el.getBoundingClientRect();
    if (r.left < s.left - 0.5 || r.right > s.right + 0.5)
      out.push(`${seat.id}'s ${what} "${el.textContent.trim()}" (${Math.round(r.left)}-`
               + `${Math.round(r.right)}) runs past its seat (${Math.round(s.left)}-`
               + `${Math.round(s.right)})`);
  }
  if (word && word.scrollWidth > word.clientWidth + 1)
    out.push(`${seat.id}'s word "${word.textContent.trim()}" is cut`);
  return out;
})"""


@pytest.mark.parametrize("language", ["en", "es", "id", "vi"])
def test_the_round_line_is_whole_in_a_window_on_the_own_unhook(new_page, language) -> None:
    """375×667 upright and 740×375 on its side, a claim window on the own seat's unhook: the
    round line ("Round N" and the levels) was cut by the own seat (es, id, vi upright; es, id on
    its side) and the Spanish "DESENGANCHE" ran past the own seat's edge. The round line is
    whole above the own seat, each seat's play and its word inside its seat."""
    page = new_page(375, 667)
    log_in_as(page, f"unhook_line_{language}", language, landing=None)
    open_started_table(page, claim_seconds=10, turn_seconds=60)
    show_phase(page, Table.objects.get(host__username=f"unhook_line_{language}"), own_unhook_window)
    expect(page.locator("#seats .seat.me .seat-play.kind-unhook")).to_have_count(1)
    problems = {}
    for width, height in ((375, 667), (740, 375)):
        page.set_viewport_size({"width": width, "height": height})
        settle(page)
        shoot(page, f"own-unhook-{language}-{width}x{height}")
        found = page.evaluate(ROUND_LINE) + page.evaluate(PLAYS_INSIDE) + page.evaluate(WHOLE)
        if found:
            problems[f"{width}x{height}"] = found
    assert not problems, "\n".join(f"{k}: {v[:6]}" for k, v in problems.items())
