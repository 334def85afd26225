"""A player drops out and comes back (issue #10 item 1), in chromium against Daphne and the live
worker: bo closes his page mid-match; after two of his turns time out the AI plays his seat and
every page marks it; he opens the table again, reads "The AI is playing for you", presses "I'm
back" and plays his next move himself. Screenshots (``make screenshots``): stand_in_*.png."""

from __future__ import annotations

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from games.engine.views import played_cards
from games.models import Match, Move, Seat
from games.play import services

from .helpers import log_in_as, play_until, screenshot, start_with_a_guest, take_turn

pytestmark = pytest.mark.django_db(transaction=True)


def secret_cards_shown(page, table, viewer: int) -> set[str]:
    """Cards the page draws (anywhere: seats, trick, log, hand…) that only another seat may
    see now: held by another seat, neither the viewer's own nor played this round (two decks
    hold two of each card). The page is read first, the match after: a card played meanwhile
    is public by then."""
    shown = set(
        page.evaluate(
            """() => [...document.querySelectorAll('[data-card]')].map(e => e.dataset.card)
               .concat([...document.querySelectorAll('input[name=cards]')].map(e => e.value))"""
        )
    )
    state = services.load_state(Match.objects.get(table=table))
    held = {card for seat, hand in enumerate(state.hands) if seat != viewer for card in hand}
    secret = held - set(state.hands[viewer]) - set(played_cards(state))
    return shown & secret


def test_a_player_who_drops_is_stood_in_and_takes_the_seat_back(new_page):
    ana, bo = new_page(), new_page()
    log_in_as(ana, "ana_si")
    log_in_as(bo, "bo_si")
    url = start_with_a_guest(
        ana,
        bo,
        "Stand-in table",
        fields={"#id_claim_window_seconds": "1", "#id_turn_seconds": "5"},
    )
    expect(bo.locator("#stand-in-button")).to_be_visible()

    bo.close()  # bo drops: his page is gone, his turns run out
    # Two of bo's 5 s turns must run out, with the expert seats' searches between them: at
    # load 10 that took longer than 150 s once. The wait bounds a broken stand-in, not speed.
    marked = play_until(ana, lambda p: p.locator("#stand-in-1").is_visible(), seconds=300)
    assert marked, "two timeouts in a row hand bo's seat to the stand-in"
    expect(ana.locator("#stand-in-1")).to_have_text("away: the AI plays")
    seat = Seat.objects.get(table__name="Stand-in table", number=1)
    assert (seat.user.username, seat.stand_in, seat.ai_policy) == ("bo_si", "away", "expert")
    table = seat.table
    assert secret_cards_shown(ana, table, 0) == set()
    screenshot(ana, "stand_in_marked_for_everyone", full_page=True)

    # The stand-in makes bo's decisions meanwhile (ana keeps playing hers).

    def ai_played_for_bo(_page) -> bool:
        return Move.objects.filter(match__table=table, seat=1, client_id="").exists()

    assert play_until(ana, ai_played_for_bo, seconds=90), "the AI plays bo's seat"

    bo = bo.context.new_page()  # bo comes back: same browser, same session
    bo.goto(url)
    banner = bo.locator("#stand-in-banner")
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("The AI is playing for you")
    expect(bo.locator("#stand-in-1")).to_be_visible()
    # Nothing offers bo a move the AI makes for him (issue #18 §2): no turn, no claim buttons.
    expect(bo.locator("#status.my-turn")).to_have_count(0)
    expect(bo.locator("#claim-form")).to_have_count(0)
    expect(bo.locator("#pass-button")).to_have_count(0)
    assert secret_cards_shown(bo, table, 1) == set()
    screenshot(bo, "stand_in_banner_on_return", full_page=True)
    bo.set_viewport_size({"width": 375, "height": 800})  # a phone: the banner fits, no scroll
    expect(bo.locator("#im-back")).to_be_visible()
    assert bo.evaluate("() => document.scrollingElement.scrollWidth") <= 375
    screenshot(bo, "stand_in_banner_on_return_375", full_page=True)
    bo.set_viewport_size({"width": 1280, "height": 900})

    bo.click("#im-back")
    expect(bo.locator("#stand-in-banner")).to_have_count(0)
    expect(bo.locator("#stand-in-button")).to_be_visible()
    expect(bo.locator("#stand-in-1")).to_have_count(0)
    expect(ana.locator("#stand-in-1")).to_have_count(0)
    seat.refresh_from_db()
    assert (seat.stand_in, seat.ai_policy) == ("", "")
    screenshot(bo, "stand_in_taken_back", full_page=True)

    # bo's next decision is his own: both people play until he has made a move himself.
    def bo_moved(_page) -> bool:
        try:
            take_turn(ana)
        except PlaywrightError:
            pass  # ana's region was re-rendered under the click: her next look
        return Move.objects.filter(match__table=table, seat=1).exclude(client_id="").exists()

    assert play_until(bo, bo_moved, seconds=120), "bo plays his seat again"
    seat.refresh_from_db()
    assert seat.stand_in == ""
    assert secret_cards_shown(bo, table, 1) == set()
    assert secret_cards_shown(ana, table, 0) == set()
