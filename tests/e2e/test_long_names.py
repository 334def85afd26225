"""A 150-character username without a space (the longest the account model holds) widens no
page and hides no badge: the lobby (its live matches too), the profile, the tournaments and the
table during the own turn and the round's result naming it fit 1280×800, 375×740 and 740×375
without sideways scrolling; at the
table the name ends in an ellipsis with the whole of it in its title, and the seat's "you"
badge is whole. Screenshots (``make screenshots``): one-screen/long-*.png."""

from __future__ import annotations

import re

import pytest

from games.models import Table

from .helpers import axe_violations, log_in_as, open_started_table, wait_until_live
from .measures import MEASURE, WORDS_WHOLE
from .phases import BUTTONS, claim_window, round_over, settle, shoot, show_phase, your_turn

pytestmark = pytest.mark.django_db(transaction=True)

LONG = "W" * 150
SIZES = [(1280, 800), (375, 740), (740, 375)]

SIDEWAYS = """() => {
  const se = document.scrollingElement;
  return se.scrollWidth > innerWidth + 1 ? [`the page scrolls sideways: ${se.scrollWidth}`] : [];
}"""

# Every line of the round's result inside the screen and its sheet (a caught player's name is
# in its sentences): a 30-letter name once pushed them past a phone's right edge, cut.
RESULT_FITS = """() => {
  const result = document.querySelector('#result');
  if (!result || result.hidden) return ['no result shown'];
  const out = [];
  if (result.scrollWidth > result.clientWidth + 1) out.push(`it scrolls: ${result.scrollWidth}`);
  for (const el of result.querySelectorAll('h2, p, li, dd')) {
    const r = el.getBoundingClientRect();
    if (r.width && r.right > innerWidth + 1) out.push(`${el.tagName} ends at ${r.right}`);
  }
  return out;
}"""

YOU = """() => {
  const you = document.querySelector('#seats .seat.me .badge.you');
  if (!you) return ['no "you" badge'];
  const r = you.getBoundingClientRect();
  return you.scrollWidth > you.clientWidth + 1 || r.width < 1
    ? [`the "you" badge is cut: ${you.scrollWidth} > ${you.clientWidth}`] : [];
}"""


def test_a_very_long_name_widens_no_page(new_page) -> None:
    page = new_page(1280, 800)
    log_in_as(page, LONG, landing=None)
    url = open_started_table(page, claim_seconds=10, turn_seconds=60)
    table = Table.objects.get(host__username=LONG)
    problems: dict[str, list[str]] = {}
    show_phase(page, table, your_turn)
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        settle(page)
        shoot(page, f"long-table-{width}x{height}")
        need = {"cards": 27, "shown": [".top-play", *BUTTONS], "seats": 4}
        found = page.evaluate(MEASURE, need) + page.evaluate(YOU)
        if found:
            problems[f"table {width}x{height}"] = found
    state = show_phase(page, table, round_over)
    assert state.hands[0], "seed 3 no longer leaves seat 0 caught: pick another"
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        settle(page)
        shoot(page, f"long-result-{width}x{height}")
        found = page.evaluate(RESULT_FITS) + page.evaluate(SIDEWAYS)
        if found:
            problems[f"result {width}x{height}"] = found
    other = new_page(1280, 800)
    log_in_as(other, "a_visitor")
    for path in ("/", f"/accounts/{LONG}/", "/tournaments/", url):
        for who, viewer in (("self", page), ("visitor", other)):
            if path == url and who == "self":
                continue
            viewer.goto(path)
            for width, height in SIZES:
                viewer.set_viewport_size({"width": width, "height": height})
                settle(viewer)
                name = path.strip("/").replace("/", "_")[:20] or "lobby"
                shoot(viewer, f"long-{who}-{name}-{width}x{height}")
                found = viewer.evaluate(SIDEWAYS)
                if found:
                    problems[f"{who} {path[:30]} {width}x{height}"] = found
    assert not problems, "\n".join(f"{k}: {v[:6]}" for k, v in problems.items())


def test_a_spectator_reads_the_claim_window_as_a_fact(new_page) -> None:
    """A spectator's claim bar states the window ("AI 3's K can be hooked"), no question, and
    on a phone it is a thin strip: the felt keeps its seats and status above it."""
    from playwright.sync_api import expect

    page = new_page(1280, 800)
    log_in_as(page, "window_host", landing=None)
    url = open_started_table(page, claim_seconds=10, turn_seconds=60)
    table = Table.objects.get(host__username="window_host")
    show_phase(page, table, claim_window)
    watcher = new_page(375, 740)
    log_in_as(watcher, "window_watcher")
    watcher.goto(url)
    # Measured once the socket's snapshot has replaced the page's own render (a snapshot landing
    # mid-measure swapped the bar away under a loaded CI run: its box was None).
    wait_until_live(watcher)
    watcher.wait_for_function("() => window.club414.snapshots >= 1")
    bar = watcher.locator("#claim-bar")
    expect(bar).to_have_class(re.compile(r"\bwatching\b"))
    expect(watcher.locator("#claim-bar .claim-title")).to_contain_text("can be hooked")
    expect(watcher.locator("#claim-bar .claim-title")).not_to_contain_text("?")
    expect(watcher.locator("#claim-button")).to_have_count(0)
    for width, height in SIZES:
        watcher.set_viewport_size({"width": width, "height": height})
        settle(watcher)
        shoot(watcher, f"spectator-window-{width}x{height}")
        assert watcher.evaluate(SIDEWAYS) == []
        if width < 960 and height > 480:
            box = bar.bounding_box()
            assert box is not None and box["height"] <= 48, box
            assert box["y"] + box["height"] <= height + 0.5
    expect(page.locator("#claim-bar")).not_to_have_class(re.compile(r"\bwatching\b"))


