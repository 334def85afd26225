"""Details a new user met at 375 px, in each of the site's languages: an AI seat's badge went
under the team's badge beside a side seat's play of three cards; another seat's "away: the AI
plays" wrapped onto four lines in Indonesian. Each reads whole, on its line.

Screenshots (``make screenshots``): phone-details/<what>-<language>.png.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from accounts.models import User
from games.models import Seat, Table

from .helpers import PASSWORD, log_in_as, open_started_table, screenshot
from .phases import WHOLE, settle, show_phase, side_triple

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
    settle(page)
    screenshot(page, f"phone-details/seats-{language}")
    assert page.evaluate(SEAT_DETAILS) == []
    assert page.evaluate(WHOLE) == []
