"""The site header at 1280 px stays one line with a notice badge, in every language; and the
"confirm before playing" preference asks before a play is sent (issue #10 item 9).

Screenshots go to var/screenshots/ (header-1280-<lang>.png, confirm-play.png).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import (  # noqa: F401 - stop_tables_after_the_test is an autouse fixture
    SCREENSHOTS,
    log_in_as,
    open_started_table,
    stop_tables_after_the_test,
)

pytestmark = pytest.mark.django_db(transaction=True)

# Each shown item of the header: its box's vertical middle and its width.
HEADER_ITEMS = """() => Array.from(document.querySelectorAll('.site-header .nav > *'))
  .filter(el => el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden')
  .map(el => { const r = el.getBoundingClientRect();
               return {tag: el.tagName, text: el.textContent.trim().slice(0, 30),
                       middle: r.top + r.height / 2, width: r.width, right: r.right}; })"""


def give_notices(username: str, count: int) -> None:
    """``count`` unseen notices for the player (the header's badge shows their number)."""
    from accounts.models import User
    from leagues.models import League, Notice

    league = League.objects.create(name="Badge League", slug=f"badge-{username}")
    user = User.objects.get(username=username)
    Notice.objects.bulk_create(
        Notice(user=user, kind=Notice.Kind.MEMBERSHIP_APPROVED, league=league) for _ in range(count)
    )


@pytest.mark.parametrize("language", ["en", "es", "id", "vi"])
def test_the_header_is_one_line_at_1280_px_with_a_notice_badge(new_page, language) -> None:
    page = new_page(1280, 800)
    username = f"longname_{language}_player"
    log_in_as(page, username, language)
    give_notices(username, 12)
    page.goto("/")
    badge = page.locator("#notices-link .badge")
    expect(badge).to_have_text("12")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.locator(".site-header").screenshot(path=str(SCREENSHOTS / f"header-1280-{language}.png"))
    items = page.evaluate(HEADER_ITEMS)
    middles = [item["middle"] for item in items]
    assert max(middles) - min(middles) < 6, items  # one row: every item on the same line
    assert all(item["right"] <= 1280 for item in items), items
    # Nothing inside an item wraps either: the notices link and its badge share one line.
    link = page.locator("#notices-link").bounding_box()
    assert link["height"] < 40, link
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 1280


def test_confirm_before_playing_asks_and_no_sends_nothing(new_page) -> None:
    page = new_page(1280, 900)
    log_in_as(page, "careful")
    page.goto("/accounts/preferences/")
    page.check("#id_confirm_play")
    page.click("form[action$='/preferences/'] button[type=submit]")
    page.goto("/accounts/preferences/")
    expect(page.locator("#id_confirm_play")).to_be_checked()
    open_started_table(page, claim_seconds=0, turn_seconds=60)
    expect(page.locator("#table-page")).to_have_attribute("data-confirm-play", "on")
    expect(page.locator("#status.my-turn")).to_have_count(1, timeout=60_000)
    before = page.locator("#hand-form .card-check").count()
    page.click("#hint-button")
    picked = page.locator("#hand-form .card-check:checked")
    expect(picked).not_to_have_count(0)
    asked: list[str] = []

    def answer(dialog, accept: bool) -> None:
        asked.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()

    page.once("dialog", lambda dialog: answer(dialog, accept=False))
    page.click("#play-button")
    assert len(asked) == 1 and asked[0].startswith("Play ") and asked[0].endswith("?"), asked
    # Said no: nothing was sent, so the buttons are not locked and the cards stay picked.
    expect(page.locator("#play-button")).to_be_enabled()
    assert page.locator("#hand-form .card-check").count() == before
    assert page.locator("#hand-form .card-check:checked").count() >= 1
    assert "/tables/" in page.url and "action=" not in page.url
    page.screenshot(path=str(SCREENSHOTS / "confirm-play.png"))
    page.once("dialog", lambda dialog: answer(dialog, accept=True))
    page.click("#play-button")
    assert len(asked) == 2
    expect(page.locator("#hand-form .card-check")).not_to_have_count(before)


def test_a_staff_member_creates_a_league_with_the_rules_fields_and_a_player_is_told_who_can(
    new_page,
) -> None:
    """The new-league page has the create-table form's rules fields (no JSON box); the rules
    saved are the league's and its Organise page edits them; a player at /leagues/new/ reads
    who creates leagues. Screenshots: league-new.png, league-options.png, league-refused.png."""
    from accounts.models import User
    from leagues.models import League

    player = new_page(1280, 900)
    log_in_as(player, "hopeful")
    player.goto("/leagues/new/")
    expect(player.locator("#league-create-refused h1")).to_have_text("Who can create a league")
    player.screenshot(path=str(SCREENSHOTS / "league-refused.png"), full_page=True)

    page = new_page(1280, 900)
    log_in_as(page, "organiser_boss")
    User.objects.filter(username="organiser_boss").update(is_staff=True)
    page.goto("/leagues/new/")
    assert page.locator("#id_table_options").count() == 0
    page.fill("#id_name", "Thursday Club")
    page.select_option("#id_options-target_level", "5")
    page.fill("#id_options-turn_seconds", "25")
    page.locator("details.advanced summary").click()
    page.check("#id_options-joker_hook")
    page.screenshot(path=str(SCREENSHOTS / "league-new.png"), full_page=True)
    page.locator("#league-form button[type=submit]").click()
    expect(page.locator("h1")).to_have_text("Thursday Club")
    league = League.objects.get(name="Thursday Club")
    assert league.table_options["target_level"] == "5"
    assert (league.table_options["turn_seconds"], league.table_options["joker_hook"]) == (25, True)
    page.goto(f"/leagues/{league.slug}/manage/")
    page.click("#edit-league-options")
    expect(page.locator("#id_options-target_level")).to_have_value("5")
    page.select_option("#id_options-target_level", "A")
    page.screenshot(path=str(SCREENSHOTS / "league-options.png"), full_page=True)
    page.locator("#options-form button[type=submit]").click()
    expect(page.locator(".messages")).to_contain_text("The table options are saved")
    league.refresh_from_db()
    assert league.table_options["target_level"] == "A"
