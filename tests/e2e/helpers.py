"""Shared steps of the browser tests that reach every player: accounts, tables, axe-core."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

PASSWORD = "e2e-long-passphrase-414"
AXE = Path(__file__).with_name("vendor") / "axe.min.js"
ROOT = Path(__file__).resolve().parents[2]
#: Where the browser tests save screenshots of what they check, when asked for them
#: (``make screenshots``, or ``E2E_SCREENSHOTS=<folder>`` beside any test command; a relative
#: folder is taken from the project's root). Unset, none is taken: a run takes some 180, each
#: a full render and a PNG (~15 s of the box's CPU in all).
SCREENSHOTS = (ROOT / os.environ["E2E_SCREENSHOTS"]) if os.environ.get("E2E_SCREENSHOTS") else None


def screenshot(target, name: str, **options) -> None:
    """Save a screenshot of ``target`` (a page or a locator) as ``<SCREENSHOTS>/<name>.png``,
    with Playwright's ``options`` (``full_page=True``), when screenshots are asked for."""
    if SCREENSHOTS is None:
        return
    path = SCREENSHOTS / f"{name}.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    target.screenshot(path=str(path), **options)


def sign_up_in(page, username: str, language: str = "en") -> None:
    """Sign up with the page in ``language`` (chosen with the header's switcher first)."""
    page.goto("/accounts/signup/")
    if language != "en":
        if page.locator("#nav-toggle").is_visible():  # a phone: the header's links are folded
            page.click("#nav-toggle")
        page.select_option("#language-select", language)
        page.click("form.language button[type=submit]")
        expect(page.locator("html")).to_have_attribute("lang", language)
    page.fill("#id_username", username)
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("form[action$='/signup/'] button[type=submit]")
    expect(page.locator("form[action$='/logout/']")).to_have_count(1)


def wait_until_live(page) -> None:
    """The table page's scripts have run, its socket is open and the snapshot every socket is
    sent on connect (``TableConsumer.connect``) has been applied. Its forms are htmx forms: a
    click before htmx is ready posts the form as a page load, and a push can show the next
    state on the old page while the new one loads (a click there is lost with it). The
    connect's snapshot swaps the whole table in again, the hand included, even at the version
    the page shows: a card picked up or a button pressed before it is swapped away."""
    page.wait_for_function(
        "() => window.htmx && window.club414 && window.club414.socketOpens > 0"
        " && window.club414.snapshots > 0"
    )


def fill_with_ai_and_start(page) -> None:
    """The host fills the empty seats with AI players, then starts the match. Each button is
    clicked again when its frame does not come: a click can land on a region that a push is
    replacing (the page's first frame after its socket opens), and Start is always enabled, so
    only the page's seats and phase tell whether a click took."""
    for _ in range(3):
        page.click("#fill-ai")
        try:
            expect(page.locator("#seats .seat.empty")).to_have_count(0, timeout=10_000)
            break
        except AssertionError:
            continue
    expect(page.locator("#seats .seat.empty")).to_have_count(0)
    for _ in range(3):
        page.click("#start-match")
        try:
            expect(page.locator('#status:not([data-phase=""])')).to_have_count(1, timeout=10_000)
            return
        except AssertionError:
            continue
    expect(page.locator('#status:not([data-phase=""])')).to_have_count(1)


def open_started_table(
    page, claim_seconds: int = 3, turn_seconds: int = 30, players: int = 4, name: str = "414 ★"
) -> str:
    """The signed-in person of ``page`` opens a table of ``players`` seats and fills the others
    with AI players, by the calls the create-table form and "Fill with AI" make
    (``started_table``); ``page`` shows it, live; then the match starts (``tables.start``, as
    the Start button), so the page sees it from the deal on (its first turn read out, every
    play sounded), as when the host presses Start. The hand dealt; the table's URL.

    Not through the pages: their walk is test_play_round's first test, and opening the form,
    posting it and the fill's push cost chromium, Daphne and the workers some CPU in each of
    the ~30 tests that only need a table in play."""
    from accounts.models import User
    from games.play import tables

    user = User.objects.get(pk=session_user_id(page))
    table = started_table(
        user,
        claim_seconds=claim_seconds,
        turn_seconds=turn_seconds,
        players=players,
        name=name,
        start=False,
    )
    page.goto(f"/tables/{table.pk}/")
    assert_signed_in(page, user.language or "en")  # for a page signed in without a landing
    expect(page.locator("#seats .seat.empty")).to_have_count(0)
    wait_until_live(page)
    tables.start(table.pk, user)
    expect(page.locator("#hand-form")).to_be_visible()
    return page.url


