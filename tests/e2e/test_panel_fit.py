"""The table page on one screen at the sizes a new tester used: at 1280×800 the side panel's
parts (the spectators' line, the seat menu, the card tracker, the moves, the chat, the
invitation) share its height and the chat's lines scroll inside it, its newest line in view,
whatever the panel holds (the page grew past the screen with the panel: 1015 px after a few chat
lines, 1046 with the invitation, 23 px more for "1 spectator watching").

Screenshots (``make screenshots``): panel-fit/<case>.png.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .helpers import ADD_CHAT_LINES, log_in_as, open_started_table, screenshot
from .measures import PANEL_ROOM, PANEL_SHARED, problems_at_sizes
from .phases import settle

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_side_panel_shares_its_height_and_the_page_never_grows(new_page) -> None:
    """1280×800, a long chat, the invitation used, a spectator watching: the page stays the
    screen's height, the panel's parts all show without scrolling the panel, and the chat's
    newest line is in view (after the spectator's line took its room above it too)."""
    page = new_page(1280, 800)
    log_in_as(page, "panel_fit", landing=None)
    url = open_started_table(page, claim_seconds=0, turn_seconds=120)
    page.evaluate(ADD_CHAT_LINES, 14)
    page.fill("#chat-text", "the newest line")
    page.click("#chat-send")
    expect(page.locator("#chat-lines > li").last).to_contain_text("the newest line")
    page.fill("#invite-username", "nobody_by_that_name")
    page.click("#invite-send")
    # The refusal shows beside the invite form's field (accounts.friends_views.invite).
    expect(page.locator("#invite-error")).to_contain_text("nobody_by_that_name")
    watcher = new_page(1280, 800)
    watcher.goto(url)
    expect(page.locator("#spectators .spectator-count")).to_be_visible()
    settle(page)
    screenshot(page, "panel-fit/long-chat-invite-spectator-1280x800")
    assert page.evaluate(PANEL_SHARED) == []


# Each quick phrase drawn whole inside the side panel and on top at its middle.
PHRASES_ON_TOP = """() => {
  const out = [], panel = document.getElementById('table-panel').getBoundingClientRect();
  for (const b of document.querySelectorAll('.chat-phrase-button')) {
    const r = b.getBoundingClientRect();
    if (r.left < panel.left - 0.5 || r.right > panel.right + 0.5 || r.top < panel.top - 0.5
        || r.bottom > panel.bottom + 0.5 || b.scrollWidth > b.clientWidth + 1)
      out.push(`"${b.textContent}" is cut`);
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (hit !== b && !b.contains(hit)) out.push(`"${b.textContent}" is covered`);
  }
  return out;
}"""


@pytest.mark.parametrize("language", ["en", "es", "id", "vi"])
def test_the_moves_and_the_chat_keep_room_to_read(new_page, language) -> None:
    """A tester at 1280×800 saw the chat's lines 45 px tall (a line and a half, its top one half
    under the description) and the moves 26 px (one line), worst in Vietnamese with the box
    "The AI is playing for you" on top, and the invitation below the screen. At 1280×800 and
    1366×768, in each language, with and without that box: the moves and the chat each show 3
    whole lines at least, the chat's input and Send in view, the panel's parts apart and whole,
    and the page and the panel never scroll (PANEL_SHARED)."""
    from games.models import Seat, Table

    from .phases import show_phase, your_turn

    page = new_page(1280, 800)
    log_in_as(page, f"room_{language}", language, landing=None)
    open_started_table(page, claim_seconds=0, turn_seconds=120)
    table = Table.objects.get(host__username=f"room_{language}")
    sizes = [(1280, 800), (1366, 768)]

    def measure(page):
        return page.evaluate(PANEL_ROOM, 3) + page.evaluate(PANEL_SHARED)

    show_phase(page, table, your_turn)
    problems = problems_at_sizes(page, sizes, f"panel-fit/room-{language}", measure)
    # The quick phrases, a small menu now, by the keyboard: Enter opens it over the chat's
    # lines, each phrase whole on top; Tab goes into it; Escape closes it, the focus back.
    toggle = page.locator("#chat-phrases-toggle")
    toggle.focus()
    page.keyboard.press("Enter")
    expect(toggle).to_have_attribute("aria-expanded", "true")
    screenshot(page, f"panel-fit/room-phrases-{language}")
    phrases = page.locator(".chat-phrase-button")
    assert phrases.count() == 8
    for i in range(8):
        expect(phrases.nth(i)).to_be_in_viewport(ratio=1)
    assert page.evaluate(PHRASES_ON_TOP) == []
    page.keyboard.press("Tab")
    expect(phrases.first).to_be_focused()
    page.keyboard.press("Escape")
    expect(toggle).to_have_attribute("aria-expanded", "false")
    expect(toggle).to_be_focused()
    expect(phrases.first).to_be_hidden()
    Seat.objects.filter(table=table, number=0).update(stand_in=Seat.StandIn.ASKED)
    show_phase(page, table, your_turn)
    expect(page.locator("#im-back")).to_be_visible()
    problems |= {
        f"stood in {size}": found
        for size, found in problems_at_sizes(
            page, sizes, f"panel-fit/room-stood-in-{language}", measure
        ).items()
    }
    assert problems == {}


# The hand's sort buttons: each one's words on one line, and all of them on one line.
SORT_ONE_LINE = """() => {
  const buttons = [...document.querySelectorAll('.hand-sort button:not([hidden])')];
  const tops = new Set(buttons.map(b => Math.round(b.getBoundingClientRect().top)));
  return tops.size > 1 ? [`the sort buttons take ${tops.size} lines`] : [];
}"""


# The site header's items shown on one line (their middles within a few pixels of each other).
HEADER_ONE_LINE = """() => {
  const mids = [...document.querySelectorAll('#main-nav > *')]
    .map(el => el.getBoundingClientRect()).filter(r => r.width > 1 && r.height > 1)
    .map(r => (r.top + r.bottom) / 2);
  const spread = Math.max(...mids) - Math.min(...mids);
  return spread > 6 ? [`the header takes more than one line: ${Math.round(spread)} px`] : [];
}"""


@pytest.mark.parametrize(
    "language,width,height", [("id", 1024, 768), ("es", 768, 1024)], ids=["id-1024", "es-768"]
)
def test_the_table_fits_a_tablet_in_its_language(new_page, language, width, height) -> None:
    """A tester at 1024×768 in Indonesian: the sort buttons wrapped ("Bom dan straight" on a
    second line) and the side seats' AI badges read "AI · Menen…"; at 768×1024 in Spanish the
    side seats' badges read "IA…", the table's rules in the header "… · amist…" and the site's
    header took two lines. On the own turn the one screen holds (MEASURE), the sort buttons are
    on one line, each AI badge names its difficulty whole, the header's rules read whole and the
    site's header keeps one line (at 768 px its links behind the Menu button, which opens them)."""
    from games.models import Table

    from .measures import MEASURE, TEXT_WHOLE
    from .phases import BUTTONS, show_phase, your_turn
    from .test_ai_badges import AI_BADGES

    page = new_page(width, height)
    log_in_as(page, f"tablet_{language}", language, landing=None)
    open_started_table(page, claim_seconds=0, turn_seconds=60)
    show_phase(page, Table.objects.get(host__username=f"tablet_{language}"), your_turn)
    settle(page)
    screenshot(page, f"panel-fit/tablet-{language}-{width}x{height}")
    found = page.evaluate(MEASURE, {"cards": 27, "shown": [".top-play", *BUTTONS], "seats": 4})
    found += page.evaluate(SORT_ONE_LINE)
    found += page.evaluate(TEXT_WHOLE, [".hand-sort button:not([hidden])", True])
    found += page.evaluate(TEXT_WHOLE, [".table-head > .muted", False])
    found += [f"{b['seat']}'s AI badge is cut: {b['text']}" for b in page.evaluate(AI_BADGES)
              if b["cut"] or "·" not in b["text"]]  # fmt: skip
    found += page.evaluate(HEADER_ONE_LINE)
    assert found == []
    if width < 960:  # the links folded behind the Menu button: it opens and closes them
        links = page.locator("#main-nav > a:not(.brand)")
        expect(links.first).to_be_hidden()
        page.click("#nav-toggle")
        expect(page.locator("#nav-toggle")).to_have_attribute("aria-expanded", "true")
        for i in range(links.count()):
            expect(links.nth(i)).to_be_in_viewport(ratio=1)
        page.keyboard.press("Escape")
        expect(links.first).to_be_hidden()
