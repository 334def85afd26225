"""A claim window on a phone, as a new player meets it: the claim bar's question, its seconds and
its Hook (or Unhook) and Pass whole, nothing over them, and the card the window is on in view,
in every language, with and without the first windows' help, with a hand of 20 cards or more.

A tester at 375×667 found what the earlier tests (test_phone_overlays, test_one_screen) did not:
they met a hook on an AI seat's short name, whose question shares its line with the seconds.
A window on a person's play ("¿Enganchar el 3 de alice_t?") or an unhook ("¿Desenganchar el 3
de IA 2?") puts the seconds on a second line, and the bar, fixed at one height, ran its buttons
half under the dock's Play, Hint and Clear. A window on the partner's play put the partner's
seat on one line beside its "claimable", its card squeezed out, and the felt's middle (the play
to beat, the round) to a thin line. The help's box ended mid-sentence with nothing saying that
it scrolls. At 1280×800 a long table name cut the table's options (the turn's seconds, casual
or rated) in Indonesian and Vietnamese.

Screenshots (``make screenshots``): claim-bar/<language>-<case>-<help>-<size>.png,
claim-bar/head-<language>-1280x800.png.
"""

from __future__ import annotations

import pytest
from django.db.models import F
from playwright.sync_api import expect

from accounts.models import User
from games.live.claim_help import EXPLAINED_WINDOWS
from games.models import Seat, Table

from .helpers import log_in_as, open_started_table, screenshot
from .measures import COUNTDOWN_SECONDS, MEASURE, WHOLE
from .phases import (
    early_claim_window,
    partner_window,
    settle,
    show_phase,
    unhook_window,
)
from .test_phone_overlays import CONTROLS_WHOLE, HELP_LINES_WHOLE, HELP_READABLE

pytestmark = pytest.mark.django_db(transaction=True)

LANGUAGES = ["en", "es", "id", "vi"]
SIZES = [(375, 667), (375, 740), (740, 375)]
#: Seat 3's person (the other seats are AI players): a window on their play asks a question as
#: long as a real table's ("¿Enganchar el 3 de alice_tester?"), not "AI 4"'s.
OPPONENT = "alice_tester"


# The claim bar whole and its own: inside the viewport, above the hand's dock (never under it),
# its question whole (no ellipsis, every line inside the bar), each button whole inside the bar
# and itself at its centre and near its lower edge (elementFromPoint: nothing fixed over it).
CLAIM_BAR_WHOLE = """() => {
  const out = [], W = innerWidth, H = innerHeight;
  const bar = document.getElementById('claim-bar');
  const b = bar && bar.getBoundingClientRect();
  if (!b || b.height < 1) return ['no claim bar shown'];
  const at = r => `${Math.round(r.left)},${Math.round(r.top)}-${Math.round(r.right)},`
                  + `${Math.round(r.bottom)}`;
  if (b.top < -0.5 || b.bottom > H + 0.5 || b.left < -0.5 || b.right > W + 0.5)
    out.push(`the claim bar is outside the ${W}x${H} viewport: ${at(b)}`);
  const dock = document.getElementById('hand-actions');
  if (dock && !dock.hidden && getComputedStyle(dock).display !== 'none') {
    const d = dock.getBoundingClientRect();
    if (b.bottom > d.top + 0.5 && b.top < d.bottom - 0.5 && b.right > d.left && b.left < d.right)
      out.push(`the claim bar (${at(b)}) runs under the hand's buttons (${at(d)})`);
  }
  const title = bar.querySelector('.claim-title'), range = document.createRange();
  range.selectNodeContents(title);
  for (const r of range.getClientRects()) {
    if (r.width < 1) continue;
    if (r.top < b.top - 0.5 || r.bottom > b.bottom + 0.5 || r.left < b.left - 0.5
        || r.right > Math.min(b.right, W) + 0.5)
      out.push(`a line of the question is outside the bar: ${at(r)} in ${at(b)}`);
  }
  if (title.scrollWidth > title.clientWidth + 1)
    out.push(`the question "${title.textContent.trim()}" is cut`);
  for (const id of ['claim-button', 'claim-pass-button']) {
    const el = document.getElementById(id);
    if (!el) { out.push(`no #${id}`); continue; }
    const r = el.getBoundingClientRect();
    if (r.height < 1) { out.push(`#${id} is not shown`); continue; }
    if (r.top < b.top - 0.5 || r.bottom > b.bottom + 0.5)
      out.push(`#${id} (${at(r)}) runs out of the claim bar (${at(b)})`);
    for (const [x, y] of [[r.left + r.width / 2, r.top + r.height / 2],
                          [r.left + r.width / 2, r.bottom - 3]]) {
      const hit = document.elementFromPoint(x, y);
      if (!hit || !(hit === el || el.contains(hit)))
        out.push(`#${id} is covered at ${Math.round(x)},${Math.round(y)} by `
                 + (hit ? (hit.id || hit.className || hit.tagName) : 'nothing'));
    }
  }
  return out;
}"""