def started_table(
    user,
    *,
    claim_seconds: int,
    turn_seconds: int,
    players: int = 4,
    name: str,
    start: bool = True,
):
    """A table of ``user`` with AI players in the other seats, started unless ``start`` is
    False: the create-table form's defaults and these values, validated by the form
    (``CreateTableForm.options``), then ``tables.create_table``, ``tables.fill_with_ai`` and
    ``tables.start`` as their views call them. The ``Table``."""
    from games.forms import CreateTableForm
    from games.play import tables

    data = {
        field: value
        for field, value in (
            (field, form_field.initial) for field, form_field in CreateTableForm.base_fields.items()
        )
        if value not in (None, False)
    }
    data |= {
        "name": name,
        "seats": players,
        "claim_window_seconds": claim_seconds,
        "turn_seconds": turn_seconds,
    }
    form = CreateTableForm(data)
    assert form.is_valid(), form.errors
    table = tables.create_table(
        user,
        name=form.cleaned_data["name"],
        players=form.cleaned_data["seats"],
        options=form.options(),
        rated=form.cleaned_data["rated"],
        visibility=form.cleaned_data["visibility"],
        spectator_delay=form.cleaned_data["spectator_delay"] or 0,
    )
    tables.fill_with_ai(table.pk, user)
    if start:
        tables.start(table.pk, user)
    return table


