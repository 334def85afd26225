"""On a phone nothing fixed covers what a player must read or reach: the claim help (its title,
every line and "Got it") readable above the Hook and Pass buttons in four languages, and the
stand-in banner over neither the hand nor the open drawer (chat, quick phrases, the seat menu).

Screenshots (``make screenshots``): one-screen/claim-help-<language>-375x740.png,
one-screen/stood-in-<language>-<size>.png, one-screen/stood-in-drawer-<language>-375x740.png.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.models import Seat, Table

from .helpers import ADD_CHAT_LINES, log_in_as, open_started_table
from .measures import COUNTDOWN_SECONDS, MEASURE, WHOLE
from .phases import early_claim_window, settle, shoot, show_phase, unhook_window, your_turn

pytestmark = pytest.mark.django_db(transaction=True)


# Every line of the claim help (title, what a claim is, what the viewer holds) and its "Got it"
# can be read: each line, brought into view inside whatever box scrolls it, is inside the
# viewport and is itself what shows at its middle (no fixed button or dock over it).
HELP_READABLE = """() => {
  const out = [], W = innerWidth, H = innerHeight;
  const help = document.getElementById('claim-help');
  if (!help || help.getBoundingClientRect().height < 1) return ['no claim help shown'];
  const scroller = el => {
    for (let p = el.parentElement; p; p = p.parentElement)
      if (['auto', 'scroll'].includes(getComputedStyle(p).overflowY)
          && p.scrollHeight > p.clientHeight)
        return p;
    return null;
  };
  const parts = [...help.querySelectorAll('p'), document.getElementById('claim-help-done')];
  for (const part of parts) {
    const range = document.createRange();
    range.selectNodeContents(part);
    const lines = [...range.getClientRects()].filter(r => r.width > 1 && r.height > 1);
    const count = part.tagName === 'BUTTON' ? 1 : lines.length;
    for (let i = 0; i < count; i++) {
      const box = scroller(part);
      const at = () => part.tagName === 'BUTTON' ? part.getBoundingClientRect()
        : [...range.getClientRects()].filter(r => r.width > 1 && r.height > 1)[i];
      if (box) {
        const r = at(), b = box.getBoundingClientRect();
        box.scrollTop += r.top - b.top - 4;
      }
      const r = at();
      const name = `${part.id || part.className} line ${i + 1}`;
      if (r.top < -0.5 || r.bottom > H + 0.5 || r.left < -0.5 || r.right > W + 0.5) {
        out.push(`${name} is outside the viewport: ${Math.round(r.top)}-${Math.round(r.bottom)}`);
        continue;
      }
      const x = r.left + Math.min(12, r.width / 2), y = r.top + r.height / 2;
      const hit = document.elementFromPoint(x, y);
      if (!hit || !(hit === part || part.contains(hit)))
        out.push(`${name} is covered at ${Math.round(x)},${Math.round(y)} by `
                 + (hit ? (hit.id || hit.className || hit.tagName) : 'nothing'));
    }
  }
  return out;
}"""


# As it opens (not scrolled), the help's box shows its title and at least two lines of the
# explanation whole, and no line cut by its lower edge: a half line there read as text going on
# under the Hook and Pass buttons. The box ends above the buttons.
HELP_LINES_WHOLE = """() => {
  const out = [], help = document.getElementById('claim-help');
  help.scrollTop = 0;
  const box = help.getBoundingClientRect();
  const top = box.top + help.clientTop, inner = {top, bottom: top + help.clientHeight};
  let whole = 0;
  for (const part of help.querySelectorAll('p:not(.claim-help-title)')) {
    const range = document.createRange();
    range.selectNodeContents(part);
    for (const r of range.getClientRects()) {
      if (r.height < 1) continue;
      if (r.top >= inner.top - 0.5 && r.bottom <= inner.bottom + 0.5) whole += 1;
      else if (r.top < inner.bottom - 0.5 && r.bottom > inner.bottom + 0.5)
        out.push(`a line of ${part.id} is cut by the box's edge: ${Math.round(r.top)}-`
                 + `${Math.round(r.bottom)} in ${Math.round(inner.top)}-`
                 + `${Math.round(inner.bottom)}`);
    }
  }
  if (whole < 2) out.push(`${whole} whole lines of the explanation in view`);
  const actions = document.querySelector('#claim-bar .claim-actions').getBoundingClientRect();
  if (box.bottom > actions.top + 0.5)
    out.push(`the help (to ${Math.round(box.bottom)}) runs under the buttons `
             + `(${Math.round(actions.top)})`);
  return out;
}"""


def in_first_claim_window(page, username: str, language: str, make=early_claim_window) -> None:
    """``username``, new, signed in in ``language`` at a started table of their own, in its
    first claim window (``make``'s) with the claim help showing."""
    log_in_as(page, username, language, landing=None)
    open_started_table(page, claim_seconds=10, turn_seconds=60)
    show_phase(page, Table.objects.get(host__username=username), make)
    expect(page.locator("#claim-help")).to_be_visible()


@pytest.mark.parametrize("height", [740, 667])
@pytest.mark.parametrize("language", ["es", "id", "vi", "en"])
def test_the_claim_help_is_readable_on_a_phone(new_page, language, height) -> None:
    """375×740, a person's first claim windows: the help ("¿Qué es un enganche?") sat under the
    fixed Hook and Pass buttons after its first line. Every line of it can be read (scrolled
    into view in its own box, nothing over it), the buttons still whole and reachable. At
    375×667 too (the felt shrank until the own seat was cut in half, over the play to beat)."""
    page = new_page(375, height)
    in_first_claim_window(page, f"help_{language}_{height}", language)
    settle(page)
    shoot(page, f"claim-help-{language}-375x{height}")
    assert page.evaluate(COUNTDOWN_SECONDS) == []
    assert page.evaluate(HELP_LINES_WHOLE) == []
    assert page.evaluate(HELP_READABLE) == []
    need = {"cards": 27, "shown": ["#claim-button", "#claim-pass-button"], "seats": 4}
    count = page.locator("#hand .hand-cards label").count()
    assert page.evaluate(MEASURE, {**need, "cards": count}) + page.evaluate(WHOLE) == []


# Every card of the hand inside the viewport and itself at its middle (nothing fixed over it).
HAND_UNCOVERED = """() => {
  const out = [], W = innerWidth, H = innerHeight;
  const labels = [...document.querySelectorAll('#hand .hand-cards label')];
  if (!labels.length) out.push('no card in the hand');
  for (const label of labels) {
    const r = label.getBoundingClientRect();
    if (r.top < -0.5 || r.bottom > H + 0.5 || r.left < -0.5 || r.right > W + 0.5) {
      out.push(`card ${label.id} is outside the viewport: `
               + `${Math.round(r.top)}-${Math.round(r.bottom)}`);
      continue;
    }
    for (const y of [r.top + 4, r.top + r.height / 2, r.bottom - 4]) {
      const hit = document.elementFromPoint(r.left + Math.min(10, r.width / 2), y);
      if (!hit || !label.contains(hit)) {
        out.push(`card ${label.id} is covered at ${Math.round(y)} by `
                 + (hit ? (hit.id || hit.className || hit.tagName) : 'nothing'));
        break;
      }
    }
    // The face's lower edge too (the next row's cards may lie over it, nothing else may).
    const face = label.querySelector('.playing-card').getBoundingClientRect();
    const hit = document.elementFromPoint(face.left + 4, face.bottom - 3);
    if (face.bottom > H + 0.5 || !hit || !hit.closest('#hand'))
      out.push(`the face of ${label.id} is covered at ${Math.round(face.bottom - 3)} by `
               + (hit ? (hit.id || hit.className || hit.tagName) : 'nothing'));
  }
  return out;
}"""

# The parts of the open drawer (chat box, send, quick phrases, the seat menu's controls), each
# scrolled into view in the drawer, itself at its middle: the stand-in banner over none.
DRAWER_UNCOVERED = """(selectors) => {
  const out = [];
  for (const selector of selectors) {
    for (const el of document.querySelectorAll(selector)) {
      el.scrollIntoView({block: 'nearest'});
      const r = el.getBoundingClientRect();
      if (r.height < 1) { out.push(`${selector} is not shown`); continue; }
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      if (!hit || !(hit === el || el.contains(hit)))
        out.push(`${el.id || el.textContent.trim().slice(0, 20)} is covered by `
                 + (hit ? (hit.id || hit.className || hit.tagName) : 'nothing'));
    }
  }
  return out;
}"""


@pytest.mark.parametrize("language", ["es", "vi"])
def test_the_stand_in_banner_covers_neither_the_hand_nor_the_drawer(new_page, language) -> None:
    """375×740, the AI playing for this person ("La IA está jugando por ti / Ya estoy aquí"):
    the banner covered the bottom of the hand and of the chat drawer. The hand shows whole
    with the banner below it; in the open drawer every part down to its last one can be
    scrolled clear of the banner, whose button stays in view."""
    page = new_page(375, 740)
    log_in_as(page, f"banner_{language}", language, landing=None)
    open_started_table(page, claim_seconds=0, turn_seconds=60)
    table = Table.objects.get(host__username=f"banner_{language}")
    Seat.objects.filter(table=table, number=0).update(stand_in=Seat.StandIn.ASKED)
    show_phase(page, table, your_turn)
    expect(page.locator("#im-back")).to_be_visible()
    settle(page)
    shoot(page, f"stood-in-{language}-375x740")
    assert page.evaluate(HAND_UNCOVERED) == []
    expect(page.locator("#im-back")).to_be_in_viewport(ratio=1)
    page.set_viewport_size({"width": 740, "height": 375})
    settle(page)
    shoot(page, f"stood-in-{language}-740x375")
    assert page.evaluate(HAND_UNCOVERED) == []
    expect(page.locator("#im-back")).to_be_in_viewport(ratio=1)
    page.set_viewport_size({"width": 375, "height": 740})
    settle(page)
    page.evaluate(ADD_CHAT_LINES, 14)  # a drawer taller than the screen: it scrolls
    page.click("#panel-toggle")
    expect(page.locator("#chat-text")).to_be_visible()
    settle(page)
    shoot(page, f"stood-in-drawer-{language}-375x740")
    parts = [
        "#chat-text",
        "#chat-send",
        ".chat-phrase-button",
        "#im-back",
        "#resign-button",
        "#invite-username",
        "#invite-send",
    ]
    assert page.evaluate(DRAWER_UNCOVERED, parts) == []


# Each control, when shown: inside the viewport, itself at its middle (nothing over it), and its
# label whole inside it (no ellipsis, no text running past its edges).
CONTROLS_WHOLE = """(selectors) => {
  const out = [], W = innerWidth, H = innerHeight;
  for (const selector of selectors) {
    const el = document.querySelector(selector);
    if (!el) { out.push(`no ${selector}`); continue; }
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) { out.push(`${selector} is not shown`); continue; }
    const at = `${Math.round(r.left)},${Math.round(r.top)}-${Math.round(r.right)},`
               + `${Math.round(r.bottom)}`;
    if (r.left < -0.5 || r.top < -0.5 || r.right > W + 0.5 || r.bottom > H + 0.5)
      out.push(`${selector} is outside the ${W}x${H} viewport: ${at}`);
    const x = r.left + r.width / 2, y = r.top + r.height / 2, hit = document.elementFromPoint(x, y);
    if (!hit || !(hit === el || el.contains(hit)))
      out.push(`${selector} is covered at ${Math.round(x)},${Math.round(y)} by `
               + (hit ? (hit.id || hit.className || hit.tagName) : 'nothing'));
    const range = document.createRange();
    range.selectNodeContents(el);
    const t = range.getBoundingClientRect();
    if (el.scrollWidth > el.clientWidth + 1 || t.left < r.left - 0.5 || t.right > r.right + 0.5
        || t.top < r.top - 0.5 || t.bottom > r.bottom + 0.5)
      out.push(`${selector}'s label "${el.textContent.trim()}" is cut: ${Math.round(t.left)}-`
               + `${Math.round(t.right)} (${el.scrollWidth} px) in ${at}`);
  }
  return out;
}"""

CLAIM_CONTROLS = ["#claim-button", "#claim-pass-button"]
HAND_CONTROLS = ["#play-button", "#hint-button", "#clear-button"]


@pytest.mark.parametrize("claim", ["hook", "unhook"])
@pytest.mark.parametrize("language", ["vi", "es"])
def test_a_claim_window_on_a_phone_on_its_side_leaves_every_button_whole(
    new_page, language, claim
) -> None:
    """740×375, four seats, a claim window: in Vietnamese the claim bar in the column ran down
    under the hand's Play and Hint, which hid its Hook and its Pass ("Bỏ qua", cut onto a second
    line); in Spanish "Enganchar" pushed "Pasar" out of the screen, and "Desenganchar" (a window
    on another seat's hook) pushed it 6 px out still. Every button of the claim bar (and of its
    help, while it shows) and of the hand is whole, inside the screen and itself at its middle;
    once the help is dismissed, too."""
    page = new_page(740, 375)
    make, shot = (unhook_window, "-unhook") if claim == "unhook" else (early_claim_window, "")
    in_first_claim_window(page, f"column_{claim}_{language}", language, make)
    expect(page.locator("#hand-actions")).to_be_visible()
    expect(page.locator("#claim-button")).to_have_attribute("value", claim)
    settle(page)
    shoot(page, f"claim-column-help-{language}{shot}-740x375")
    controls = [*CLAIM_CONTROLS, "#claim-help-done", *HAND_CONTROLS]
    assert page.evaluate(CONTROLS_WHOLE, controls) == []
    page.click("#claim-help-done")
    expect(page.locator("#claim-help")).to_have_count(0)
    settle(page)
    shoot(page, f"claim-column-{language}{shot}-740x375")
    assert page.evaluate(CONTROLS_WHOLE, [*CLAIM_CONTROLS, *HAND_CONTROLS]) == []
