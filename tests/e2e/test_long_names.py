"""A 150-character username without a space (the longest the account model holds) widens no
page and hides no badge: the lobby (its live matches too), the profile, the tournaments and the
table during the own turn fit 1280×800, 375×740 and 740×375 without sideways scrolling; at the
table the name ends in an ellipsis with the whole of it in its title, and the seat's "you"
badge is whole. Screenshots go to /tmp/onescreen-shots/long-*.png."""

from __future__ import annotations

import pytest

from games.models import Table

from .helpers import log_in_as, open_started_table
from .test_one_screen import BUTTONS, MEASURE, settle, shoot, show_phase, your_turn

pytestmark = pytest.mark.django_db(transaction=True)

LONG = "W" * 150
SIZES = [(1280, 800), (375, 740), (740, 375)]

SIDEWAYS = """() => {
  const se = document.scrollingElement;
  return se.scrollWidth > innerWidth + 1 ? [`the page scrolls sideways: ${se.scrollWidth}`] : [];
}"""

YOU = """() => {
  const you = document.querySelector('#seats .seat.me .badge.you');
  if (!you) return ['no "you" badge'];
  const r = you.getBoundingClientRect();
  return you.scrollWidth > you.clientWidth + 1 || r.width < 1
    ? [`the "you" badge is cut: ${you.scrollWidth} > ${you.clientWidth}`] : [];
}"""


def test_a_very_long_name_widens_no_page(new_page) -> None:
    page = new_page(1280, 800)
    log_in_as(page, LONG)
    url = open_started_table(page, claim_seconds=10, turn_seconds=60)
    table = Table.objects.get(host__username=LONG)
    problems: dict[str, list[str]] = {}
    show_phase(page, table, your_turn)
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        settle(page)
        shoot(page, f"long-table-{width}x{height}")
        need = {"cards": 27, "shown": [".top-play", *BUTTONS], "seats": 4}
        found = page.evaluate(MEASURE, need) + page.evaluate(YOU)
        if found:
            problems[f"table {width}x{height}"] = found
    other = new_page(1280, 800)
    log_in_as(other, "a_visitor")
    for path in ("/", f"/accounts/{LONG}/", "/tournaments/", url):
        for who, viewer in (("self", page), ("visitor", other)):
            if path == url and who == "self":
                continue
            viewer.goto(path)
            for width, height in SIZES:
                viewer.set_viewport_size({"width": width, "height": height})
                settle(viewer)
                name = path.strip("/").replace("/", "_")[:20] or "lobby"
                shoot(viewer, f"long-{who}-{name}-{width}x{height}")
                found = viewer.evaluate(SIDEWAYS)
                if found:
                    problems[f"{who} {path[:30]} {width}x{height}"] = found
    assert not problems, "\n".join(f"{k}: {v[:6]}" for k, v in problems.items())
