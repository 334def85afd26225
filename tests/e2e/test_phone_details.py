"""Details a new user met at 375 px, in each of the site's languages: an AI seat's badge went
under the team's badge beside a side seat's play of three cards; another seat's "away: the AI
plays" wrapped onto four lines in Indonesian; the replay cut every AI seat's name to "AI 2…";
the create-table form's drop-downs cut their longer choices off; after the match the table's
name and rules were cut to "h.". Each reads whole, on its line.

Screenshots (``make screenshots``): phone-details/<what>-<language>.png.
"""

from __future__ import annotations

from functools import partial

import pytest
from playwright.sync_api import expect

from accounts.models import User
from games.engine.state import MATCH_OVER
from games.models import Seat, Table

from .helpers import (
    PASSWORD,
    SELECTS_CUT,
    log_in_as,
    log_in_user,
    open_started_table,
    screenshot,
)
from .measures import MEASURE, SHORT_NAMES, WHOLE
from .phases import (
    answered_window,
    claim_window,
    install_match_over,
    own_unhook_window,
    round_over,
    settle,
    show_phase,
    side_triple,
)

pytestmark = pytest.mark.django_db(transaction=True)

LANGUAGES = ["en", "es", "id", "vi"]

# Each AI seat's badge on the felt: shown, whole, on one line, itself at its middle (no team
# badge over it); and the "away" marker of another seat: on one line, inside its seat.
SEAT_DETAILS = """() => {
  const out = [];
  for (const badge of document.querySelectorAll('#seats .seat .badge.ai')) {
    const seat = badge.closest('.seat'), r = badge.getBoundingClientRect();
    const row = badge.closest('.seat-name').getBoundingClientRect();
    const line = parseFloat(getComputedStyle(badge).lineHeight) || 20;
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (r.width < 1) out.push(`${seat.id}'s AI badge is not shown`);
    else if (badge.scrollWidth > badge.clientWidth + 1 || r.right > row.right + 0.5
             || !hit || !badge.contains(hit))
      out.push(`${seat.id}'s AI badge is cut or covered by ${hit && (hit.id || hit.className)}`);
    else if (Math.round(r.height / line) > 1) out.push(`${seat.id}'s AI badge wraps`);
  }
  for (const marker of document.querySelectorAll('#seats .seat:not(.me) .stand-in-marker')) {
    const seat = marker.closest('.seat'), r = marker.getBoundingClientRect();
    const count = seat.querySelector('.card-count').getBoundingClientRect();
    const s = seat.getBoundingClientRect();
    if (r.height > count.height * 1.4)
      out.push(`${seat.id}'s "away" takes ${Math.round(r.height)} px (a line: ${count.height})`);
    if (r.left < s.left - 0.5 || r.right > s.right + 0.5)
      out.push(`${seat.id}'s "away" runs out of its seat`);
  }
  return out;
}"""


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_side_seats_badges_and_away_marker_stay_whole(new_page, language) -> None:
    page = new_page(375, 740)
    log_in_as(page, f"details_{language}", language, landing=None)
    open_started_table(page, claim_seconds=0, turn_seconds=60)
    table = Table.objects.get(host__username=f"details_{language}")
    # Seat 1 is a friend who stepped away: the AI plays for them meanwhile.
    away = User.objects.create_user(f"away_{language}", password=PASSWORD)
    Seat.objects.filter(table=table, number=1).update(user=away, stand_in=Seat.StandIn.ASKED)
    show_phase(page, table, side_triple)
    expect(page.locator("#stand-in-1")).to_be_visible()
    expect(page.locator("#seats .seat:is(.pos-1, .pos-3) .seat-play .playing-card")).to_have_count(
        3
    )
    for width, height in ((375, 740), (740, 375)):
        page.set_viewport_size({"width": width, "height": height})
        settle(page)
        screenshot(page, f"phone-details/seats-{language}-{width}x{height}")
        assert page.evaluate(SEAT_DETAILS) == [], (width, height)
        assert page.evaluate(WHOLE) == [], (width, height)


