"""The site header at 1280 px stays one line with a notice badge, in every language; and the
"confirm before playing" preference asks before a play is sent (issue #10 item 9).

Screenshots (``make screenshots``): header-1280-<lang>.png, confirm-play.png.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import (  # noqa: F401 - stop_tables_after_the_test is an autouse fixture
    log_in_as,
    log_in_user,
    open_started_table,
    screenshot,
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
    screenshot(page.locator(".site-header"), f"header-1280-{language}")
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
    screenshot(page, "confirm-play")
    page.once("dialog", lambda dialog: answer(dialog, accept=True))
    page.click("#play-button")
    assert len(asked) == 2
    expect(page.locator("#hand-form .card-check")).not_to_have_count(before)


def test_a_page_says_so_when_another_tab_signs_in(new_page) -> None:
    """Two tabs of one browser: while the second moves about signed out, the first says
    nothing; when the second signs in, the first (still the signed-out session's page: its old
    CSRF token, its old socket) says so and offers a reload, which shows it signed in."""
    from accounts.models import User

    first = new_page(1280, 800)
    first.goto("/")
    expect(first.locator("form[action$='/logout/']")).to_have_count(0)
    second = first.context.new_page()
    second.goto("/rules/")
    notice = first.locator("#session-changed")
    expect(notice).to_be_hidden()  # the same session: nothing changed
    user = User.objects.create_user(username="two_tabs", password="x-Password-414")
    log_in_user(second, user)
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("another tab")
    first.locator("#session-reload").click()
    first.wait_for_load_state()
    expect(first.locator("form[action$='/logout/']")).to_have_count(1)
    expect(first.locator("#session-changed")).to_be_hidden()
