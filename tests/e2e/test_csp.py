"""The Content Security Policy holds in chromium: the lobby, a live table (seat and spectator,
with its WebSocket and pushed frames) and the league pages run without a single violation."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from playwright.sync_api import expect

from accounts.models import User
from leagues import services as leagues
from tests.e2e.helpers import (
    log_in_as,
    open_started_table,
    play_until,
    stop_tables_after_the_test,  # noqa: F401 - autouse fixture
)

pytestmark = pytest.mark.django_db(transaction=True)

# Runs before any script of the page (an init script is outside the page's policy): records
# every violation the browser reports to the page.
RECORD_VIOLATIONS = """
window.__csp = [];
document.addEventListener('securitypolicyviolation', e => window.__csp.push(
    `${e.violatedDirective} blocked ${e.blockedURI || 'inline'}`
    + ` (${e.sourceFile}:${e.lineNumber})`));
"""


def watch(page) -> list[str]:
    """Console messages of ``page`` about the policy, gathered as they come."""
    heard: list[str] = []
    page.add_init_script(RECORD_VIOLATIONS)

    def on_console(message) -> None:
        text = message.text
        if "Content Security Policy" in text or "Content-Security-Policy" in text:
            heard.append(text)

    page.on("console", on_console)
    return heard


def assert_no_violation(page, heard: list[str], what: str) -> None:
    page.wait_for_load_state("load")
    reported = page.evaluate("() => window.__csp || []")
    assert not heard and not reported, f"{what}: {heard + reported}"


def test_no_policy_violation_on_the_lobby_table_and_league_pages(new_page) -> None:
    player = new_page()
    heard = watch(player)
    response = player.goto("/")
    policy = response.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy
    assert_no_violation(player, heard, "lobby, signed out")

    log_in_as(player, "csp_ana")
    expect(player.locator("#lobby-live")).to_be_visible()
    assert_no_violation(player, heard, "lobby, signed in")

    # A live table: the socket connects (connect-src), frames are pushed and swapped, a claim
    # window opens and its timer bar moves (a style set from table.js).
    table_url = open_started_table(player, claim_seconds=3)
    expect(player.locator("#hand input[name=cards]")).to_have_count(27)
    assert play_until(player, lambda p: p.locator("#claim-form").is_visible())
    assert_no_violation(player, heard, "table, seat")

    spectator = new_page()
    watched = watch(spectator)
    spectator.goto(table_url)
    expect(spectator.locator("#trick")).to_be_visible()
    assert_no_violation(spectator, watched, "table, spectator")

    # The league pages, as the league's organiser.
    organiser = User.objects.get(username="csp_ana")
    league = leagues.do_create_league(organiser, name="CSP League", description="Evenings.")
    season = leagues.do_create_season(
        league,
        organiser,
        name="Winter",
        starts_on=date.today(),
        ends_on=date.today() + timedelta(days=30),
    )
    for path in (
        "/leagues/",
        f"/leagues/{league.slug}/",
        f"/leagues/{league.slug}/seasons/{season.pk}/",
        f"/leagues/{league.slug}/players/csp_ana/",
        f"/leagues/{league.slug}/manage/",
        "/tournaments/",
        "/rules/",
    ):
        response = player.goto(path)
        assert response.status == 200, path
        assert_no_violation(player, heard, path)


def test_playing_a_few_moves_reports_no_policy_violation(new_page) -> None:
    """A snapshot re-renders the whole hand (a lost push, a reconnect, a new deal), whose cards
    keep their ids and carry the order table_view.js sorted them by (``style.order``). htmx's
    settling used to copy each old card's style attribute onto the new one with setAttribute,
    which ``style-src 'self'`` blocks: a violation per card per snapshot on a player's page
    (QA). base.html now settles no style."""
    player = new_page()
    heard = watch(player)
    log_in_as(player, "csp_bo", landing=None)
    open_started_table(player, claim_seconds=0, turn_seconds=60)
    cards = player.locator("#hand input[name=cards]")
    expect(cards).to_have_count(27)
    # Sorted by suit (not as rendered): every card carries an order.
    player.click(".hand-sort [data-sort=suit]")
    expect(player.locator("#hand label[style*='order']")).to_have_count(27)
    assert play_until(player, lambda p: cards.count() <= 25), "this seat did not play"
    # A lost push: the page asks for a snapshot, which swaps the whole hand in.
    snapshots = player.evaluate("() => window.club414.snapshots")
    player.evaluate("() => { window.club414.dropFrames = 1; }")
    assert play_until(
        player, lambda p: p.evaluate("() => window.club414.snapshots") > snapshots, seconds=60
    ), "no snapshot came after a lost push"
    expect(player.locator("#hand label[style*='order']")).to_have_count(cards.count())
    assert_no_violation(player, heard, "table, after moves and a snapshot")
