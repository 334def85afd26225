"""The play to beat on a phone (upright and on its side, four, six and eight seats): a long play
reads card by card, each card's rank and suit clear of the next, the play whole in its box in
the felt's middle and not under the own seat.

Screenshots (``make screenshots``): nine-top-<seats>-<width>x<height>.png.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import (  # noqa: F401 - stop_tables_after_the_test is an autouse fixture
    log_in_as,
    open_started_table,
    stop_tables_after_the_test,
)

pytestmark = pytest.mark.django_db(transaction=True)


# The play to beat inside its box (and its box inside the status, whole in the felt's middle,
# not under the own seat), each card's corner (its rank and suit) clear of the card laid over
# it and itself what shows there: cards may overlap as a fan, never over another's index.
TOP_PLAY_READABLE = """() => {
  const out = [], top = document.querySelector('.felt-centre .top-play');
  if (!top) return ['no play to beat'];
  const box = top.getBoundingClientRect();
  const status = document.getElementById('status').getBoundingClientRect();
  const centre = document.querySelector('.felt-centre').getBoundingClientRect();
  const at = r => `${Math.round(r.left)}-${Math.round(r.right)}`;
  if (box.left < status.left - 0.5 || box.right > status.right + 0.5)
    out.push(`the play to beat (${at(box)}) runs out of the status (${at(status)})`);
  if (box.top < centre.top - 0.5 || box.bottom > centre.bottom + 0.5)
    out.push(`the play to beat (${Math.round(box.top)}-${Math.round(box.bottom)}) is cut by the `
             + `felt's middle (${Math.round(centre.top)}-${Math.round(centre.bottom)})`);
  const cards = [...top.querySelectorAll('.playing-card')];
  cards.forEach((card, i) => {
    const r = card.getBoundingClientRect(), name = card.textContent.trim();
    if (r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.top < box.top - 0.5
        || r.bottom > box.bottom + 0.5)
      out.push(`${name} (${at(r)}) runs out of its box (${at(box)})`);
    const range = document.createRange();
    range.selectNodeContents(card);
    // The next card, on the same row (a long play may go on to a second one).
    const index = range.getBoundingClientRect();
    const next = cards[i + 1] && cards[i + 1].getBoundingClientRect();
    if (next && Math.abs(next.top - r.top) < r.height / 2 && index.right > next.left + 0.5)
      out.push(`${name}'s corner (${at(index)}) is under the next card `
               + `(from ${Math.round(next.left)})`);
    const hit = document.elementFromPoint(index.left + index.width / 2,
                                          index.top + index.height / 2);
    if (!hit || !card.contains(hit))
      out.push(`${name}'s corner is covered by `
               + (hit ? (hit.id || hit.className || hit.tagName) : 'nothing'));
  });
  return out;
}"""


@pytest.mark.parametrize("players", [4, 6, 8])
def test_a_play_of_nine_to_beat_reads_card_by_card_on_a_phone(new_page, players) -> None:
    """375×667, 375×740 and 740×375 in Vietnamese, the own turn, the play to beat a straight of
    nine: with six and eight seats its cards were laid so close that "10" hid under the J; the
    seat that played it took the cards on two or three rows and pushed the play to beat under
    the own seat. Each card's rank and suit show, the play whole in its box in the felt's
    middle, with four, six and eight seats."""
    from games.models import Table

    from .phases import nine_card_top, settle, shoot, show_phase

    page = new_page(375, 667)
    log_in_as(page, f"nine_{players}", "vi", landing=None)
    open_started_table(page, claim_seconds=0, turn_seconds=60, players=players)
    show_phase(page, Table.objects.get(host__username=f"nine_{players}"), nine_card_top)
    expect(page.locator(".felt-centre .top-play .playing-card")).to_have_count(9)
    problems = {}
    for width, height in ((375, 667), (375, 740), (740, 375)):
        page.set_viewport_size({"width": width, "height": height})
        settle(page)
        shoot(page, f"nine-top-{players}-{width}x{height}")
        found = page.evaluate(TOP_PLAY_READABLE)
        if found:
            problems[f"{width}x{height}"] = found
    assert not problems, "\n".join(f"{k}: {v[:6]}" for k, v in problems.items())


# Each hook's box, its pulse stopped at its widest (40 %, restarted first: it lasts 0.45 s),
# inside its seat and the felt: at 1280x800 the bottom seat's grew past its seat card and was
# cut by the felt's edge (a tester's screenshot, a spectator's page).
HOOK_PULSE_INSIDE = """() => {
  const out = [], at = r => `${Math.round(r.left)},${Math.round(r.top)}-${Math.round(r.right)},`
                               + `${Math.round(r.bottom)}`;
  const boxes = [...document.querySelectorAll('#seats .seat-play.kind-hook')];
  if (!boxes.length) return ['no hook in front of a seat'];
  for (const box of boxes) {
    box.style.animation = 'none';
    box.offsetWidth;  // the style applied: the pulse starts again below
    box.style.animation = '';
    const pulse = box.getAnimations().find(a => a.animationName === 'hook-pulse');
    if (!pulse) { out.push('no hook pulse'); continue; }
    pulse.pause();
    pulse.currentTime = 180;
    const r = box.getBoundingClientRect(), seat = box.closest('.seat').getBoundingClientRect();
    const felt = box.closest('.table-felt').getBoundingClientRect();
    for (const [what, o] of [['its seat', seat], ['the felt', felt]])
      if (r.left < o.left - 0.5 || r.right > o.right + 0.5 || r.top < o.top - 0.5
          || r.bottom > o.bottom + 0.5)
        out.push(`${box.closest('.seat').id}'s hook (${at(r)}) runs out of ${what} (${at(o)})`);
  }
  return out;
}"""


def test_a_hook_pulses_inside_its_seat(new_page) -> None:
    """1280x800, a seat's last step a hook: its box's pulse stays inside the seat card and the
    felt (it grew 8 %: the bottom seat's was cut by the felt's bottom edge)."""
    from games.models import Table

    from .phases import a_hook, show_phase

    page = new_page(1280, 800)
    page.emulate_media(reduced_motion="no-preference")
    log_in_as(page, "hook_pulse", landing=None)
    open_started_table(page, claim_seconds=10, turn_seconds=60)
    show_phase(page, Table.objects.get(host__username="hook_pulse"), a_hook)
    expect(page.locator("#seats .seat-play.kind-hook").first).to_be_visible()
    assert page.evaluate(HOOK_PULSE_INSIDE) == []


# Every seat's name shows: whole, or (a long name) its first six letters and an ellipsis in
# the room it has, and nothing over it. A name squeezed to nothing or to "M…", or under its
# seat's play, fails.
NAMES_SHOWN = """() => [...document.querySelectorAll('#seats .seat .name')].flatMap(n => {
  const ctx = document.createElement('canvas').getContext('2d');
  ctx.font = getComputedStyle(n).font;
  const text = n.textContent.trim(), r = n.getBoundingClientRect();
  const whole = ctx.measureText(text).width;
  const six = text.length > 6 ? ctx.measureText(text.slice(0, 6) + '…').width : whole;
  const seat = n.closest('.seat'), play = seat.querySelector('.seat-play');
  const what = `${seat.id}'s name "${text}"${play ? ` (${play.className})` : ''}`;
  if (r.width < 1 || r.height < 1 || getComputedStyle(n).visibility === 'hidden')
    return [`${what} is not shown`];
  if (whole > r.width + 0.05 && r.width < six - 0.05)
    return [`${what} is cut: ${r.width.toFixed(1)} px of ${whole.toFixed(1)}`];
  const hit = document.elementFromPoint(r.left + Math.min(r.width, six) / 2, r.top + r.height / 2);
  if (!hit || !n.contains(hit))
    return [`${what} is covered by ${hit ? (hit.className || hit.tagName) : 'nothing'}`];
  return [];
})"""


# Every seat's count ("27 cartas") whole in its seat's line: not under the team's shape or the
# play beside it, nor past the seat's edge.
COUNTS_WHOLE = """() => [...document.querySelectorAll('#seats .seat .card-count')].flatMap(c => {
  const seat = c.closest('.seat'), range = document.createRange();
  range.selectNodeContents(c);
  const t = range.getBoundingClientRect(), s = seat.getBoundingClientRect();
  const out = [];
  if (t.right > s.right + 0.5) out.push(`${seat.id}'s count runs out of its seat`);
  for (const [what, el] of [["its team's shape", seat.querySelector('.team-badge')],
                            ['its play', seat.querySelector('.seat-play')]]) {
    const r = el && el.getBoundingClientRect();
    if (r && t.right > r.left + 0.5 && t.left < r.right && t.bottom > r.top && t.top < r.bottom)
      out.push(`${seat.id}'s count "${c.textContent.trim()}" runs under ${what}`);
  }
  return out;
})"""


@pytest.mark.parametrize("language", ["vi", "es"])
@pytest.mark.parametrize("players", [6, 8])
def test_every_seat_s_name_shows_on_a_phone_on_its_side(new_page, players, language) -> None:
    """740×375 in Vietnamese, six and eight seats, the own turn: a seat that made a long play
    showed no name, a seat that passed read "M…". Every seat's name shows, whole or (a long
    one) its first six letters, after plays and passes and with a long play to beat; its count
    ("27 cartas" in Spanish, the longest) whole beside its team's shape."""
    from games.models import Table

    from .phases import long_top_turn, settle, shoot, show_phase, your_turn

    page = new_page(740, 375)
    log_in_as(page, f"names_{players}_{language}", language, landing=None)
    open_started_table(page, claim_seconds=0, turn_seconds=60, players=players)
    table = Table.objects.get(host__username=f"names_{players}_{language}")
    problems = {}
    for phase, make in (("turn", your_turn), ("long-top", long_top_turn)):
        show_phase(page, table, make)
        settle(page)
        shoot(page, f"side-names-{players}-{language}-{phase}-740x375")
        found = page.evaluate(NAMES_SHOWN) + page.evaluate(COUNTS_WHOLE)
        if found:
            problems[phase] = found
    assert not problems, "\n".join(f"{k}: {v[:8]}" for k, v in problems.items())