def test_words_break_only_between_words(new_page) -> None:
    """In Spanish, at 375 px in a claim window the seats' markers ("reclamable",
    "✓ respondió") stay inside their seats, whole words; after the match the record's table
    options at 1280 px break only between words ("no", "teammate" whole)."""
    from playwright.sync_api import expect

    from games.models import Match

    page = new_page(375, 740)
    log_in_as(page, "palabras", "es", landing=None)
    open_started_table(page, claim_seconds=10, turn_seconds=60)
    table = Table.objects.get(host__username="palabras")
    show_phase(page, table, claim_window)
    settle(page)
    shoot(page, "words-window-375x740")
    assert page.evaluate(WORDS_WHOLE, "#seats .seat-info .marker") == []
    page.set_viewport_size({"width": 1280, "height": 800})
    page.click("#resign-button")
    page.click("#resign-yes")
    expect(page.locator("#status")).to_have_attribute("data-phase", "match_over", timeout=10000)
    match = Match.objects.get(table=table)
    page.goto(f"/matches/{match.pk}/")
    settle(page)
    shoot(page, "words-record-1280x800")
    assert page.evaluate(WORDS_WHOLE, ".record-options :is(dt, dd)") == []


# The page never scrolls sideways; a table wider than its card scrolls inside its own box (a
# wrapper that scrolls, reachable by the keyboard), the page's width untouched.
TABLES_IN_THEIR_BOX = """() => {
  const out = [], se = document.scrollingElement;
  if (se.scrollWidth > innerWidth + 1) out.push(`the page scrolls sideways: ${se.scrollWidth}`);
  for (const table of document.querySelectorAll('table.data')) {
    const r = table.getBoundingClientRect();
    if (r.width < 1) continue;
    const box = table.parentElement;
    const scrolls = getComputedStyle(box).overflowX === 'auto' && box.tabIndex === 0;
    if (r.right > innerWidth + 0.5 && !scrolls)
      out.push(`${table.id || table.className} is ${Math.round(r.width)} px wide in no scroll box`);
    if (!scrolls) out.push(`${table.id || table.className} is not in its own scroll box`);
    else if (box.getBoundingClientRect().right > innerWidth + 0.5)
      out.push(`the box of ${table.id || table.className} overflows the page`);
  }
  return out;
}"""


@pytest.mark.parametrize("language", ["es", "id", "vi", "en"])
def test_league_and_tournament_tables_scroll_in_their_own_box(new_page, language) -> None:
    """375 px: the Spanish standings ("Niveles ganados", "Jugadores pillados") were 531 px wide
    and the whole league page scrolled sideways. Every league, season, player, tournament and
    leaderboard table sits in its own box that scrolls (the page never does), in each language."""
    from datetime import date, timedelta

    from accounts.models import User
    from leagues import services as leagues
    from leagues.tournaments import (
        do_answer_partner,
        do_create_tournament,
        do_generate_round,
        do_open_registration,
        do_register_team,
        do_start,
    )

    page = new_page(375, 740)
    log_in_as(page, f"liga_{language}", language)
    organiser = User.objects.get(username=f"liga_{language}")
    organiser.is_staff = True
    organiser.save(update_fields=["is_staff"])
    players = [User.objects.create(username=f"{language}_jugadora_{i}") for i in range(8)]
    league = leagues.do_create_league(organiser, name=f"Liga {language}", description="Tardes.")
    season = leagues.do_create_season(league, organiser, name="Invierno", starts_on=date.today(),
                                      ends_on=date.today() + timedelta(days=30))  # fmt: skip
    for user in players[:4]:
        leagues.do_add_member(league, organiser, user)
    leagues.do_create_fixture(season, organiser, [players[0:2], players[2:4]])
    tournament = do_create_tournament(organiser, name=f"Copa {language}")
    do_open_registration(tournament, organiser)
    for a, b in (players[0:2], players[2:4], players[4:6], players[6:8]):
        do_answer_partner(do_register_team(tournament, a, [b.username]), b, True)
    do_start(tournament, organiser)
    do_generate_round(tournament, organiser, start=False)
    problems = {}
    for number, path in enumerate(
        (
            f"/leagues/{league.slug}/",
            f"/leagues/{league.slug}/seasons/{season.pk}/",
            f"/leagues/{league.slug}/players/{players[0].username}/",
            f"/leagues/{league.slug}/manage/",
            "/tournaments/",
            f"/tournaments/{tournament.pk}/",
            f"/tournaments/{tournament.pk}/manage/",
            "/tournaments/staff/",
            "/leaderboard/",
        )
    ):
        assert page.goto(path).status == 200, path
        page.evaluate("() => document.querySelector('table.data')?.scrollIntoView()")
        shoot(page, f"league-tables-{language}-375-{number}")
        found = page.evaluate(TABLES_IN_THEIR_BOX)
        found += [v["id"] for v in axe_violations(page, ("moderate", "serious", "critical"))]
        page.emulate_media(reduced_motion="no-preference")
        if found:
            problems[path] = found
    assert not problems, problems


