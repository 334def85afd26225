"""A push never undoes what the viewer chose in a form control (static/js/table.js, "form
controls"): a full frame swaps the seats region in — the page's first snapshot just after it
loads, and every seating change before the start — and the host's "AI players" difficulty
read "Casual" again right after they picked "Beginner", so "Fill empty seats with AI" seated
Casual players. A browser test: the swap and the control's state live in the page."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from accounts.models import User
from games.models import Seat
from games.play import tables

from .helpers import log_in_as, wait_until_live

pytestmark = pytest.mark.django_db(transaction=True)

#: How many full frames the page applied (first connect, resyncs, seat changes).
SNAPSHOTS = "window.club414.snapshots"


def test_a_difficulty_picked_before_a_push_is_the_one_seated(new_page, make_user):
    page = new_page()
    log_in_as(page, "ana_fc")
    host = User.objects.get(username="ana_fc")
    table = tables.create_table(host, name="controls", players=4, options={})
    page.goto(table.get_absolute_url())
    wait_until_live(page)
    page.wait_for_function(f"() => {SNAPSHOTS} > 0")  # the connect snapshot is shown
    expect(page.locator("#fill-policy")).to_have_value(Seat.Policy.HEURISTIC)  # the default
    page.select_option("#fill-policy", Seat.Policy.RANDOM)
    page.click("#close-table")  # the confirmation opened, not answered yet
    expect(page.locator("#close-table-confirm")).to_have_attribute("open", "")
    shown = page.evaluate(f"() => {SNAPSHOTS}")
    # A guest sits down: every page of the table gets a full frame with the seats region.
    tables.take_seat(table.pk, make_user("bo_fc"), 1)
    page.wait_for_function(f"n => {SNAPSHOTS} > n", arg=shown)
    expect(page.locator("#seats .seat.empty")).to_have_count(2)  # the frame was swapped in
    expect(page.locator("#fill-policy")).to_have_value(Seat.Policy.RANDOM)
    expect(page.locator("#close-table-confirm")).to_have_attribute("open", "")
    page.click("#fill-ai")
    expect(page.locator("#seats .seat.empty")).to_have_count(0)
    policies = Seat.objects.filter(table=table, user__isnull=True).values_list(
        "ai_policy", flat=True
    )
    assert sorted(policies) == [Seat.Policy.RANDOM, Seat.Policy.RANDOM]
