"""The replay page steps through a kept match with the keyboard, as a replay viewer does
(static/js/replay.js): ← and → the previous and next move, Home and End the first and last;
not while the focus is in a text field, where those keys move the caret. The page says so
under its title (in every language: tests/test_i18n.py's key pages hold the replay)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import axe_violations, describe, log_in_user, screenshot

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_arrow_keys_home_and_end_step_through_the_replay(new_page, replayed_match):
    host, match = replayed_match
    moves = match.version
    page = new_page(1280, 800)
    log_in_user(page, host, landing=None)
    page.goto(f"/matches/{match.pk}/replay/")
    page.wait_for_load_state()  # replay.js (deferred) listens for the keys
    position = page.locator("#replay-position")
    expect(position).to_have_text(f"Move 0 of {moves}")
    keys = page.locator("#replay-keys")
    expect(keys).to_be_visible()
    expect(keys).to_have_text(
        "Keys: ← → the previous or next move; Home End the first or last move"
    )
    violations = axe_violations(page)  # the keys' line (its muted grey, its <kbd>s) included
    assert not violations, describe(violations)
    page.evaluate("window.sameDocument = true")  # each step is htmx's, never a page load

    for key, shown in [
        ("ArrowRight", 1), ("ArrowRight", 2), ("ArrowLeft", 1), ("End", moves),
        ("ArrowRight", moves), ("ArrowLeft", moves - 1), ("Home", 0), ("ArrowLeft", 0),
    ]:  # fmt: skip
        page.keyboard.press(key)
        expect(position).to_have_text(f"Move {shown} of {moves}")
    screenshot(page, "replay/keys-1280x800")

    # In a text field the keys are the field's: the replay stays where it is.
    page.evaluate(
        """() => { const field = document.createElement('input');
                   field.id = 'typed'; document.querySelector('.table-head').append(field); }"""
    )
    page.fill("#typed", "note")
    for key in ("ArrowLeft", "Home", "End", "ArrowRight"):
        page.keyboard.press(key)
    page.locator("#typed").blur()
    page.keyboard.press("ArrowRight")
    expect(position).to_have_text(f"Move 1 of {moves}")
    assert page.evaluate("window.sameDocument === true")
