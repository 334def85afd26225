"""Every AI seat's badge reads whole: on a phone (375×740, 740×375) the same short "AI" on every
seat, on one line; at 1280×800 each difficulty named in full ("IA · Principiante", "Máy · Trung
bình"), in Spanish and Vietnamese, the longest.

Screenshots (``make screenshots``): ai-badges-<language>-<size>.png.
"""

from __future__ import annotations

import pytest
from django.utils import translation

from games.engine.ai import registry
from games.models import Seat, Table
from tests.e2e.helpers import (  # noqa: F401 - stop_tables_after_the_test is an autouse fixture
    log_in_as,
    open_started_table,
    screenshot,
    stop_tables_after_the_test,
)

from .phases import settle, show_phase, your_turn

pytestmark = pytest.mark.django_db(transaction=True)


# Each AI seat's badge as drawn: its visible text (what a part hidden from sight, read out only,
# leaves), whether its words are cut (an ellipsis, a letter clipped) or on more than one line.
AI_BADGES = """() => [...document.querySelectorAll('#seats .seat .badge.ai')].map(b => {
  const r = b.getBoundingClientRect(), policy = b.querySelector('.ai-policy');
  const hidden = !policy || policy.getBoundingClientRect().width <= 1;
  const shown = b.getClientRects().length > 0 && r.width > 1;
  const text = shown ? (hidden ? b.firstChild.textContent : b.textContent).trim() : '';
  const line = parseFloat(getComputedStyle(b).lineHeight) || 20;
  // Whole in its name's line, and itself at its middle (no team badge lying over it).
  const row = b.closest('.seat-name').getBoundingClientRect();
  const hit = shown && document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return {seat: b.closest('.seat').id, shown, text,
          cut: shown && (b.scrollWidth > b.clientWidth + 1 || r.right > row.right + 0.5
                         || !hit || !b.contains(hit)),
          lines: Math.round(r.height / line)};
})"""


@pytest.mark.parametrize("language", ["es", "vi"])
def test_every_ai_seat_wears_the_same_whole_badge_on_a_phone(new_page, language) -> None:
    """375×740 and 740×375: the AI badges read "IA · Inter…" on one seat, "IA" on others and a
    lone "I" squeezed beside the team's ▲. On a phone every AI seat shows the same short badge
    ("IA", "Máy"; the difficulty is read out), whole, on one line."""
    page = new_page(375, 740)
    log_in_as(page, f"badges_{language}", language, landing=None)
    open_started_table(page, claim_seconds=0, turn_seconds=60)
    table = Table.objects.get(host__username=f"badges_{language}")
    show_phase(page, table, your_turn)
    for width, height in ((375, 740), (740, 375)):
        page.set_viewport_size({"width": width, "height": height})
        settle(page)
        screenshot(page, f"ai-badges-{language}-{width}x{height}")
        badges = page.evaluate(AI_BADGES)
        assert len(badges) == 3, badges
        assert len({b["text"] for b in badges}) == 1 and all(b["shown"] for b in badges), badges
        assert not [b for b in badges if b["cut"] or b["lines"] > 1], badges


@pytest.mark.parametrize("language", ["es", "vi"])
def test_a_side_seats_ai_badge_names_its_difficulty_whole_at_1280(new_page, language) -> None:
    """1280×800: a side seat's badge read "IA · Interme…" in Spanish. Every AI seat's badge
    names its difficulty whole, each difficulty in turn (the longest: "IA · Principiante",
    "Máy · Trung bình"), under the name where the line beside it is too short."""
    page = new_page(1280, 800)
    log_in_as(page, f"badge_1280_{language}", language, landing=None)
    open_started_table(page, claim_seconds=0, turn_seconds=60)
    table = Table.objects.get(host__username=f"badge_1280_{language}")
    for key in registry.KEYS:
        Seat.objects.filter(table=table, number__gt=0).update(ai_policy=key)
        show_phase(page, table, your_turn)
        settle(page)
        screenshot(page, f"ai-badges-{language}-1280-{key}")
        badges = page.evaluate(AI_BADGES)
        with translation.override(language):
            label = translation.gettext(registry.difficulty(key).label)
            whole = f"{translation.gettext('AI')} · {label}"
        assert len(badges) == 3 and all(b["shown"] for b in badges), badges
        assert [b for b in badges if b["text"] != whole or b["cut"]] == [], (whole, badges)