# Each seat of the replay: its name and badges whole on their line, the AI badge in view.
REPLAY_SEATS = """() => [...document.querySelectorAll('.replay .seat')].flatMap(seat => {
  const row = seat.querySelector('.seat-name'), r = row.getBoundingClientRect();
  const out = [];
  if (row.scrollWidth > row.clientWidth + 1)
    out.push(`${seat.id}: "${row.textContent.trim()}" is cut: ${row.scrollWidth} px`
             + ` in ${row.clientWidth} px`);
  for (const badge of row.querySelectorAll('.badge')) {
    const b = badge.getBoundingClientRect();
    if (b.width < 1 || b.right > r.right + 0.5)
      out.push(`${seat.id}'s ${badge.className} is hidden`);
  }
  return out;
})"""


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_replay_names_every_seat_whole_on_a_phone(new_page, replayed_match, language) -> None:
    host, match = replayed_match
    page = new_page(375, 740)
    log_in_user(page, host, language, landing=None)
    page.goto(f"/matches/{match.pk}/replay/?step=1")
    expect(page.locator(".replay .seat")).to_have_count(4)
    screenshot(page, f"phone-details/replay-{language}")
    assert page.evaluate(REPLAY_SEATS) == []
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= 375


# Each radio button's answer and each checkbox's words of the form inside the screen.
FORM_LABELS = """() => [...document.querySelectorAll('#create-table-form label')]
  .filter(label => { const r = label.getBoundingClientRect();
    return r.width > 1 && (r.left < -0.5 || r.right > innerWidth + 0.5); })
  .map(label => `"${label.textContent.trim()}" runs out of the screen`)"""


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_create_table_form_shows_every_choice_whole_on_a_phone(new_page, language) -> None:
    page = new_page(375, 740)
    log_in_as(page, f"creator_{language}", language)
    page.goto("/tables/new/")
    page.click("#create-table-form details.advanced summary")
    screenshot(page, f"phone-details/create-table-{language}", full_page=True)
    assert page.evaluate(SELECTS_CUT, "#create-table-form select") == []
    assert page.evaluate(FORM_LABELS) == []
    assert page.evaluate("() => document.scrollingElement.scrollWidth") <= 375
    # The choices still make the table: the other answer to "Where 2 ranks" is taken.
    page.locator("input[name=two_position][value=high]").check()
    page.click("#create-table-form button[type=submit]")
    expect(page.locator("#seats")).to_be_visible()
    assert Table.objects.get(host__username=f"creator_{language}").options["two_position"] == (
        "high"
    )


# The table's name and the host's line above the felt: shown and not cut (no ellipsis).
HEAD_WHOLE = """() => [...document.querySelectorAll('.table-head > :is(h1, .muted)')]
  .filter(e => e.getBoundingClientRect().width < 1 || e.scrollWidth > e.clientWidth + 1)
  .map(e => `${e.tagName} "${e.textContent.trim()}" is cut`)"""


@pytest.mark.parametrize("language", ["en", "vi"])
def test_after_the_match_the_table_s_name_and_rules_read_whole(new_page, language) -> None:
    """After the match a phone's page scrolls as any page: the name and the host's line above
    the felt are whole (they were one line cut to "Rematch tab…" and "h.")."""
    page = new_page(375, 740)
    log_in_as(page, f"head_{language}", language, landing=None)
    open_started_table(page, claim_seconds=0, turn_seconds=60)
    table = Table.objects.get(host__username=f"head_{language}")
    Table.objects.filter(pk=table.pk).update(name="Friday night at the club, table two")
    install_match_over(table)
    page.reload()
    expect(page.locator("#status")).to_have_attribute("data-phase", MATCH_OVER)
    settle(page)
    screenshot(page, f"phone-details/match-over-head-{language}")
    assert page.evaluate(HEAD_WHOLE) == []


# The round's result in the column of a phone on its side: whole in its box (no part below an
# edge with nothing to say so), the next round's seconds in it.
RESULT_WHOLE = """() => {
  const out = [], result = document.getElementById('result'), r = result.getBoundingClientRect();
  if (result.scrollHeight > result.clientHeight + 1)
    out.push(`the result is cut: ${result.scrollHeight} px in ${result.clientHeight} px`);
  const countdown = result.querySelector('.countdown');
  const c = countdown && countdown.getBoundingClientRect();
  if (!c || c.height < 1) out.push('no countdown in the result');
  else if (c.top < r.top - 0.5 || c.bottom > r.bottom + 0.5 || c.bottom > innerHeight + 0.5)
    out.push(`the countdown is out of view: ${Math.round(c.top)}-${Math.round(c.bottom)}`);
  return out;
}"""