# The play to beat (the card the window is on) in view: each of its cards whole inside the
# felt's middle, at least 20 px tall, and itself at its centre (no seat over it).
TOP_PLAY_SHOWN = """() => {
  const out = [], centre = document.querySelector('.felt-centre').getBoundingClientRect();
  const cards = document.querySelectorAll('#status .top-play .playing-card');
  if (!cards.length) out.push('no play to beat in the status');
  for (const card of cards) {
    const r = card.getBoundingClientRect(), name = `the play to beat's ${card.textContent.trim()}`;
    if (r.height < 20) { out.push(`${name} is ${Math.round(r.height)} px tall`); continue; }
    if (r.top < centre.top - 0.5 || r.bottom > centre.bottom + 0.5)
      out.push(`${name} is cut: ${Math.round(r.top)}-${Math.round(r.bottom)} in the middle's `
               + `${Math.round(centre.top)}-${Math.round(centre.bottom)}`);
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!hit || !card.contains(hit))
      out.push(`${name} is covered by `
               + (hit ? (hit.id || hit.className || hit.tagName) : 'nothing'));
  }
  return out;
}"""

# While the help's text goes on below its box, the box says so: its lower edge fades out
# (a mask), and once scrolled to its end it no longer does (the last line reads whole).
HELP_SCROLL_CUE = """() => {
  const out = [], help = document.getElementById('claim-help');
  if (!help) return ['no claim help'];
  const faded = () => {
    const m = getComputedStyle(help).maskImage || getComputedStyle(help).webkitMaskImage || '';
    return m.includes('gradient');
  };
  help.scrollTop = 0;
  help.dispatchEvent(new Event('scroll'));
  const more = help.scrollHeight > help.clientHeight + 1;
  if (more && !faded()) out.push(`the help goes on below its box (${help.scrollHeight} px in `
                                 + `${help.clientHeight}) with nothing to say so`);
  if (!more && faded()) out.push('the help fits its box, yet its edge fades');
  if (more) {
    help.scrollTop = help.scrollHeight;
    help.dispatchEvent(new Event('scroll'));
    if (faded()) out.push('scrolled to its end, the help still fades its last line');
    help.scrollTop = 0;
    help.dispatchEvent(new Event('scroll'));
  }
  return out;
}"""


