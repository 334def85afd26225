"""The round's tribute box on a phone while the round is played (issue: a new tester, session
41): in Spanish at 375×740 its second payment ran under the own seat, the card returned hidden.
Made a scrolling box then, a later tester saw its cards cut in half and the second payer's row
out of sight at 375×740 (its cards faces two lines tall in a middle a few lines tall). Every
payment of the box reads whole without scrolling: inside the felt's middle and above the own
seat, the box not scrolling, each card (written as text, "RJ★ 3♣", on a phone) drawn whole, at
the phone sizes, in every language, with two payers (a double tribute)."""

from __future__ import annotations

import pytest

from games.models import Table
from tests.e2e.helpers import (  # noqa: F401 - stop_tables_after_the_test is an autouse fixture
    log_in_as,
    open_started_table,
    stop_tables_after_the_test,
)
from tests.e2e.measures import problems_at_sizes
from tests.e2e.phases import show_phase, tribute_returned

pytestmark = pytest.mark.django_db(transaction=True)

# Each payment of the tribute box (payer, receiver, the card paid and the card returned) drawn
# inside the felt's middle (which clips), inside the box, which does not scroll, and above the
# own seat; each of its cards shown (a face or its text) whole.
PAYMENTS_SHOWN = """() => {
  const out = [], own = document.querySelector('#seats .seat.me').getBoundingClientRect();
  const centre = document.querySelector('.felt-centre').getBoundingClientRect();
  const box = document.getElementById('tribute'), b = box.getBoundingClientRect();
  const items = document.querySelectorAll('#tribute .tribute-list li');
  if (items.length !== 2) return [`${items.length} payments shown, not 2`];
  if (box.scrollHeight > box.clientHeight + 1)
    out.push(`the tribute box scrolls: ${box.scrollHeight} px in ${box.clientHeight}`);
  for (const li of items) {
    const cards = [...li.querySelectorAll('.playing-card, .card-text')].filter(c => {
      const r = c.getBoundingClientRect();
      return r.width > 1 && r.height > 1;
    });
    if (cards.length !== 2) out.push(`${cards.length} cards shown in a payment, not 2`);
    for (const part of [li, ...cards]) {
      const r = part.getBoundingClientRect();
      const name = part === li ? 'a payment' : `the card ${part.textContent.trim()}`;
      const at = `${name} (${Math.round(r.top)}-${Math.round(r.bottom)})`;
      if (r.bottom > b.bottom + 0.5 || r.top < b.top - 0.5 || r.right > b.right + 0.5)
        out.push(`${at} is cut by the tribute box (${Math.round(b.top)}-${Math.round(b.bottom)})`);
      if (r.bottom > own.top + 0.5)
        out.push(`${at} runs under the own seat (${Math.round(own.top)})`);
      if (r.bottom > centre.bottom + 0.5 || r.top < centre.top - 0.5)
        out.push(`${at} is cut by the felt's middle `
                 + `(${Math.round(centre.top)}-${Math.round(centre.bottom)})`);
    }
  }
  return out;
}"""


@pytest.mark.parametrize("language", ["en", "es", "id", "vi"])
def test_the_round_s_tributes_show_whole_while_it_is_played(new_page, language) -> None:
    page = new_page(375, 740)
    username = f"tribute_play_{language}"
    log_in_as(page, username, language, landing=None)
    open_started_table(page, claim_seconds=10, turn_seconds=60)
    table = Table.objects.get(host__username=username)
    show_phase(page, table, tribute_returned)
    problems = problems_at_sizes(
        page,
        ((375, 740), (375, 667), (740, 375)),
        f"tribute-phone/{language}",
        lambda p: p.evaluate(PAYMENTS_SHOWN),
    )
    assert not problems, problems
