"""What the felt shows over what at the table page: a notice (a refusal, the chat's "Too many
messages", the offline notice) never over the own seat (its name, its "to play" marker, its last
play) nor the hand's buttons, at every size; and at a round's end the result, its "Next round"
seconds and the own seat each whole, none over another, with the round's tribute box above them
and a long table name in the header (a fresh tester's walk at 1280×800: the refusal hid the
own seat, the result ran under it).

Screenshots (``make screenshots``): felt-room/<what>-<width>x<height>.png.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.models import Table

from .helpers import log_in_as, open_started_table, screenshot
from .measures import problems_at_sizes
from .phases import ONE_SCREEN_SIZES, settle, show_phase, tribute_round_over, your_turn

pytestmark = pytest.mark.django_db(transaction=True)

# The notice's box against the own seat's and each of ``covered``'s (by default the hand's
# buttons: Play, Pass, Hint, Clear and the sort buttons): no overlap at all. And the notice
# itself whole in the screen and on top where it shows (nothing over its middle).
HAND_BUTTONS = "#hand-actions button, .hand-sort button"
NOTICE_CLEAR = """(covered) => {
  const notice = document.querySelector('#flash .flash-message');
  if (!notice) return ['no notice'];
  const n = notice.getBoundingClientRect(), out = [];
  const at = r => [r.left, r.top, r.right, r.bottom].map(Math.round).join(',');
  if (n.width < 1 || n.left < -0.5 || n.top < -0.5 || n.right > innerWidth + 0.5
      || n.bottom > innerHeight + 0.5) out.push(`the notice is not wholly shown: ${at(n)}`);
  const hit = document.elementFromPoint((n.left + n.right) / 2, (n.top + n.bottom) / 2);
  if (!hit || !notice.contains(hit))
    out.push(`the notice is under ${hit ? (hit.id || hit.className || hit.tagName) : 'nothing'}`);
  const overlaps = r => r.width >= 1 && r.height >= 1 && n.left < r.right - 0.5
    && r.left < n.right - 0.5 && n.top < r.bottom - 0.5 && r.top < n.bottom - 0.5;
  const own = document.querySelector('#seats .seat.me').getBoundingClientRect();
  if (overlaps(own)) out.push(`the notice (${at(n)}) is over the own seat (${at(own)})`);
  for (const el of document.querySelectorAll(covered)) {
    const b = el.getBoundingClientRect();
    const name = el.id || el.textContent.trim();
    if (overlaps(b)) out.push(`the notice (${at(n)}) is over ${name} (${at(b)})`);
  }
  return out;
}"""


def refuse_a_play(page) -> None:
    """The selected cards (not a combination) are played: the refusal shows in #flash, a live
    region."""
    page.evaluate("() => window.club414.table.clearFlash()")
    page.click("#play-button")
    notice = page.locator("#flash .flash-message")
    expect(notice).to_contain_text("not a valid combination")


def test_a_refusal_covers_neither_the_own_seat_nor_the_hand_buttons(new_page) -> None:
    """The own turn, a play of two cards that are no combination, at every size of the one
    screen: the refusal shows whole and on top, in the live region, and over none of the own
    seat (its name, "to play", its last play) and the hand's buttons."""
    page = new_page(1280, 800)
    log_in_as(page, "notice_room", landing=None)
    open_started_table(page, claim_seconds=10, turn_seconds=60)
    show_phase(page, Table.objects.get(host__username="notice_room"), your_turn)
    cards = page.locator("#hand input[name=cards]")
    # The first and last cards of a sorted 27-card hand never form a combination together.
    for card in (cards.first, cards.last):
        page.locator(f"label[for='{card.get_attribute('id')}']").click()
    expect(page.locator("#flash")).to_have_attribute("aria-live", "polite")
    problems = {}
    for width, height in ONE_SCREEN_SIZES:
        page.set_viewport_size({"width": width, "height": height})
        settle(page)
        refuse_a_play(page)
        settle(page)
        screenshot(page, f"felt-room/refusal-{width}x{height}")
        found = page.evaluate(NOTICE_CLEAR, HAND_BUTTONS)
        if found:
            problems[f"{width}x{height}"] = found
    assert not problems, "\n".join(f"{k}: {v}" for k, v in problems.items())


def test_the_offline_notice_covers_neither_the_own_seat_nor_the_hand_buttons(new_page) -> None:
    """The network goes on the own turn (Vietnamese: the longest notice): the notice that the
    moves cannot be sent shows whole and on top at every size of the one screen, over none of
    the own seat and the hand's buttons (on a phone upright still just above the dock)."""
    page = new_page(1280, 800)
    log_in_as(page, "offline_room", "vi", landing=None)
    open_started_table(page, claim_seconds=10, turn_seconds=60)
    show_phase(page, Table.objects.get(host__username="offline_room"), your_turn)
    page.context.set_offline(True)
    try:
        expect(page.locator("#flash .offline-message")).to_be_visible(timeout=5_000)
        problems = {}
        for width, height in ONE_SCREEN_SIZES:
            page.set_viewport_size({"width": width, "height": height})
            settle(page)
            screenshot(page, f"felt-room/offline-vi-{width}x{height}")
            found = page.evaluate(NOTICE_CLEAR, HAND_BUTTONS)
            if found:
                problems[f"{width}x{height}"] = found
    finally:
        page.context.set_offline(False)
    assert not problems, "\n".join(f"{k}: {v}" for k, v in problems.items())