def measure(page, cards: int, upright: bool, helped: bool) -> list[str]:
    found = page.evaluate(CLAIM_BAR_WHOLE) + page.evaluate(COUNTDOWN_SECONDS)
    found += page.evaluate(TOP_PLAY_SHOWN)
    if upright:  # on its side the round's line is another change's (the own seat's row)
        found += page.evaluate(WHOLE)
    need = {"cards": cards, "shown": ["#claim-button", "#claim-pass-button"], "seats": 4}
    found += page.evaluate(MEASURE, need)
    controls = ["#claim-button", "#claim-pass-button"] + (["#claim-help-done"] if helped else [])
    found += page.evaluate(CONTROLS_WHOLE, controls)
    if helped:
        found += page.evaluate(HELP_SCROLL_CUE)
        if upright:
            found += page.evaluate(HELP_LINES_WHOLE) + page.evaluate(HELP_READABLE)
    return found


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_claim_window_keeps_its_bar_and_its_card_whole_on_a_phone(new_page, language):
    """A window on the partner's (a person's) single and an unhook on an AI seat's hook, each
    with the help and without it, at 375×667, 375×740 and 740×375: the question, its seconds,
    Hook/Unhook and Pass whole and clickable above the dock, the play to beat whole in the
    felt's middle, the help's box whole lines that say when they scroll."""
    page = new_page(375, 667)
    username = f"bar_{language}"
    log_in_as(page, username, language, landing=None)
    open_started_table(page, claim_seconds=10, turn_seconds=60)
    table = Table.objects.get(host__username=username)
    opponent = User.objects.create_user(username=OPPONENT, password="x" * 20)
    Seat.objects.filter(table=table, number=3).update(user=opponent, ai_policy="")
    Table.objects.filter(pk=table.pk).update(revision=F("revision") + 1)
    problems = {}
    cases = (("partner", partner_window), ("unhook", unhook_window), ("person", early_claim_window))
    for case, make in cases:
        for helped in (True, False):
            explained = 0 if helped else EXPLAINED_WINDOWS
            User.objects.filter(username=username).update(claim_windows_explained=explained)
            page.set_viewport_size({"width": 375, "height": 667})
            state = show_phase(page, table, make)
            expect(page.locator("#claim-help")).to_have_count(1 if helped else 0)
            expect(page.locator("#claim-button")).to_have_attribute(
                "value", "unhook" if case == "unhook" else "hook"
            )
            for width, height in SIZES:
                page.set_viewport_size({"width": width, "height": height})
                settle(page)
                what = f"{case}-{'help' if helped else 'plain'}-{width}x{height}"
                screenshot(page, f"claim-bar/{language}-{what}")
                found = measure(page, len(state.hands[0]), width < height, helped)
                if found:
                    problems[what] = found
    assert not problems, "\n".join(f"{k}: {v[:6]}" for k, v in problems.items())


# The table's head: its options line whole (no ellipsis) beside or under the table's name.
HEAD_OPTIONS_WHOLE = """() => {
  const out = [], head = document.querySelector('.table-head');
  const options = head.querySelector(':scope > .muted'), h1 = head.querySelector('h1');
  const r = options.getBoundingClientRect();
  if (r.width < 1) return ['the options line is not shown'];
  const range = document.createRange();
  range.selectNodeContents(options);
  const text = range.getBoundingClientRect();
  if (options.scrollWidth > options.clientWidth + 1 || text.right > r.right + 0.01)
    out.push(`the options line is cut: ${Math.round(text.width)} px of text in `
             + `${options.clientWidth}`);
  if (r.right > innerWidth + 0.5) out.push(`the options line runs out of the screen: ${r.right}`);
  if (h1.scrollWidth > h1.clientWidth + 1 && h1.title !== h1.textContent.trim())
    out.push('the name is cut without its full text');
  return out;
}"""


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_long_table_name_leaves_the_options_whole_at_1280(new_page, language) -> None:
    """1280×800, a table with a long name: its options line (host, match, claim window, turn,
    casual or rated) was cut after the claim window in Indonesian and Vietnamese; the name
    gives way (an ellipsis, its title whole) and the options read whole."""
    page = new_page(1280, 800)
    username = f"head_{language}"
    log_in_as(page, username, language, landing=None)
    long_name = "Mesa de prueba — a very long table name that goes on and on and on to the end"
    open_started_table(page, claim_seconds=10, turn_seconds=60, name=long_name)
    settle(page)
    screenshot(page, f"claim-bar/head-{language}-1280x800")
    assert page.evaluate(HEAD_OPTIONS_WHOLE) == []
