"""A waiting table gives its host every control whole (the seats' pickers, start, invite, close),
at 375 and 1280 px and with six or eight seats on a phone: inside the screen, reachable at their
middle, each AI picker as wide as its longest choice, the table's name whole.

Screenshots (``make screenshots``): waiting-<width>.png, waiting-<seats>-375.png.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import (  # noqa: F401 - stop_tables_after_the_test is an autouse fixture
    SELECTS_CUT,
    htmx_settled,
    log_in_as,
    screenshot,
    stop_tables_after_the_test,
    wait_until_live,
)

pytestmark = pytest.mark.django_db(transaction=True)

OVERFLOW = "() => [document.scrollingElement.scrollWidth, window.innerWidth]"


# The waiting table's controls a host needs, each as drawn: inside the viewport and reachable at
# its middle (each seat's AI picker whole besides: ``host_controls``).
HOST_CONTROLS = """() => {
  const out = [], W = innerWidth;
  const controls = [...document.querySelectorAll('#seats .seat-controls :is(select, button),'
                                                 + ' #table-controls :is(select, button, summary)')]
    .filter(el => el.checkVisibility());  // not the closed "close the table?" form's
  for (const el of controls) {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (r.width < 1 || r.left < -0.5 || r.right > W + 0.5)
      out.push(`${el.id} outside: ${r.left}-${r.right}`);
    else if (!hit || !el.contains(hit))
      out.push(`${el.id} covered by ${hit && (hit.id || hit.className)}`);
  }
  return {out, controls: controls.length};
}"""


def host_controls(page) -> dict:
    """``HOST_CONTROLS`` on ``page``, with each seat's AI picker that cuts its choices among
    its ``out``."""
    controls = page.evaluate(HOST_CONTROLS)
    controls["out"] += page.evaluate(SELECTS_CUT, "#seats select")
    return controls


# The table's name whole: no ellipsis, inside the viewport.
TITLE = """() => { const h = document.querySelector('.table-head h1');
  const r = h.getBoundingClientRect();
  return {cut: h.scrollWidth > h.clientWidth + 1, right: r.right, text: h.textContent}; }"""

# The invite box's input and button, and its form, as drawn.
INVITE = """() => {
  const box = el => { const r = document.querySelector(el).getBoundingClientRect();
    return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width,
            height: r.height}; };
  const input = document.getElementById('invite-username');
  return {input: box('#invite-username'), button: box('#invite-send'), form: box('#invite-form'),
          font: [getComputedStyle(input).fontSize, getComputedStyle(input.form).fontSize],
          padding: parseFloat(getComputedStyle(input).paddingLeft)}; }"""


def test_a_waiting_table_gives_the_host_every_control_whole(new_page) -> None:
    """A new player's walk (Vietnamese: the longest words): at 1280×800 the box to invite a
    friend by name was the browser's small input beside its label; at 375×740 the side seats'
    AI picker was cut ("Không có m") and the table's name too ("Friday ni…"). Every control
    the host needs to fill and start the table is whole and usable, nothing scrolls sideways."""

    page = new_page(1280, 800)
    log_in_as(page, "waiting_host", "vi", landing=None)
    page.goto("/tables/new/")
    page.fill("#id_name", "Friday night table of the club")
    page.select_option("#id_seats", "4")
    page.click("#create-table-form button[type=submit]")
    expect(page.locator("#seats .seat.empty")).to_have_count(3)
    wait_until_live(page)
    screenshot(page, "waiting-1280", full_page=True)

    # The invite box: as the site's forms (the label above, an input of the form's font with
    # room inside), the input taking the row beside "Invite" and as tall as it.
    invite = page.evaluate(INVITE)
    field, button, form = invite["input"], invite["button"], invite["form"]
    assert invite["font"][0] == invite["font"][1] and invite["padding"] >= 6, invite
    assert field["width"] >= 0.55 * form["width"], invite
    assert abs(field["height"] - button["height"]) <= 1 and field["height"] >= 36, invite
    assert field["top"] < button["bottom"] and button["top"] < field["bottom"], invite  # one row
    assert form["left"] - 0.5 <= field["left"] and button["right"] <= form["right"] + 0.5, invite

    page.set_viewport_size({"width": 375, "height": 740})
    page.wait_for_timeout(300)  # the layout at the new width
    screenshot(page, "waiting-375", full_page=True)
    scroll_width, inner = page.evaluate(OVERFLOW)
    assert scroll_width <= inner == 375, f"the page scrolls sideways: {scroll_width} > {inner}"
    title = page.evaluate(TITLE)
    assert not title["cut"] and title["right"] <= 375, title
    controls = host_controls(page)
    assert controls["controls"] >= 10 and not controls["out"], controls

    # Usable: the side seat's picker seats an AI, and then offers to remove it, still whole.
    page.select_option("#ai-policy-1", index=1)
    page.click("#set-ai-1")
    expect(page.locator("#seat-1 .badge.ai")).to_have_count(1)
    htmx_settled(page)
    controls = host_controls(page)
    assert not controls["out"], controls
    assert page.evaluate(OVERFLOW)[0] <= 375


@pytest.mark.parametrize("players", [6, 8])
def test_a_waiting_table_of_six_or_eight_gives_the_host_every_control_whole_on_a_phone(
    new_page, players
) -> None:
    """375 px, Vietnamese: three seats abreast left each ~90 px and cut the host's AI picker
    ("Không c"). Until the match starts the seats go two abreast, round the table clockwise
    (you at the bottom right, the next seat at the bottom left), every control whole."""
    page = new_page(375, 740)
    log_in_as(page, f"waiting_{players}", "vi", landing=None)
    page.goto("/tables/new/")
    page.fill("#id_name", "Friday night table of the club")
    page.select_option("#id_seats", str(players))
    page.click("#create-table-form button[type=submit]")
    expect(page.locator("#seats .seat.empty")).to_have_count(players - 1)
    wait_until_live(page)
    screenshot(page, f"waiting-{players}-375", full_page=True)
    scroll_width, inner = page.evaluate(OVERFLOW)
    assert scroll_width <= inner == 375, f"the page scrolls sideways: {scroll_width} > {inner}"
    seats = page.evaluate(
        """() => [...document.querySelectorAll('#seats .seat')].map(s => {
             const r = s.getBoundingClientRect();
             return {pos: +s.className.match(/pos-(\\d)/)[1], x: r.left,
                     y: r.top + r.height / 2}; })"""
    )
    assert len({round(s["x"]) for s in seats}) == 2, seats  # two abreast
    at = {s["pos"]: s for s in seats}
    assert at[0]["x"] > at[1]["x"] and abs(at[0]["y"] - at[1]["y"]) < 1, at  # the bottom row
    assert at[players // 2]["x"] < at[players // 2 + 1]["x"], at  # the top row
    assert all(at[n]["y"] < at[n - 1]["y"] for n in range(2, players // 2 + 1)), at  # up the left
    # Every control in view at once (a tall screen), none cut or covered.
    page.set_viewport_size({"width": 375, "height": 1400})
    controls = host_controls(page)
    assert controls["controls"] >= 3 * (players - 1) and not controls["out"], controls