# Each number input of the tables as drawn: its value wider than its box (a digit cut off).
VALUES_CUT = """() => [...document.querySelectorAll('table.data input[type="number"]')]
  .filter(input => input.scrollWidth > input.clientWidth + 1)
  .map(i => `${i.name} cuts "${i.value}": ${i.scrollWidth} > ${i.clientWidth}`)"""


def test_organising_pages_break_words_and_buttons_only_between_words(new_page) -> None:
    """The league's Organise page and the tournament's manage page at 1280 px, the tournament's
    page at 375 px: the table options read "n/o" and "teamma/te", the buttons "Recor/d",
    "Repl/ace", "With/draw", and a result refused (99999 caught) stood its Record button on end
    beside inputs too narrow for their values. Words, buttons and values stay whole; a table
    wider than its card scrolls in its own box."""
    from datetime import date, timedelta

    from accounts.models import User
    from games.forms import TableOptionsForm
    from leagues import services as leagues
    from leagues.tournaments import (
        do_answer_partner,
        do_create_tournament,
        do_open_registration,
        do_register_team,
        do_start,
    )

    # Every option listed (as once "Change the table options" is saved): "no" and "their
    # teammate" among the values.
    initial = {name: field.initial for name, field in TableOptionsForm.base_fields.items()}
    form = TableOptionsForm(
        {name: "on" if value is True else value for name, value in initial.items()
         if value is not False and value is not None} | {"target_level": "3"}, players=4
    )  # fmt: skip
    assert form.is_valid(), form.errors
    every = form.options()
    page = new_page(1280, 800)
    log_in_as(page, "organiser_words")
    organiser = User.objects.get(username="organiser_words")
    organiser.is_staff = True
    organiser.save(update_fields=["is_staff"])
    players = [User.objects.create(username=f"words_{i}") for i in range(4)]
    league = leagues.do_create_league(organiser, name="Words", table_options=every)
    season = leagues.do_create_season(league, organiser, name="S1", starts_on=date.today(),
                                      ends_on=date.today() + timedelta(days=30))  # fmt: skip
    for user in players:
        leagues.do_add_member(league, organiser, user)
    leagues.do_create_fixture(season, organiser, [players[0:2], players[2:4]])
    tournament = do_create_tournament(organiser, name="Words Cup", table_options=every)
    do_open_registration(tournament, organiser)
    for a, b in (players[0:2], players[2:4]):
        do_answer_partner(do_register_team(tournament, a, [b.username]), b, True)
    do_start(tournament, organiser)
    options = ".record-options :is(dt, dd)"
    buttons = "main :is(button, .button)"
    problems: dict[str, list[str]] = {}

    def check(name: str, *selectors: str) -> None:
        settle(page)
        page.evaluate(f"() => document.querySelector('{selectors[-1]}')?.scrollIntoView()")
        shoot(page, f"words-{name}")
        found = [p for s in selectors for p in page.evaluate(WORDS_WHOLE, s)]
        found += page.evaluate(TABLES_IN_THEIR_BOX) + page.evaluate(VALUES_CUT)
        if found:
            problems[name] = found

    page.goto(f"/leagues/{league.slug}/manage/")
    check("league-manage-1280", options, buttons, "table.data button")
    fixture = page.locator("table.data tbody tr").first
    refused = (("levels_team0", "999"), ("caught_team0", "99999"), ("caught_team1", "999"))
    for field, value in refused:
        fixture.locator(f'input[name="{field}"]').fill(value)
    # The server's refusal (the browser's own checks stepped over, as an old browser would).
    fixture.locator("form[action$='/manage/result/']").evaluate("f => { f.noValidate = true; }")
    fixture.get_by_role("button", name="Record").click()
    page.wait_for_load_state()
    assert page.locator("table.data .errors").count() == 1
    check("league-manage-refused-1280", options, buttons, "table.data button")
    page.goto(f"/tournaments/{tournament.pk}/manage/")
    check("tournament-manage-1280", options, buttons, "#teams button")
    page.set_viewport_size({"width": 375, "height": 740})
    page.goto(f"/tournaments/{tournament.pk}/")
    check("tournament-375", buttons, options)
    assert not problems, "\n".join(f"{k}: {v[:8]}" for k, v in problems.items())
