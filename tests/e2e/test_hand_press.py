"""A card pressed while a push swaps the hand in (static/js/hand_arrange.js).

A push swaps a fresh hand in whenever the hand changes (a deal, a tribute) and with every
snapshot (a reconnect, a lost frame's repair, a seating change). A press that starts on a card
and ends on its fresh copy made the browser send the click to the press's common ancestor, not
to the card, and the press did nothing. That is the one way found for what CI once saw
(test_table_layout, 2026-12-07: the tap that should have dropped a picked card did nothing). A
press is the player's, whatever the pushes do.

A finger's tap is not tested here: its click is aimed where the finger was, at the fresh copy,
so none is made for it (a made one undid the pick on a quiet box), but a finger held 400 ms
picks the card up (hand_arrange.js), and a push from the server cannot be timed inside that
on a loaded box (CI held it longer and the tap became a pick-up).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.live import push
from tests.e2e.helpers import (  # noqa: F401 - stop_tables_after_the_test is an autouse fixture
    log_in_as,
    open_started_table,
    stop_tables_after_the_test,
)
from tests.e2e.test_hand_arrange import (
    centre,
    left_edge,
    shown,
    wait_for_a_still_table,
)

pytestmark = pytest.mark.django_db(transaction=True)

# Marks the hand's labels, so a fresh render (a push's swap) is told from the old one.
MARK = "() => document.querySelectorAll('#hand .hand-cards label').forEach(l => l.dataset.old = 1)"
SWAPPED = "() => !document.querySelector('#hand .hand-cards label[data-old]')"


def swap_the_hand(page, table_id: int) -> None:
    """A snapshot pushed to every seat (as a seating change sends), swapped in by this page."""
    page.evaluate(MARK)
    push.publish_table(table_id)
    page.wait_for_function(SWAPPED)


def test_a_press_that_a_push_interrupts_still_picks_and_drags(new_page) -> None:
    page = new_page(1280, 900)
    log_in_as(page, "press_1280", "en", landing=None)
    url = open_started_table(page, claim_seconds=10, turn_seconds=60)
    table_id = int(url.rstrip("/").split("/")[-1])
    wait_for_a_still_table(page)
    labels = page.locator("#hand .hand-cards label")
    checks = page.locator("#hand .card-check")

    # A click: pressed on the old card, released on its fresh copy. Picked, once.
    page.mouse.move(*centre(page, labels.nth(5).get_attribute("id")))
    page.mouse.down()
    swap_the_hand(page, table_id)
    page.mouse.up()
    expect(checks.nth(5)).to_be_checked()
    page.wait_for_timeout(300)  # a second toggle, if the click also reached the card
    expect(checks.nth(5)).to_be_checked()

    # And dropped the same way.
    page.mouse.down()
    swap_the_hand(page, table_id)
    page.mouse.up()
    expect(checks.nth(5)).not_to_be_checked()

    # A drag begun on the old card moves its fresh copy: card 0 put after card 3.
    before = shown(page, "id")
    page.mouse.move(*centre(page, before[0]))
    page.mouse.down()
    swap_the_hand(page, table_id)
    page.mouse.move(*left_edge(page, before[4]), steps=8)
    page.mouse.up()
    assert shown(page, "id")[:4] == [before[1], before[2], before[3], before[0]]
    expect(page.locator(f"#{before[0].replace('label-', 'card-')}")).not_to_be_checked()