def test_a_phone_on_its_side_shows_names_status_and_result_whole_in_vietnamese(new_page) -> None:
    """740×375 in Vietnamese, four seats: both side seats read "Máy…" while the claim bar named
    "Máy 2" and "Máy 4"; after seat 0 unhooked, its seat covered the status's levels; at the
    round's end the result was cut after "Cấp" (levels), its countdown out of sight. The short
    names whole, the status whole above the own seat, the result whole with its seconds."""
    page = new_page(740, 375)
    log_in_as(page, "side_vi", "vi", landing=None)
    open_started_table(page, claim_seconds=5, turn_seconds=60)
    table = Table.objects.get(host__username="side_vi")
    problems = {}
    for name, make, shown in (
        ("window", claim_window, ["#claim-bar", "#claim-button", ".top-play"]),
        ("unhook", own_unhook_window, ["#claim-bar", ".top-play"]),
        ("round-over", round_over, ["#result", "#result h2"]),
    ):
        state = show_phase(page, table, make)
        settle(page)
        screenshot(page, f"phone-details/side-vi-{name}")
        found = page.evaluate(MEASURE, {"cards": len(state.hands[0]), "shown": shown, "seats": 4})
        found += page.evaluate(SHORT_NAMES)
        found += page.evaluate(RESULT_WHOLE if name == "round-over" else WHOLE)
        if found:
            problems[name] = found
    assert not problems, "\n".join(f"{k}: {v[:6]}" for k, v in problems.items())


def test_a_two_seat_table_shows_the_own_name_whole_on_a_phone(new_page) -> None:
    """375×740, two seats: the own seat, in the felt's narrow middle column, cut "qa_carol" to
    "qa_…" beside its team's badge. Both names read whole."""
    page = new_page(375, 740)
    log_in_as(page, "qa_carol", "es", landing=None)
    open_started_table(page, claim_seconds=0, turn_seconds=60, players=2)
    settle(page)
    screenshot(page, "phone-details/two-seats-375x740")
    assert page.evaluate(SHORT_NAMES) == []


# Each claim window's pill on a seat ("claimable", "✓ answered"): shown, on one line (no taller
# than the seat's card count) and whole (no ellipsis).
PILLS = """() => {
  const out = [];
  const pills = document.querySelectorAll('#seats .owner-marker, #seats .answered-marker');
  if (!pills.length) out.push('no pill on the seats');
  for (const pill of pills) {
    const seat = pill.closest('.seat'), r = pill.getBoundingClientRect();
    const line = seat.querySelector('.card-count').getBoundingClientRect().height;
    const name = `${seat.id}'s "${pill.textContent.trim()}"`;
    if (r.width < 1) out.push(`${name} is not shown`);
    else if (r.height > line * 1.4) out.push(`${name} wraps: ${Math.round(r.height)} px (a line: `
                                            + `${Math.round(line)})`);
    else if (pill.scrollWidth > pill.clientWidth + 1)
      out.push(`${name} is cut: ${pill.scrollWidth} px in ${pill.clientWidth}`);
  }
  return out;
}"""


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_claim_window_s_pills_keep_one_line(new_page, language) -> None:
    """A tester: "✓ answered" and the Spanish "se puede reclamar" wrapped onto two lines in
    their pills. In a claim window on another seat's play and on the own seat's, each pill
    reads whole on one line at 1280×800, 375×667 and 740×375."""
    page = new_page(1280, 800)
    log_in_as(page, f"pills_{language}", language, landing=None)
    open_started_table(page, claim_seconds=10, turn_seconds=60)
    table = Table.objects.get(host__username=f"pills_{language}")
    problems = {}
    for own in (False, True):
        show_phase(page, table, partial(answered_window, own=own))
        expect(page.locator("#seats .answered-marker").first).to_be_attached()
        expect(page.locator("#seats .owner-marker")).to_have_count(1)
        for width, height in ((1280, 800), (375, 667), (740, 375)):
            page.set_viewport_size({"width": width, "height": height})
            settle(page)
            what = f"{'own' if own else 'other'}-{width}x{height}"
            screenshot(page, f"phone-details/pills-{language}-{what}")
            found = page.evaluate(PILLS)
            if found:
                problems[what] = found
    assert not problems, "\n".join(f"{k}: {v[:6]}" for k, v in problems.items())
