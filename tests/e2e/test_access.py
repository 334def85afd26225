"""Every player: axe-core finds no serious or critical problem on the main pages (a seat and a
spectator at a live table included), in English and in a translated language."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import (
    axe_violations,
    describe,
    log_in_as,
    open_started_table,
    play_until,
    sign_up_in,
    stop_tables_after_the_test,  # noqa: F401 - autouse fixture
)

pytestmark = pytest.mark.django_db(transaction=True)


def assert_accessible(page, what: str) -> None:
    violations = axe_violations(page)
    assert not violations, f"{what}: axe-core found\n{describe(violations)}"


@pytest.mark.parametrize("language", ["en", "vi"])
def test_axe_finds_no_serious_problem_on_the_main_pages(new_page, language: str) -> None:
    anonymous = new_page()
    for path in ("/", "/accounts/signup/", "/accounts/login/", "/rules/"):
        anonymous.goto(path)
        if language != "en" and path == "/":
            anonymous.select_option("#language-select", language)
            anonymous.click("form.language button[type=submit]")
            expect(anonymous.locator("html")).to_have_attribute("lang", language)
        assert_accessible(anonymous, f"{path} ({language}, signed out)")

    player = new_page()
    name = f"axe_{language}"
    sign_up_in(player, name, language)
    for path in (
        "/",
        f"/accounts/{name}/",
        "/accounts/preferences/",
        "/tables/new/",
        "/leaderboard/",
    ):
        player.goto(path)
        assert_accessible(player, f"{path} ({language}, signed in)")

    table_url = open_started_table(player)
    expect(player.locator("#hand input[name=cards]")).to_have_count(27)
    assert_accessible(player, f"table, seat ({language})")

    anonymous.goto(table_url)
    expect(anonymous.locator("#status")).to_be_visible()
    expect(anonymous.locator("#trick")).to_be_visible()
    assert_accessible(anonymous, f"table, spectator ({language})")

    # A claim window on a seat's page: the claim bar is open over the hand.
    assert play_until(player, lambda p: p.locator("#claim-form").is_visible())
    assert_accessible(player, f"table, claim window ({language})")


def test_axe_on_the_table_at_phone_size(new_page) -> None:
    page = new_page(375, 740)
    log_in_as(page, "axe_phone", landing=None)
    open_started_table(page)
    assert_accessible(page, "table at 375 px")
