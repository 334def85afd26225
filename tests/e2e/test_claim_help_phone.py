"""A new player's first claim windows on a phone, as a fresh tester met them at 375×740: what
they can do now ("You can unhook with your 3♥") read at a glance, and the window owner's
"claimable" whole.

The help's box was about 64 px high and put its explanation first: the line naming the
player's own claim sat below the box's edge, a scroll away, in a window that lasts a few
seconds. And beside a side seat's hook the owner's "claimable" broke inside the word
("claimab / le").

Screenshots (``make screenshots``): claim-help/<language>-<case>-<size>.png.
"""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import expect

from games.engine.deal import new_match
from games.engine.rules import legal_actions
from games.engine.simulate import step
from games.engine.state import PLAY, WINDOW, State
from games.models import Table

from .helpers import log_in_as, open_started_table, screenshot
from .measures import WORDS_WHOLE
from .phases import (
    _policies,
    early_claim_window,
    own_unhook_window,
    partner_window,
    settle,
    show_phase,
    unhook_window,
)

pytestmark = pytest.mark.django_db(transaction=True)

LANGUAGES = ["en", "es", "id", "vi"]
SIZES = [(375, 740), (375, 667), (740, 375)]

# The help's line naming the viewer's own claim (or that they hold none) fully inside the part
# of the help's box in view, its box not scrolled (a window lasts seconds: nobody scrolls it),
# above the faded lower edge the box wears while its text goes on below it, inside the
# viewport and itself where it shows (nothing over it).
YOURS_IN_VIEW = """() => {
  const out = [], help = document.getElementById('claim-help');
  const yours = document.getElementById('claim-help-yours');
  if (!help || !yours) return ['no claim help with its own line'];
  help.scrollTop = 0;
  help.dispatchEvent(new Event('scroll'));
  const box = help.getBoundingClientRect(), style = getComputedStyle(help);
  const top = box.top + help.clientTop;
  let bottom = top + help.clientHeight;
  const mask = style.maskImage || style.webkitMaskImage || '';
  if (mask.includes('gradient')) {
    const fade = style.getPropertyValue('--fade').trim();
    const rem = parseFloat(getComputedStyle(document.documentElement).fontSize);
    bottom -= fade.endsWith('rem') ? parseFloat(fade) * rem : parseFloat(fade) || 0;
  }
  const range = document.createRange();
  range.selectNodeContents(yours);
  const lines = [...range.getClientRects()].filter(r => r.width > 1 && r.height > 1);
  if (!lines.length) return [`"${yours.textContent.trim()}" is not shown`];
  const text = yours.textContent.trim();
  // The paragraph's box is its lines' boxes (a font's content area may stand a pixel above a
  // line set tighter than it, with no ink there): wholly in the clear part of the help's box.
  const p = yours.getBoundingClientRect();
  if (p.top < top - 0.5 || p.bottom > bottom + 0.5)
    out.push(`"${text}" (${Math.round(p.top)}-${Math.round(p.bottom)}, ${lines.length} lines) `
             + `is not in the box's clear part ${Math.round(top)}-${Math.round(bottom)}`);
  for (const [i, r] of lines.entries()) {
    if (r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5 || r.left < -0.5) {
      out.push(`line ${i + 1} of "${text}" is outside the viewport`);
      continue;
    }
    const x = r.left + Math.min(8, r.width / 2), hit = document.elementFromPoint(x, r.top + 7);
    if (!hit || !yours.contains(hit))
      out.push(`line ${i + 1} of "${text}" is covered by `
               + (hit ? (hit.id || hit.className || hit.tagName) : 'nothing'));
  }
  return out;
}"""


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_help_says_what_the_player_can_do_without_scrolling(new_page, language) -> None:
    """A hook and an unhook window with the first windows' help, at 375×740, 375×667 and
    740×375: the line naming the player's own hook or unhook reads whole in the help's box as
    it opens, no scrolling, above its faded edge."""
    page = new_page(375, 740)
    username = f"yours_{language}"
    log_in_as(page, username, language, landing=None)
    open_started_table(page, claim_seconds=10, turn_seconds=60)
    table = Table.objects.get(host__username=username)
    problems = {}
    for case, make in (("hook", early_claim_window), ("unhook", unhook_window)):
        page.set_viewport_size({"width": 375, "height": 740})
        show_phase(page, table, make)
        expect(page.locator("#claim-help")).to_have_count(1)
        expect(page.locator("#claim-button")).to_have_attribute("value", case)
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            settle(page)
            what = f"{case}-{width}x{height}"
            screenshot(page, f"claim-help/{language}-{what}")
            found = page.evaluate(YOURS_IN_VIEW)
            if found:
                problems[what] = found
    assert not problems, "\n".join(f"{k}: {v}" for k, v in problems.items())


def side_unhook_window(options) -> State:
    """A claim window on a side seat's (1 or 3) hook, seat 0 holding 20 cards or more: that
    seat shows its hook's word and cards beside its count and the window's "claimable"."""
    for seed in range(400):
        state, rng = new_match(options, seed), random.Random(seed)
        for _ in range(400):
            if len(state.hands[0]) < 20 or state.phase not in (PLAY, WINDOW):
                break
            window = state.window
            if (
                state.phase == WINDOW
                and window is not None
                and window.owner in (1, 3)
                and window.mode == "unhook"
                and window.answers[0] is None
                and legal_actions(state, 0)
            ):
                return state
            state, _ = step(state, _policies(), rng)
    raise AssertionError("no window on a side seat's hook while seat 0 holds 20 cards")


# The owner's pill whole: its text not cut (no ellipsis, nothing clipped) and inside the seat.
MARKER_WHOLE = """() => {
  const out = [];
  for (const el of document.querySelectorAll('#seats .seat-info .owner-marker')) {
    const r = el.getBoundingClientRect();
    if (r.width < 1) continue;
    const range = document.createRange();
    range.selectNodeContents(el);
    const t = range.getBoundingClientRect();
    if (el.scrollWidth > el.clientWidth + 1 || t.right > r.right + 0.5 || t.left < r.left - 0.5)
      out.push(`"${el.textContent.trim()}" is cut: ${Math.round(t.width)} px in `
               + `${el.clientWidth}`);
  }
  return out;
}"""


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_claimable_pill_stays_whole_on_a_phone(new_page, language) -> None:
    """A window on a side seat's hook, on the partner's single, on the own unhook, at 375×740,
    375×667 and 740×375: the owner's "claimable" never breaks inside a word, nor is cut."""
    page = new_page(375, 740)
    username = f"pill_{language}"
    log_in_as(page, username, language, landing=None)
    open_started_table(page, claim_seconds=10, turn_seconds=60)
    table = Table.objects.get(host__username=username)
    problems = {}
    cases = (("side", side_unhook_window), ("partner", partner_window), ("own", own_unhook_window))
    for case, make in cases:
        page.set_viewport_size({"width": 375, "height": 740})
        show_phase(page, table, make)
        expect(page.locator("#seats .owner-marker")).to_have_count(1)
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            settle(page)
            what = f"{case}-{width}x{height}"
            screenshot(page, f"claim-help/{language}-pill-{what}")
            found = page.evaluate(WORDS_WHOLE, "#seats .seat-info .owner-marker")
            found += page.evaluate(MARKER_WHOLE)
            if found:
                problems[what] = found
    assert not problems, "\n".join(f"{k}: {v}" for k, v in problems.items())