def session_user_id(page) -> int:
    """The id of the user whose session cookie ``page``'s browser context holds."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import SESSION_KEY

    key = next(
        c["value"] for c in page.context.cookies() if c["name"] == settings.SESSION_COOKIE_NAME
    )
    return int(import_module(settings.SESSION_ENGINE).SessionStore(key)[SESSION_KEY])


def start_with_a_guest(
    host, guest, name: str, *, guest_seat: int = 1, fields: dict[str, str] | None = None
) -> str:
    """``host`` opens a 4-seat table called ``name`` (``fields``: more create-form inputs by
    id, e.g. ``{"#id_turn_seconds": "60"}``; ``#id_target_level`` is selected), ``guest`` takes
    seat ``guest_seat``, the host fills the rest with AI and starts; both see their hand. The
    table's URL."""
    host.goto("/tables/new/")
    host.fill("#id_name", name)
    host.select_option("#id_seats", "4")
    for selector, value in (fields or {}).items():
        if selector == "#id_target_level":
            host.select_option(selector, value)
        else:
            host.fill(selector, value)
    host.click("#create-table-form button[type=submit]")
    expect(host.locator("#seats")).to_be_visible()
    url = host.url
    guest.goto(url)
    wait_until_live(guest)
    guest.click(f"#take-seat-{guest_seat}")
    expect(guest.locator(f"#seat-{guest_seat} .badge.you")).to_be_visible()
    wait_until_live(host)
    fill_with_ai_and_start(host)
    expect(guest.locator("#hand-form")).to_be_visible()
    return url


def htmx_settled(page) -> None:
    """Wait until htmx has no request, swap or settle under way. htmx wires the triggers of
    swapped-in content (``hx-trigger="change"`` on a form) in its settle step, a moment after
    the new HTML shows: a test that acts on a control as soon as it appears can beat it (its
    change then reaches no listener), where a person never does. A page still loading is not
    settled either: htmx wires the page's own content once it has loaded."""
    page.wait_for_function(
        "() => document.readyState === 'complete' && !document.querySelector("
        "'.htmx-request, .htmx-swapping, .htmx-settling, .htmx-added')"
    )


def axe_violations(page, impacts: tuple[str, ...] = ("serious", "critical")) -> list[dict]:
    """Run axe-core (vendored, injected into the page) and keep the violations of ``impacts``.

    The page is checked as it rests: with reduced motion (the site then runs no animation) and
    once the animations already running are over, so a card fading in is not measured
    half-transparent (its contrast is its final colour's)."""
    page.emulate_media(reduced_motion="reduce")
    page.evaluate(
        """() => Promise.all(document.getAnimations()
               .filter(a => a.effect && a.effect.getComputedTiming().iterations !== Infinity)
               .map(a => a.finished.catch(() => null)))"""
    )
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        # As DevTools runs code, not as an inline <script> (the site's CSP refuses those).
        session = page.context.new_cdp_session(page)
        session.send("Runtime.evaluate", {"expression": AXE.read_text()})
        session.detach()
    result = page.evaluate(
        """async () => await axe.run(document, {resultTypes: ['violations'],
               runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa',
                                               'best-practice']}})"""
    )
    return [v for v in result["violations"] if v["impact"] in impacts]


def describe(violations: list[dict]) -> str:
    """A readable list: rule, impact, help and the first few elements."""
    return json.dumps(
        [
            {
                "rule": v["id"],
                "impact": v["impact"],
                "help": v["help"],
                "nodes": [n["target"] for n in v["nodes"][:4]],
                "why": v["nodes"][0].get("failureSummary", "")[:300] if v["nodes"] else "",
            }
            for v in violations
        ],
        indent=1,
        ensure_ascii=False,
    )


def take_turn(page) -> bool:
    """If it is our turn: take the hint and play it, or pass when nothing beats the top play.
    Returns whether it was our turn."""
    if not page.locator("#status.my-turn").count():
        return False
    if page.locator("#hint-button").is_enabled():
        page.click("#hint-button", timeout=2000)
        page.click("#play-button", timeout=2000)
    else:
        page.click("#pass-button", timeout=2000)
    return True


def play_until(page, done, seconds: float = 90) -> bool:
    """Play as a person would (hint and play on our turn, pass when nothing beats the top play,
    pass claim windows) until ``done(page)`` is true; whether it became true in time."""
    from playwright.sync_api import Error as PlaywrightError

    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if done(page):
            return True
        version = page.locator("#status").get_attribute("data-version")
        try:
            if take_turn(page):
                # Until our move's frame arrives the page still shows our turn: ``done`` must
                # not judge that page (a busy machine showed it "mid trick" while our pass,
                # already sent, ended the trick).
                page.wait_for_function(
                    "v => document.getElementById('status')?.dataset.version !== v",
                    arg=version,
                    timeout=10_000,
                )
        except PlaywrightError:
            pass  # a region was re-rendered under the click, or our move was refused: look again
        page.wait_for_timeout(100)
    return False


@pytest.fixture(autouse=True)
def stop_tables_after_the_test(transactional_db):
    """After a browser test, stop every match still running (stewarding.abandon moves the timer
    token, so pending AI turns and timeouts do nothing) and let in-flight tasks finish: the
    live worker then no longer writes while pytest-django empties the database."""
    yield
    from games.models import Table
    from games.play import stewarding

    live = Table.objects.filter(status__in=[Table.Status.OPEN, Table.Status.PLAYING])
    for table_id in live.values_list("pk", flat=True):
        try:
            stewarding.abandon(table_id)
        except Exception:  # noqa: BLE001 - a table that finished meanwhile is fine
            pass
    time.sleep(0.5)


def log_in_as(page, username: str, language: str = "en", *, landing: str | None = "/") -> None:
    """Sign ``page``'s browser context in as a new account ``username`` without the forms: the
    account is made in the test database (what the sign-up form makes: ``language`` the
    account's unless "en", as when picked with the switcher first), then ``log_in_user``. For
    the tests whose subject is not signing up or logging in (``sign_up_in`` goes through the
    form)."""
    from accounts.models import User

    user = User.objects.create_user(
        username=username, password=PASSWORD, language="" if language == "en" else language
    )
    log_in_user(page, user, language, landing=landing)


def log_in_user(page, user, language: str = "en", *, landing: str | None = "/") -> None:
    """Sign ``page``'s browser context in as ``user`` (an account in the test database) without
    the forms: a session made by Django's test client, its cookie put into the context; then
    ``landing`` (the lobby), signed in and in ``language``. ``landing=None``: no page yet, for
    a test whose next step opens one that checks the same (``open_started_table``), so no
    lobby is rendered, connected and laid out for nothing."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    cookies = [{"name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value}]  # fmt: skip
    if language != "en":
        cookies.append({"name": settings.LANGUAGE_COOKIE_NAME, "value": language})
    # The live server is on 127.0.0.1 (a cookie's domain has no port).
    page.context.add_cookies([{**cookie, "domain": "127.0.0.1", "path": "/"} for cookie in cookies])
    if landing is not None:
        page.goto(landing)
        assert_signed_in(page, language)


def assert_signed_in(page, language: str = "en") -> None:
    """``page`` is a signed-in person's (its header offers to log out), in ``language``."""
    expect(page.locator("form[action$='/logout/']")).to_have_count(1)
    if language != "en":
        expect(page.locator("html")).to_have_attribute("lang", language)


# Each drop-down under ``selector`` at least as wide as its longest choice: a copy of it at its
# own width, beside it, measures that width. Returns one line per drop-down that cuts.
SELECTS_CUT = """(selector) => {
  const out = [];
  for (const select of document.querySelectorAll(selector)) {
    const copy = select.cloneNode(true);
    copy.removeAttribute('id');
    copy.style.cssText = 'position: absolute; visibility: hidden; width: auto; min-width: 0;'
                         + ' max-width: none; flex: none';
    select.parentElement.appendChild(copy);
    const need = copy.getBoundingClientRect().width, has = select.getBoundingClientRect().width;
    copy.remove();
    if (has < need - 0.5)
      out.push(`${select.id} cuts its choices: ${Math.round(has)} < ${Math.round(need)}`);
  }
  return out;
}"""


# ``n`` lines more in the table chat, as a chat that has run on (its lines scroll in their own
# box: the page never grows).
ADD_CHAT_LINES = """(n) => {
  const ol = document.getElementById('chat-lines');
  for (let i = 0; i < n; i++) {
    const li = document.createElement('li');
    li.className = 'chat-line';
    li.innerHTML = '<span class="chat-author">someone</span> <span class="chat-text">line '
      + i + ' of a chat that has run on for a while, long enough to wrap</span>';
    ol.append(li);
  }
}"""