# On a phone also each card of the hand and the claim bar's buttons.
PHONE_COVERED = f"{HAND_BUTTONS}, #hand .hand-cards label, #claim-form button"


def test_a_refusal_on_a_phone_upright_covers_no_card_of_the_hand(new_page) -> None:
    """375×740 and 375×667, the own turn, a play that is no combination: the refusal sat just
    above the Play dock, over the hand's lowest row of cards, for the 8 s it shows (nothing
    there could be seen or picked). It shows whole and on top, over no card of the hand and none
    of its buttons, nor the own seat."""
    page = new_page(375, 740)
    log_in_as(page, "notice_phone", landing=None)
    open_started_table(page, claim_seconds=10, turn_seconds=60)
    show_phase(page, Table.objects.get(host__username="notice_phone"), your_turn)
    cards = page.locator("#hand input[name=cards]")
    # The first and last cards of a sorted 27-card hand never form a combination together.
    for card in (cards.first, cards.last):
        page.locator(f"label[for='{card.get_attribute('id')}']").click()

    def refused(p) -> list[str]:
        refuse_a_play(p)
        settle(p)
        screenshot(p, f"felt-room/refusal-phone-{p.viewport_size['height']}")
        return p.evaluate(NOTICE_CLEAR, PHONE_COVERED)

    problems = problems_at_sizes(page, ((375, 740), (375, 667)), "felt-room/phone", refused)
    assert not problems, problems


# The round's result, its "Next round" seconds and the own seat: each whole in the screen and
# in the felt's middle (which hides what runs past it), none over another, each on top where it
# shows (its middle not under another part).
RESULT_CLEAR = """() => {
  const out = [], at = r => [r.left, r.top, r.right, r.bottom].map(Math.round).join(',');
  const centre = document.querySelector('.felt-centre').getBoundingClientRect();
  const parts = {result: document.querySelector('#result'),
                 countdown: document.querySelector('#result .countdown'),
                 'own seat': document.querySelector('#seats .seat.me')};
  const boxes = {};
  for (const [what, el] of Object.entries(parts)) {
    const r = el && el.getBoundingClientRect();
    if (!r || r.height < 1) { out.push(`the ${what} is not shown`); continue; }
    boxes[what] = r;
    if (r.top < -0.5 || r.left < -0.5 || r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5)
      out.push(`the ${what} (${at(r)}) is not wholly in the screen`);
    if (what !== 'own seat' && (r.top < centre.top - 0.5 || r.bottom > centre.bottom + 0.5))
      out.push(`the ${what} (${at(r)}) is cut by the felt's middle (${at(centre)})`);
    const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
    const over = hit ? (hit.id || hit.className || hit.tagName) : 'nothing';
    if (!hit || !el.contains(hit)) out.push(`the ${what} is under ${over}`);
  }
  const own = boxes['own seat'];
  for (const what of ['result', 'countdown']) {
    const r = boxes[what];
    if (r && own && r.left < own.right && own.left < r.right && r.top < own.bottom - 0.5
        && own.top < r.bottom - 0.5)
      out.push(`the ${what} (${at(r)}) runs under the own seat (${at(own)})`);
  }
  return out;
}"""

#: A long table name, as a tester's: the header's line, the result's lines under the tribute.
LONG_TABLE = "Ñandú " + "W" * 44


def test_the_round_result_its_seconds_and_the_own_seat_all_show(new_page) -> None:
    """The end of round 2 of a quick match to 3 (a fresh tester's walk at 1280×800): the round's
    tribute box, then "Team 1 wins the round" with its two reasons; the own seat, out second,
    under them. The result ran under the own seat, its "Next round" seconds cut. At 1280×800
    and 1366×768 the result, its seconds and the own seat are each whole and apart."""
    page = new_page(1280, 800)
    log_in_as(page, "result_room", landing=None)
    open_started_table(page, claim_seconds=8, turn_seconds=60, name=LONG_TABLE)
    table = Table.objects.get(host__username="result_room")
    Table.objects.filter(pk=table.pk).update(options={**table.options, "target_level": "3"})
    table.refresh_from_db()
    show_phase(page, table, tribute_round_over)
    expect(page.locator("#result-explained li")).to_have_count(2)
    expect(page.locator("#result-explained")).to_contain_text("No level change")
    expect(page.locator("#tribute li")).to_have_count(2)
    problems = problems_at_sizes(
        page,
        ((1280, 800), (1366, 768)),
        "felt-room/tribute-result",
        lambda p: p.evaluate(RESULT_CLEAR),
    )
    assert not problems, "\n".join(f"{k}: {v}" for k, v in problems.items())
