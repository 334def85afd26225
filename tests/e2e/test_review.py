"""The expert's review in chromium (issue 20): a finished match's record shows a reviewed
round's advantage chart (drawn by uPlot, no CSP violation), its decision table, and a click on
a chart point jumps to that decision; a decision's link opens its move in the replay with the
expert's review of it; the profile shows the accuracy trend. At 1280×800 and 375×740, axe
clean. The finished match is driven in-process (``tests.games.drivers.drive``) and its rounds
reviewed by the real review (``games.records.reviews.make``), not played through the UI.

Screenshots (``make screenshots``): review/<page>-<width>.png.
"""

from __future__ import annotations

import re

import pytest
from django.db import transaction
from django.urls import reverse
from playwright.sync_api import expect

from accounts.models import User
from games.models import Match, RoundReview
from games.play import stewarding
from games.records import reviews
from tests.e2e.test_csp import assert_no_violation, watch
from tests.games.drivers import drive

from .helpers import axe_violations, describe, log_in_user, screenshot

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = [(1280, 800), (375, 740)]
SAMPLES = 8


def _finished_match_with_reviews() -> tuple[Match, User]:
    """A quick match (target level 3) of two people, who send the moves their seat's policy
    picks (their own moves: a stand-in's would not be reviewed), and two AI seats, driven to
    its end, its first two rounds reviewed; and ana, at seat 0."""
    ana, bo = (User.objects.create_user(n, password="x") for n in ("rv_ana", "rv_bo"))
    with transaction.atomic():
        table = stewarding.open_table(
            ana,
            name="review table",
            options={"target_level": "3"},
            seats=[(ana, "heuristic"), (None, "heuristic"), (bo, "random"), (None, "heuristic")],
            start=True,
            seed=414,
        )
    match, _steps = drive(Match.objects.get(table=table).pk, people=True)
    for round_no in (1, 2):
        reviews.make(match.pk, round_no, samples=SAMPLES)
    return match, ana


def _shot(page, name: str, width: int, full_page: bool = True) -> None:
    screenshot(page, f"review/{name}-{width}", full_page=full_page)


def _axe_clean(page, what: str) -> None:
    found = axe_violations(page)
    assert not found, f"{what}: {describe(found)}"


def test_a_finished_round_review_chart_table_jump_and_trend(new_page) -> None:
    match, ana = _finished_match_with_reviews()
    assert RoundReview.objects.filter(match=match, round_no=1, seat=0).exists()
    for width, height in SIZES:
        page = new_page(width, height)
        heard = watch(page)
        log_in_user(page, ana)
        page.goto(f"/matches/{match.pk}/?round=1")
        assert_no_violation(page, heard, "record page")
        chart = page.locator("#review-chart-1-0")
        expect(chart).to_have_class(re.compile(r"\bdrawn\b"))
        expect(chart.locator("canvas")).to_have_count(1)
        table = page.locator("#review-1-0 table.review-decisions")
        expect(table).to_be_visible()
        rows = table.locator("tbody tr.review-row")
        count = rows.count()
        assert count > 1
        # The table fits the screen, at 375 px too: no sideways scroll (the hand moves to a row
        # of its own under its decision there).
        region = page.locator("#review-1-0 .table-scroll")
        fits = region.evaluate("e => e.scrollWidth <= e.clientWidth + 1")
        assert fits, region.evaluate("e => [e.scrollWidth, e.clientWidth]")
        hand_row = table.locator("tbody tr.review-hand-row").first
        if width < 640:
            expect(hand_row).to_be_visible()
            expect(table.locator("th.review-hand")).to_be_hidden()
        else:
            expect(hand_row).to_be_hidden()
        # The keyboard along the chart: the arrow keys move between decisions, focusing rows.
        chart.focus()
        page.keyboard.press("ArrowRight")
        expect(page.locator("#review-1-0-1")).to_be_focused()
        page.keyboard.press("ArrowDown")
        expect(page.locator("#review-1-0-2")).to_be_focused()
        page.keyboard.press("End")
        expect(page.locator(f"#review-1-0-{count}")).to_be_focused()
        page.keyboard.press("ArrowLeft")
        expect(page.locator(f"#review-1-0-{count - 1}")).to_be_focused()
        table.scroll_into_view_if_needed()
        _shot(page, "record-table", width, full_page=False)
        # A click on the chart jumps to the decision under the pointer: its row is the page's
        # target and has the focus.
        over = chart.locator(".u-over")
        over.scroll_into_view_if_needed()
        box = over.bounding_box()
        assert box is not None and box["width"] > 100
        # Under the pointer, its decision's row as a line of text (its mark among it).
        page.mouse.move(box["x"] + 2, box["y"] + box["height"] / 2)
        expect(page.locator("#review-1-0 .review-readout")).to_contain_text(
            re.compile(r"good|forced|inaccuracy|mistake|blunder")
        )
        page.mouse.click(box["x"] + box["width"] - 2, box["y"] + box["height"] / 2)
        # The nearest point to the right edge: the last decision (one before it on a phone,
        # where points sit a few pixels apart).
        expect(page).to_have_url(re.compile(f"#review-1-0-({count}|{count - 1})$"))
        target = page.url.split("#")[1]
        expect(page.locator(f"#{target}")).to_be_focused()
        over.scroll_into_view_if_needed()  # the jump scrolled the page
        box = over.bounding_box()
        assert box is not None
        page.mouse.click(box["x"] + 2, box["y"] + box["height"] / 2)
        expect(page).to_have_url(re.compile(r"#review-1-0-[12]$"))
        _axe_clean(page, f"record page at {width}")
        page.evaluate("() => document.getElementById('record-reviews').scrollIntoView()")
        _shot(page, "record-accuracy", width, full_page=False)
        page.evaluate("() => document.getElementById('review-1-0').scrollIntoView()")
        _shot(page, "record-chart", width, full_page=False)
        # The decision's link: its move in the replay, with the expert's review of it.
        link = page.locator("#review-1-0-1 td a")
        href = link.get_attribute("href")
        assert href and "step=" in href and "seat=0" in href
        link.click()
        expect(page.locator("#replay-review")).to_be_visible()
        step = href.split("step=")[1].split("&")[0]
        expect(page.locator("#replay-position")).to_contain_text(f"Move {step} of")
        assert_no_violation(page, heard, "replay")
        _axe_clean(page, f"replay at {width}")
        _shot(page, "replay", width)
        # The profile's trend: a chart and its table.
        page.goto(reverse("profile", args=[ana.username]))
        trend = page.locator("#trend-chart")
        expect(trend).to_have_class(re.compile(r"\bdrawn\b"))
        expect(page.locator("#accuracy-trend table tbody tr")).to_have_count(1)
        assert_no_violation(page, heard, "profile")
        _axe_clean(page, f"profile at {width}")
        _shot(page, "profile", width)