# The play to beat on one row: every card's top level with the first's.
TOP_PLAY_ONE_ROW = """() => {
  const cards = [...document.querySelectorAll('.felt-centre .top-play .playing-card')];
  const tops = new Set(cards.map(c => Math.round(c.getBoundingClientRect().top)));
  return tops.size > 1 ? [`the play to beat's ${cards.length} cards take ${tops.size} rows`] : [];
}"""


@pytest.mark.parametrize("language", ["es", "id", "vi"])
@pytest.mark.parametrize("players", [6, 8])
def test_the_play_to_beat_the_levels_and_the_names_keep_their_lines_on_a_phone_on_its_side(
    new_page, players, language
) -> None:
    """740×375, six and eight seats: a play of twelve to beat took two rows and pushed the
    levels under the own seat; with eight seats the Spanish "Nivel de la ronda" wrapped and was
    cut the same way; a hook's word beside its two cards could squeeze its seat's name. On the
    own turn, under a straight of twelve and after a hook of two cards, the play to beat keeps
    one row, each card's corner clear, the round line is whole above the own seat, and every
    name shows (whole, or its first six letters) with its count whole."""
    from functools import partial

    from games.models import Table

    from .measures import ROUND_LINE, WHOLE
    from .phases import a_hook, settle, shoot, show_phase, straight_top, your_turn

    page = new_page(740, 375)
    log_in_as(page, f"lines_{players}_{language}", language, landing=None)
    open_started_table(page, claim_seconds=10, turn_seconds=60, players=players)
    table = Table.objects.get(host__username=f"lines_{players}_{language}")
    problems = {}
    for phase, make in (
        ("turn", your_turn),
        ("twelve-top", partial(straight_top, size=12)),
        ("hook", partial(a_hook, cards=2)),
    ):
        show_phase(page, table, make)
        settle(page)
        shoot(page, f"side-lines-{players}-{language}-{phase}-740x375")
        found = page.evaluate(ROUND_LINE) + page.evaluate(WHOLE)
        found += page.evaluate(TOP_PLAY_ONE_ROW) + page.evaluate(TOP_PLAY_READABLE)
        found += page.evaluate(NAMES_SHOWN) + page.evaluate(COUNTS_WHOLE)
        if found:
            problems[phase] = found
    assert not problems, "\n".join(f"{k}: {v[:8]}" for k, v in problems.items())
