"""The countdown bars count down on the page (static/js/table_countdown.js): the seconds the
server rendered go down with the page's own clock, and the bar's fill shrinks with them."""

from __future__ import annotations

import pytest

from games.models import Table

from .helpers import log_in_as, open_started_table
from .phases import claim_window, show_phase

pytestmark = pytest.mark.django_db(transaction=True)

SHOWN = """() => {
  const bar = document.querySelector('#claim-bar .countdown');
  const fill = bar && bar.querySelector('.countdown-fill');
  const seconds = bar && bar.querySelector('.countdown-seconds');
  return bar && fill && seconds
    ? {seconds: parseInt(seconds.textContent, 10), fill: parseFloat(fill.style.width || '100')}
    : null;
}"""


def test_a_claim_windows_countdown_counts_down(new_page) -> None:
    page = new_page(1280, 800)
    log_in_as(page, "countdown_host", landing=None)
    open_started_table(page, claim_seconds=10, turn_seconds=60)
    show_phase(page, Table.objects.get(host__username="countdown_host"), claim_window)
    first = page.evaluate(SHOWN)
    assert first is not None and 590 < first["seconds"] <= 600, first
    page.wait_for_function(f"() => ({SHOWN})().seconds < {first['seconds']}", timeout=5000)
    later = page.evaluate(SHOWN)
    assert later["fill"] <= first["fill"], (first, later)
