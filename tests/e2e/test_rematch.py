"""After the match (issue #10 item 4), in chromium against Daphne and the live worker: ana (at
1280 px) and bo (a 375 px phone) play a quick match to 3 with two AI seats; its last round is
set up so that their team wins in one trick, bo going out first. The result panel explains
it; ana asks for a rematch, bo accepts, and both pages go by themselves to the new table,
where the new match has started with the same seats; ana's profile counts the match. Screenshots
(``make screenshots``): rematch-*-{375,1280}.png."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone
from playwright.sync_api import expect

from games.engine.codec import state_to_json
from games.engine.deal import start_round
from games.models import Match, Rematch, Seat, Table

from .helpers import (
    axe_violations,
    describe,
    log_in_as,
    screenshot,
    start_with_a_guest,
    stop_tables_after_the_test,  # noqa: F401 - autouse fixture: the rematch's match stops
    wait_until_live,
)

pytestmark = pytest.mark.django_db(transaction=True)


def install_last_round(table: Table) -> None:
    """Team 1 (ana at seat 0, bo at seat 2) at the target level 3, bo to lead his last card
    (JH); the AI seats cannot beat it; ana's KH then ends the round with both AI seats caught:
    the match is won (RULES.md §7, §8). Under the match's row lock, with a version past every
    move made so far, so no earlier timer or AI wake-up applies to it."""
    with transaction.atomic():
        match = Match.objects.select_for_update().get(table=table)
        hands = [("KH",), ("2D", "4D"), ("JH",), ("2S", "4S")]
        state = start_round(table.engine_options(), hands, 3, (3, 2), leader=2, seed=9)
        state = state._replace(version=match.version + 1)
        match.state = state_to_json(state)
        match.version = match.deadline_token = state.version
        match.phase = state.phase
        match.level_team0, match.level_team1 = 3, 2
        match.deadline = timezone.now() + timedelta(minutes=5)
        match.save()
        match.rounds.update(level=3, levels_before=[3, 2])


def no_overflow(page) -> None:
    width = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], f"the page scrolls sideways: {width}"


def test_a_finished_match_is_explained_and_rematched_with_the_same_seats(new_page):
    ana, bo = new_page(1280, 900), new_page(375, 800)
    log_in_as(ana, "ana_rm")
    log_in_as(bo, "bo_rm")
    first_url = start_with_a_guest(
        ana,
        bo,
        "Rematch table",
        guest_seat=2,
        fields={
            "#id_target_level": "3",
            "#id_claim_window_seconds": "0",
            "#id_turn_seconds": "60",
        },
    )

    table = Table.objects.get(name="Rematch table")
    install_last_round(table)
    for page in (ana, bo):
        page.reload()
        wait_until_live(page)
        expect(page.locator("#hand-form")).to_be_visible()
    expect(bo.locator("#status.my-turn")).to_be_visible()
    bo.click("#hint-button")
    bo.click("#play-button")
    expect(ana.locator("#status.my-turn")).to_be_visible(timeout=20_000)  # seat 3 passed
    ana.click("#hint-button")
    ana.click("#play-button")

    for page in (ana, bo):
        result = page.locator("#result")
        expect(result).to_contain_text("Team 1 wins the match!")
        explained = page.locator("#result-explained")
        expect(explained).not_to_contain_text("went out first")
        expect(explained).to_contain_text("2 opponents were caught: AI 2, AI 4.")
        expect(explained).to_contain_text(
            "Team 1 wins the match: it started the round at the target level 3 and caught "
            "every opponent."
        )
        expect(page.locator("#rematch-button")).to_be_visible()
    violations = axe_violations(ana)
    assert not violations, describe(violations)
    for page, width in ((ana, 1280), (bo, 375)):
        page.locator("#result").scroll_into_view_if_needed()
        screenshot(page, f"rematch-result-{width}", full_page=True)
        no_overflow(page)

    ana.click("#rematch-button")
    expect(ana.locator("#rematch-waiting")).to_be_visible()
    expect(bo.locator("#rematch")).to_contain_text("ana_rm asks for a rematch")
    expect(bo.locator("#rematch-accept")).to_be_visible()
    expect(bo.locator("#rematch .countdown-rematch")).to_be_visible()
    # On the phone the answer and its seconds are on the first screen, above the result.
    bo.evaluate("() => scrollTo(0, 0)")
    for part in ("#rematch-accept", "#rematch .countdown-rematch"):
        assert bo.locator(part).evaluate("e => e.getBoundingClientRect().bottom") <= 800, part
    for page, width in ((ana, 1280), (bo, 375)):
        page.locator("#rematch").scroll_into_view_if_needed()
        screenshot(page, f"rematch-asked-{width}", full_page=True)
        no_overflow(page)
    violations = axe_violations(bo)
    assert not violations, describe(violations)

    bo.click("#rematch-accept")
    new_table = re.compile(rf"/tables/(?!{table.pk}/)\d+/$")
    for page in (ana, bo):
        expect(page).to_have_url(new_table, timeout=20_000)
        expect(page.locator("#hand-form")).to_be_visible()
    assert ana.url == bo.url
    new = Rematch.objects.get(table=table).new_table
    assert ana.url.endswith(f"/tables/{new.pk}/")
    seats = list(
        Seat.objects.filter(table=new).order_by("number").values_list("user__username", "ai_policy")
    )
    assert seats == list(
        Seat.objects.filter(table=table)
        .order_by("number")
        .values_list("user__username", "ai_policy")
    )
    assert seats[0][0] == "ana_rm" and seats[2][0] == "bo_rm"
    assert Match.objects.get(table=new).winner_team is None
    expect(bo.locator("#seat-2 .badge.you")).to_be_visible()
    for page, width in ((ana, 1280), (bo, 375)):
        screenshot(page, f"rematch-new-table-{width}")
        no_overflow(page)

    # The finished match was counted once it ended (games.records.player_stats): on ana's profile,
    # her partner bo.
    ana.goto("/accounts/ana_rm/")
    expect(ana.locator("#rounds-won")).to_have_text("1")
    expect(ana.locator("#levels-gained")).to_have_text("1")
    expect(ana.locator("#favourite-partners")).to_contain_text("bo_rm")
    screenshot(ana, "rematch-profile-1280", full_page=True)
    bo.goto("/leaderboard/")
    expect(bo.locator("#leaderboard")).to_contain_text("No rated match")  # AI seats: casual
    screenshot(bo, "rematch-leaderboard-375", full_page=True)
    no_overflow(bo)

    # Back on the finished table, nobody is sent away again; the way to the rematch is shown.
    ana.goto(first_url)
    expect(ana.locator("#rematch-link")).to_have_attribute("href", f"/tables/{new.pk}/")
    ana.wait_for_function("() => window.club414 && window.club414.snapshots >= 1")
    expect(ana.locator("#rematch-link")).to_be_visible()  # the socket's snapshot kept it
    assert ana.url == first_url
