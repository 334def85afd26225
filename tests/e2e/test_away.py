"""A player's page goes away mid-match (games.live.away): bo closes his tab, and a few seconds
later ana's page marks his seat "disconnected", whole by his name, at 1280x800 and on a phone
(375x667, and on its side: 740x375); he opens the table again and the mark goes. Screenshots (``make
screenshots``): away/<what>.png."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .helpers import log_in_as, screenshot, start_with_a_guest
from .phases import settle

pytestmark = pytest.mark.django_db(transaction=True)

# Seat 1's "disconnected": shown, whole on one line, inside its seat, not covered; its name
# still shown beside it.
SIGN = """() => {
  const sign = document.querySelector('#away-1'), out = [];
  if (!sign) return ['no sign'];
  const seat = sign.closest('.seat'), r = sign.getBoundingClientRect();
  const s = seat.getBoundingClientRect();
  const name = seat.querySelector('.name').getBoundingClientRect();
  const line = parseFloat(getComputedStyle(sign).lineHeight) || 20;
  if (r.width < 1) out.push('the sign is not shown');
  if (sign.scrollWidth > sign.clientWidth + 1) out.push(`the sign is cut: ${sign.scrollWidth} px`
                                                        + ` in ${sign.clientWidth} px`);
  if (Math.round(r.height / line) > 1) out.push('the sign wraps');
  const row = sign.closest('.seat-name').getBoundingClientRect();
  if (r.left < s.left - 0.5 || r.right > Math.min(s.right, row.right) + 0.5)
    out.push('the sign runs out of its seat or its line');
  for (const x of [r.left + 2, r.left + r.width / 2, r.right - 2]) {
    const hit = document.elementFromPoint(x, r.top + r.height / 2);
    if (!hit || !sign.contains(hit)) out.push(`the sign is covered by ${hit && hit.className}`);
  }
  if (name.width < 20) out.push(`the name is ${Math.round(name.width)} px`);
  return out;
}"""


def test_a_closed_page_is_marked_on_its_seat_until_it_is_back(new_page):
    ana, bo = new_page(1280, 800), new_page()
    log_in_as(ana, "ana_away")
    log_in_as(bo, "bo_away")
    url = start_with_a_guest(ana, bo, "Away table", fields={"#id_turn_seconds": "120"})
    expect(ana.locator("#away-1")).to_have_count(0)
    bo_context = bo.context
    bo.close()  # bo's tab is gone: after the grace (5 s) every page marks his seat
    sign = ana.locator("#away-1")
    expect(sign).to_be_visible(timeout=20_000)
    expect(sign).to_have_text("disconnected")
    expect(ana.locator("#away-0, #away-2, #away-3")).to_have_count(0)  # ana's, and the AI's
    for width, height in ((1280, 800), (375, 667), (740, 375)):
        ana.set_viewport_size({"width": width, "height": height})
        settle(ana)
        screenshot(ana, f"away/seat-marked-{width}x{height}")
        assert ana.evaluate(SIGN) == [], (width, height)
    bo = bo_context.new_page()  # bo is back: same browser, same session
    bo.goto(url)
    expect(bo.locator("#hand-form")).to_be_visible()
    expect(ana.locator("#away-1")).to_have_count(0)
    expect(bo.locator("#away-1")).to_have_count(0)
    screenshot(ana, "away/seat-back-375x667")
