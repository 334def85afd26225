"""A tournament from start to standings in chromium, then its matches watched and replayed.

Staff create a Swiss tournament on the staff pages and open registration; four players, each in
their own browser context, register a team with a partner; staff start it and pair round 1
with AI stand-ins in every seat at a quick target level. The live Celery worker plays both
matches while a spectator watches one (a player's page shows the spectator count), until a
player on each board resigns; the public tournament page then ranks the two winners first, and
a match's record and replay pages step through what happened.
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from accounts.models import User
from games.models import Match, Seat
from games.play import services
from leagues.models import Pairing, Tournament
from leagues.tournaments import do_answer_partner, do_register_team
from tests.e2e.helpers import htmx_settled, log_in_user
from tests.servers import wait_for

pytestmark = pytest.mark.django_db(transaction=True)

TEAMS = [("t_ana", "t_bo"), ("t_cy", "t_di"), ("t_ed", "t_flo"), ("t_gus", "t_hal")]
#: Quick matches (RULES.md §10): target level 3, no claim windows, so AI seats finish fast.
# The rules, set with the create-table form's fields (no JSON box).
OPTIONS = {"target_level": "3", "claim_window_seconds": "0", "turn_seconds": "20"}


def log_in(page, username: str) -> None:
    """Signed in by session cookie (the log-in form has its own tests)."""
    log_in_user(page, User.objects.get(username=username))
    expect(page.locator("#account-menu summary")).to_have_text(username)


def staff_action(page, label: str) -> None:
    page.locator("#tournament-actions").get_by_role("button", name=label).click()
    expect(page.locator(".messages")).to_be_visible()


def standings(page) -> list[list[str]]:
    rows = page.locator("#standings tbody tr")
    return [
        [c.strip() for c in rows.nth(i).locator("td").all_inner_texts()]
        for i in range(rows.count())
    ]


def create_users() -> None:
    """Staff and the eight players."""
    User.objects.create(username="t_boss", is_staff=True)
    for name in (n for team in TEAMS for n in team):
        User.objects.create(username=name)


def test_staff_run_a_tournament_round_that_ai_stand_ins_play_to_the_standings(new_page):
    started = time.monotonic()
    create_users()

    # Staff create the tournament on the staff pages and open registration.
    staff = new_page()
    log_in(staff, "t_boss")
    staff.goto("/tournaments/staff/")
    staff.get_by_role("link", name="New tournament").click()
    staff.fill("#id_name", "E2E Swiss Open")
    staff.select_option("#id_format", "swiss")
    staff.select_option("#id_team_size", "2")
    staff.fill("#id_planned_rounds", "1")
    staff.select_option("#id_options-target_level", OPTIONS["target_level"])
    staff.fill("#id_options-claim_window_seconds", OPTIONS["claim_window_seconds"])
    staff.fill("#id_options-turn_seconds", OPTIONS["turn_seconds"])
    staff.locator("main form button[type=submit]").click()
    expect(staff.locator("#tournament-status")).to_have_text("Draft")
    staff_action(staff, "Open registration")
    expect(staff.locator("#tournament-status")).to_have_text("Registration open")
    tournament = Tournament.objects.get(name="E2E Swiss Open")

    # The first team's captain registers it from the public page, naming the partner, who
    # accepts from the notices page (the team is pending until then); the other three teams
    # register the same way by the services (tests/leagues/test_tournament_flow.py).
    for captain, partner in TEAMS[1:]:
        team = do_register_team(tournament, User.objects.get(username=captain), [partner])
        do_answer_partner(team, User.objects.get(username=partner), accept=True)
    for captain, partner in TEAMS[:1]:
        page = new_page()
        log_in(page, captain)
        page.goto(f"/tournaments/{tournament.pk}/")
        page.get_by_role("link", name="Register a team").click()
        page.fill("#id_partner_1", partner)
        page.locator("main form button[type=submit]").click()
        expect(page.locator("main")).to_contain_text(f"You play in {captain} & {partner}")
        expect(page.locator("main")).to_contain_text("waiting for your partners to accept")
        page.context.close()
        page = new_page()
        log_in(page, partner)
        expect(page.locator("#notices-link .badge")).to_have_text("1")
        page.goto("/leagues/notices/")
        request = page.locator(".notice-partner_request")
        expect(request).to_contain_text(f"{captain} named you as a partner")
        request.get_by_role("button", name="Accept").click()
        welcome = f"You are in team “{captain} & {partner}”"
        expect(page.locator(".messages")).to_contain_text(welcome)
        page.context.close()

    # Staff start the tournament and pair round 1 with AI stand-ins; the matches start at once.
    staff.reload()
    staff_action(staff, "Start")
    expect(staff.locator("#tournament-status")).to_have_text("Running")
    form = staff.locator("#generate-round")
    form.locator("#id_start").check()
    form.locator("#id_stand_in").select_option("heuristic")
    form.get_by_role("button", name="Pair, open the tables and notify the players").click()
    expect(staff.locator(".messages")).to_contain_text("Round 1 is paired")
    pairings = list(
        Pairing.objects.filter(round__tournament=tournament)
        .select_related("table", "team_a", "team_b")
        .order_by("board")
    )
    assert len(pairings) == 2 and all(p.table.status == "playing" for p in pairings)
    print(f"set up in {time.monotonic() - started:.1f}s")

    # A spectator watches board 1 from the public page; the seated player sees the count.
    board = pairings[0]
    spectator = new_page()
    spectator.goto(f"/tournaments/{tournament.pk}/")
    spectator.locator("#live-matches a").first.click()
    expect(spectator.locator("#status")).to_contain_text("Round")
    assert spectator.locator("#hand input[name=cards]").count() == 0
    player = new_page()
    log_in(player, board.team_a.members.order_by("pk").first().user.username)
    player.goto(f"/tables/{board.table_id}/")
    expect(player.locator("#spectators")).to_contain_text("1 spectator watching")
    spectator.context.close()
    expect(player.locator("#spectators")).to_be_hidden()
    player.context.close()

    # The Celery worker's AI stand-ins play on; once board 1 has some tricks in its log, a
    # player on each board resigns for their team (board 1's team B, board 2's team A): short
    # matches whose move logs replay, ended through the writer, whose commit feeds the pairing.
    # (Whole AI matches through the worker: tests/games/play/test_ai_turns.py.)
    assert wait_for(lambda: Match.objects.get(table_id=board.table_id).version >= 12, 60)
    for p, seat in zip(pairings, (1, 0), strict=True):
        match = Match.objects.get(table_id=p.table_id)
        person = Seat.objects.get(table_id=p.table_id, number=seat).user
        resign = {"action": "resign", "version": match.version}
        assert services.submit(match.pk, person, resign).ok
    deadline = time.monotonic() + 60
    while Pairing.objects.filter(round__tournament=tournament, processed_at__isnull=True).exists():
        assert time.monotonic() < deadline, "the matches did not end in time"
        time.sleep(1)
    played = Match.objects.filter(table__pairing__round__tournament=tournament)
    print(
        f"matches over after {time.monotonic() - started:.1f}s:",
        [(m.version, m.round_no) for m in played],
    )

    # The public standings rank both winners first with one win each.
    page = new_page()
    page.goto(f"/tournaments/{tournament.pk}/")
    rows = standings(page)
    winners = {
        p.winner.name
        for p in Pairing.objects.filter(round__tournament=tournament).select_related(
            "team_a", "team_b"
        )
    }
    assert [int(r[0]) for r in rows] == [1, 2, 3, 4]
    assert {rows[0][1], rows[1][1]} == winners
    assert [int(r[3]) for r in rows] == [1, 1, 0, 0]  # won
    expect(page.locator("#round-1 .pill.won")).to_have_count(2)

    # Board 1's record and replay: every move listed; the replay steps by keys to the end.
    page.locator("#round-1 a.record-link").first.click()
    expect(page.locator("#record-result")).to_contain_text("won the match")
    # The moves are listed a round at a time; the heading counts them all.
    assert page.locator("#record-moves tr[id^=move-]").count() > 0
    moves = int(page.locator("#record-moves h2 .muted").inner_text().strip("()"))
    shown = Match.objects.get(pk=int(re.search(r"/matches/(\d+)/", page.url).group(1)))
    assert moves == shown.version
    page.locator("#record-replay-link").click()
    expect(page.locator("#replay-position")).to_have_text(f"Move 0 of {moves}")
    expect(page.locator("#replay-hands .playing-card")).to_have_count(108)
    page.wait_for_load_state()  # replay.js (deferred) listens for the keys
    page.evaluate("window.sameDocument = true")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay-position")).to_have_text(f"Move 1 of {moves}")
    assert re.search(r"step=1\b", page.url)
    # A key pressed while a step is still settling waits for it; one pressed while a step is on
    # its way is not dropped either. Every step is htmx's, never a page load.
    page.keyboard.press("End")
    expect(page.locator("#replay-position")).to_have_text(f"Move {moves} of {moves}")
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay-position")).to_have_text(f"Move 1 of {moves}")
    page.keyboard.press("End")
    expect(page.locator("#replay-position")).to_have_text(f"Move {moves} of {moves}")
    assert page.evaluate("window.sameDocument === true")
    expect(page.locator("#result")).to_contain_text("wins the match")
    htmx_settled(page)  # the swapped-in seat menu listens for its change once htmx settled it
    page.select_option("#replay-seat", "1")
    expect(page.locator("#replay-hands .replay-hand")).to_have_count(1)
    print(f"done in {time.monotonic() - started:.1f}s")
