"""One player, one table, two tabs (a new user's walk): the tab that did not play had its
picked cards swept away by the other tab's play, and its Play button, still enabled with
nothing picked, answered "Select the cards to play first". Each tab keeps the cards it picked
that are still in the hand; Play is off whenever it would send nothing: no card picked, or not
this seat's turn."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from games.models import Table

from .helpers import log_in_as, open_started_table, wait_until_live
from .phases import install, show_phase, your_turn

pytestmark = pytest.mark.django_db(transaction=True)

PICKED = "() => [...document.querySelectorAll('#hand .card-check:checked')].map(b => b.value)"

# Play as it should be: usable exactly when the seat has something to play (hints) and a card
# is picked.
PLAY_STATE = """() => {
  const play = document.getElementById('play-button');
  const hints = document.getElementById('hand-actions').dataset.hints || '[]';
  const picked = !!document.querySelector('#hand .card-check:checked');
  return {disabled: play.disabled, should: hints === '[]' || !picked};
}"""


def test_a_second_tab_keeps_its_pick_and_play_says_what_it_can_do(new_page) -> None:
    first = new_page(1280, 800)
    log_in_as(first, "two_tabs", landing=None)
    url = open_started_table(first, claim_seconds=0, turn_seconds=120)
    table = Table.objects.get(host__username="two_tabs")
    state = show_phase(first, table, your_turn)
    second = first.context.new_page()
    second.goto(url)
    wait_until_live(second)
    for page in (first, second):
        expect(page.locator("#status.my-turn")).to_have_count(1)
        # Nothing picked yet: Play is off, so it never sends an empty play.
        expect(page.locator("#play-button")).to_be_disabled()

    # The second tab picks two cards the first tab will not play (its first hint).
    hint = json.loads(second.get_attribute("#hand-actions", "data-hints") or "[]")[0]
    ids = second.evaluate(
        """hint => [...document.querySelectorAll('#hand .card-check')]
             .filter(b => !hint.includes(b.value)).slice(-2).map(b => b.id)""",
        hint,
    )
    for box in ids:
        second.click(f"label[for='{box}']")
    picked = second.evaluate(PICKED)
    assert len(picked) == 2, picked
    expect(second.locator("#play-button")).to_be_enabled()

    first.click("#hint-button")
    played = first.evaluate(PICKED)
    assert played and not set(played) & set(picked), (played, picked)
    expect(first.locator("#play-button")).to_be_enabled()
    version = int(second.get_attribute("#status", "data-version") or 0)
    first.click("#play-button")
    for page in (first, second):
        expect(page.locator("#hand .card-check")).to_have_count(27 - len(played))
        page.wait_for_function(
            "v => +document.getElementById('status').dataset.version > v", arg=version
        )
    # The tab that played has nothing picked, the other still has its two cards.
    assert first.evaluate(PICKED) == []
    assert sorted(second.evaluate(PICKED)) == sorted(picked)
    for page in (first, second):
        found = page.evaluate(PLAY_STATE)
        assert found["disabled"] == found["should"], found

    # Whenever the turn is someone else's, Play is off in both tabs, whatever is picked.
    install(table, state._replace(turn=1))
    for page in (first, second):
        page.reload()
        wait_until_live(page)
        expect(page.locator("#status.my-turn")).to_have_count(0)
        page.locator("#hand .hand-cards label").last.click()
        expect(page.locator("#play-button")).to_be_disabled()
    # No tab ever told the player to pick cards they had picked.
    for page in (first, second):
        expect(page.locator("#flash")).not_to_contain_text("Select the cards")
