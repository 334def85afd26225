"""What the browser tests measure on the table page, as JavaScript run in the page
(``page.evaluate``): what is outside the viewport or covered, the status cut in the felt's
middle, a seat out of the felt's rounded corner, a short name cut, the claim bar's seconds cut.
The phases they are measured in: tests/e2e/phases.py."""

from __future__ import annotations

from .helpers import screenshot
from .phases import settle

# What is not inside the viewport, or not reachable where it shows (another element over it).
MEASURE = """(need) => {
  const W = innerWidth, H = innerHeight, out = [];
  const se = document.scrollingElement;
  if (se.scrollHeight > H + 1) out.push(`the page scrolls: ${se.scrollHeight} > ${H}`);
  if (se.scrollWidth > W + 1) out.push(`the page scrolls sideways: ${se.scrollWidth} > ${W}`);
  const box = r => [r.left, r.top, r.right, r.bottom].map(Math.round).join(',');
  function inside(el, name) {
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) { out.push(`${name} is not shown`); return null; }
    if (r.left < -0.5 || r.top < -0.5 || r.right > W + 0.5 || r.bottom > H + 0.5)
      out.push(`${name} is outside the ${W}x${H} viewport: ${box(r)}`);
    return r;
  }
  function reachable(el, name, x, y) {
    const hit = document.elementFromPoint(x, y);
    if (!hit || !(hit === el || el.contains(hit)))
      out.push(`${name} is covered at ${Math.round(x)},${Math.round(y)} by `
               + (hit ? (hit.id || hit.className || hit.tagName) : 'nothing'));
  }
  const seats = [...document.querySelectorAll('#seats .seat')];
  if (seats.length !== need.seats) out.push(`${seats.length} seats`);
  for (const seat of seats) {
    const r = inside(seat, seat.id);
    const felt = seat.closest('.table-felt').getBoundingClientRect();
    if (r && (r.top < felt.top - 0.5 || r.bottom > felt.bottom + 0.5))
      out.push(`${seat.id} is cut by the felt's edge: ${box(r)} in ${box(felt)}`);
    if (r) reachable(seat, seat.id, r.left + 4, r.top + 4);
    const name = seat.querySelector('.name');
    if (name.scrollWidth > name.clientWidth + 1 && name.title !== name.textContent.trim())
      out.push(`${seat.id}'s name is cut off without its full text`);
    for (const part of seat.querySelectorAll('.card-count, .turn-marker, .seat-play, .countdown'))
      inside(part, `${seat.id} ${part.className}`);
  }
  const labels = [...document.querySelectorAll('#hand .hand-cards label')];
  if (labels.length !== need.cards)
    out.push(`${labels.length} cards in the hand, not ${need.cards}`);
  for (const label of labels) {
    const r = inside(label, `card ${label.id}`);
    if (!r) continue;
    if (r.height < 43.5 || r.width < 23.5) out.push(`card ${label.id} is ${box(r)}: too small`);
    reachable(label, `card ${label.id}`, r.left + r.width / 2, r.top + r.height / 2);
    inside(label.querySelector('.playing-card'), `the face of ${label.id}`);
  }
  for (const selector of need.shown) {
    const el = document.querySelector(selector);
    if (!el) { out.push(`no ${selector}`); continue; }
    const r = inside(el, selector);
    if (r && /BUTTON|A/.test(el.tagName))
      reachable(el, selector, r.left + r.width / 2, r.top + r.height / 2);
  }
  return out;
}"""

# The status in the felt's middle whole (whose turn, the play to beat, the round and the levels:
# none hidden under the own seat or squeezed to a sliver): in a claim window and on the own
# turn, at every size.
WHOLE = """() => {
  const out = [], centre = document.querySelector('.felt-centre').getBoundingClientRect();
  for (const part of document.querySelectorAll('#status > *')) {
    const r = part.getBoundingClientRect();
    if (r.height < 1) continue;
    if (r.bottom > centre.bottom + 0.5 || r.top < centre.top - 0.5)
      out.push(`the status's ${part.className} is cut: ${Math.round(r.top)}-${Math.round(r.bottom)}`
               + ` in ${Math.round(centre.top)}-${Math.round(centre.bottom)}`);
  }
  return out;
}"""

# Each seat inside the felt's rounded edge, not only its box: a corner seat's corner (itself
# rounded) beyond the felt's rounded corner sticks out of the table (8 seats at 1280x800: the
# last seat's lower corner went past the green).
CORNERS = """() => {
  const out = [];
  for (const seat of document.querySelectorAll('#seats .seat')) {
    const felt = seat.closest('.table-felt'), f = felt.getBoundingClientRect();
    const R = parseFloat(getComputedStyle(felt).borderTopLeftRadius) || 0;
    const r = seat.getBoundingClientRect();
    const s = Math.min(parseFloat(getComputedStyle(seat).borderTopLeftRadius) || 0,
                       r.width / 2, r.height / 2);
    const k = s * (1 - Math.SQRT1_2);  // the seat's rounded corner, along the diagonal
    for (const [x, y] of [[r.left + k, r.top + k], [r.right - k, r.top + k],
                          [r.left + k, r.bottom - k], [r.right - k, r.bottom - k]]) {
      // The rounded corner of the felt the point is in (any of the four: a seat's top corner
      // may be in the felt's bottom one), if it is in one.
      const cx = x < f.left + R ? f.left + R : x > f.right - R ? f.right - R : null;
      const cy = y < f.top + R ? f.top + R : y > f.bottom - R ? f.bottom - R : null;
      if (cx !== null && cy !== null && Math.hypot(x - cx, y - cy) > R + 0.5)
        out.push(`${seat.id} sticks out of the felt's rounded corner at ${Math.round(x)},`
                 + `${Math.round(y)} (${Math.round(Math.hypot(x - cx, y - cy) - R)} px)`);
    }
  }
  return out;
}"""

# Every seat's name of eight characters or fewer reads whole ("Máy 2", "qa_carol"): a short
# name cut to "Máy…" or "qa_…" left its title as the only way to read it.
SHORT_NAMES = """() => [...document.querySelectorAll('#seats .seat .name')].flatMap(n => {
  // The text's own width in its font (scrollWidth rounds: "Máy 2" a pixel too wide for its
  // room showed "Máy…" with scrollWidth equal to clientWidth).
  const ctx = document.createElement('canvas').getContext('2d');
  ctx.font = getComputedStyle(n).font;
  const text = ctx.measureText(n.textContent.trim()).width;
  const room = n.getBoundingClientRect().width;
  return n.textContent.trim().length <= 8 && text > room + 0.05
    ? [`${n.closest('.seat').id}'s name "${n.textContent.trim()}" is cut: ${room.toFixed(1)} `
       + `of ${text.toFixed(1)} px`] : [];
})"""

# The claim bar's countdown says its seconds: the number and its unit whole inside the bar (a
# long label, "Thời gian móc", gives way with an ellipsis; it pushed the seconds out of the bar).
COUNTDOWN_SECONDS = """() => {
  const out = [], bars = document.querySelectorAll('#claim-bar .countdown');
  if (!bars.length) out.push('no countdown in the claim bar');
  for (const bar of bars) {
    const b = bar.getBoundingClientRect(), seconds = bar.querySelector('.countdown-seconds');
    const text = bar.querySelector('.countdown-text'), range = document.createRange();
    range.setStartBefore(seconds);
    range.setEndAfter(text.lastChild);
    const r = range.getBoundingClientRect();
    if (b.width < 1 || r.width < 1) { out.push('the countdown is not shown'); continue; }
    if (r.left < b.left - 0.5 || r.right > b.right + 0.5 || r.top < b.top - 0.5
        || r.bottom > b.bottom + 0.5 || r.right > innerWidth + 0.5)
      out.push(`the countdown's seconds "${range.toString()}" are cut: `
               + `${Math.round(r.left)}-${Math.round(r.right)} in ${Math.round(b.left)}-`
               + `${Math.round(b.right)}`);
  }
  return out;
}"""

# The status's first line ("Round N · Playing" and the teams' levels): shown, inside the felt's
# middle and the felt, and wholly above the own seat (nothing of it under that seat).
ROUND_LINE = """() => {
  const out = [], line = document.querySelector('#status .status-line').getBoundingClientRect();
  const own = document.querySelector('#seats .seat.me').getBoundingClientRect();
  const felt = document.querySelector('.table-felt').getBoundingClientRect();
  const centre = document.querySelector('.felt-centre').getBoundingClientRect();
  const at = r => `${Math.round(r.top)}-${Math.round(r.bottom)}`;
  if (line.height < 1) return ['the round line is not shown'];
  for (const [what, box] of [['the felt', felt], ["the felt's middle", centre]])
    if (line.top < box.top - 0.5 || line.bottom > box.bottom + 0.5 || line.left < box.left - 0.5
        || line.right > box.right + 0.5)
      out.push(`the round line (${at(line)}) is cut by ${what} (${at(box)})`);
  if (line.bottom > own.top + 0.5 && line.top < own.bottom && line.right > own.left
      && line.left < own.right)
    out.push(`the round line (${at(line)}) runs under the own seat (${at(own)})`);
  return out;
}"""

# Each element ``selector`` finds: shown, its text whole (no ellipsis; with ``oneLine`` its drawn
# text on one line and, when it may not wrap, its own width in its font inside its room), inside
# every ancestor that clips it (any overflow but visible) and inside the viewport.
TEXT_WHOLE = """([selector, oneLine]) => {
  const out = [], els = document.querySelectorAll(selector);
  if (!els.length) return [`no ${selector}`];
  const ctx = document.createElement('canvas').getContext('2d');
  const at = r => [r.left, r.top, r.right, r.bottom].map(Math.round).join(',');
  for (const el of els) {
    const name = `${el.closest('[id]')?.id || ''} "${el.textContent.trim().replace(/\\s+/g, ' ')}"`;
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) { out.push(`${name} is not shown`); continue; }
    const style = getComputedStyle(el), range = document.createRange();
    range.selectNodeContents(el);
    const text = range.getBoundingClientRect();
    // The lines its drawn text takes (text read out only, in a 1-px box, is not drawn).
    const lines = new Set(), walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walk.nextNode(); node; node = walk.nextNode()) {
      let drawn = true;
      for (let up = node.parentElement; up !== el.parentElement; up = up.parentElement) {
        const u = up.getBoundingClientRect();
        if (u.width <= 1 || u.height <= 1) drawn = false;
      }
      const part = document.createRange();
      part.selectNodeContents(node);
      if (drawn)
        for (const l of part.getClientRects()) if (l.width > 0.5) lines.add(Math.round(l.bottom));
    }
    if (oneLine && lines.size > 1) out.push(`${name} wraps onto ${lines.size} lines`);
    if (el.scrollWidth > el.clientWidth + 1)
      out.push(`${name} is cut: ${el.scrollWidth} px in ${el.clientWidth}`);
    if (oneLine && style.whiteSpace === 'nowrap') {
      ctx.font = style.font;
      const need = ctx.measureText(el.textContent.trim()).width;
      // The content box to a 64th of a pixel (clientWidth is rounded to a whole one).
      const room = r.width - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)
                   - parseFloat(style.borderLeftWidth) - parseFloat(style.borderRightWidth);
      if (need > room + 0.05)
        out.push(`${name} is cut: ${need.toFixed(1)} px in ${room.toFixed(1)}`);
    }
    for (let box = el.parentElement; box; box = box.parentElement) {
      const s = getComputedStyle(box), b = box.getBoundingClientRect();
      if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
      if (text.left < b.left - 0.5 || text.right > b.right + 0.5 || text.top < b.top - 0.5
          || text.bottom > b.bottom + 0.5)
        out.push(`${name} (${at(text)}) is cut by ${box.id || box.className} (${at(b)})`);
    }
    if (text.right > innerWidth + 0.5 || text.bottom > innerHeight + 0.5)
      out.push(`${name} (${at(text)}) runs out of the screen`);
  }
  return out;
}"""


# Text broken only between words (or after a hyphen or slash), and inside its box: a word
# split over two lines, or a marker past its seat's edge, is named.
WORDS_WHOLE = """(selector) => {
  const out = [];
  for (const el of document.querySelectorAll(selector)) {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const m of node.data.matchAll(/[^\\s\\/-]+/g)) {  // a break after - or / is fine
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
        if (tops.size > 1) out.push(`"${m[0]}" is broken over ${tops.size} lines in ${selector}`);
      }
    }
    const box = el.closest('.seat');
    if (box) {
      const r = el.getBoundingClientRect(), s = box.getBoundingClientRect();
      if (r.right > s.right + 0.5 || r.left < s.left - 0.5)
        out.push(`${el.className} sticks out of ${box.id}: ${r.right} > ${s.right}`);
    }
  }
  return out;
}"""


def problems_at_sizes(page, sizes, shot: str, measure) -> dict[str, list[str]]:
    """``measure(page)``'s problems (a list of texts) at each ``(width, height)`` of ``sizes``,
    the page resized and settled first and a screenshot ``<shot>-<width>x<height>`` taken: a
    dict by size of those with any (empty when none)."""
    problems = {}
    for width, height in sizes:
        page.set_viewport_size({"width": width, "height": height})
        settle(page)
        screenshot(page, f"{shot}-{width}x{height}")
        found = measure(page)
        if found:
            problems[f"{width}x{height}"] = found
    return problems


# The page never taller than the screen, the side panel's parts all in its box (none needs the
# panel scrolled to be seen: they share its height), and the chat's newest line whole in view:
# inside the viewport, its scrolling list and every box that clips it, on top where it shows.
PANEL_SHARED = """() => {
  const out = [], se = document.scrollingElement, at = r => [r.left, r.top, r.right, r.bottom]
    .map(Math.round).join(',');
  if (se.scrollHeight > innerHeight + 1)
    out.push(`the page is ${se.scrollHeight} px tall in ${innerHeight}`);
  const panel = document.getElementById('table-panel');
  if (panel.scrollHeight > panel.clientHeight + 1)
    out.push(`the side panel scrolls: ${panel.scrollHeight} px in ${panel.clientHeight}`);
  const newest = [...document.querySelectorAll('#chat-lines > li')].filter(l => !l.hidden).pop();
  if (!newest) return [...out, 'no chat line'];
  const r = newest.getBoundingClientRect();
  if (r.top < -0.5 || r.bottom > innerHeight + 0.5)
    out.push(`the newest chat line (${at(r)}) is out of the screen`);
  for (let box = newest.parentElement; box; box = box.parentElement) {
    const s = getComputedStyle(box), b = box.getBoundingClientRect();
    if (s.overflowY === 'visible' || box === document.documentElement || box === document.body)
      continue;
    if (r.top < b.top - 0.5 || r.bottom > b.bottom + 0.5)
      out.push(`the newest chat line (${at(r)}) is cut by ${box.id || box.className} (${at(b)})`);
  }
  const hit = document.elementFromPoint(r.left + 8, (r.top + r.bottom) / 2);
  if (!hit || !newest.contains(hit))
    out.push(`the newest chat line is under ${hit ? (hit.id || hit.className) : 'nothing'}`);
  return out;
}"""


# Room for reading in the side panel beside the table: the moves' list and the chat's lines each
# show ``need`` whole lines at least (filled first with short one-line entries, as a match that
# has run on a while), the chat's input and Send whole on top, and the panel's parts, and the
# chat's own parts, each whole and none over another (the chat's description half over its top
# line, the moves one line tall: a tester at 1280x800 in Vietnamese with the stand-in's box).
PANEL_ROOM = """(need) => {
  const out = [], at = r => [r.left, r.top, r.right, r.bottom].map(Math.round).join(',');
  // Drawn (text read out only sits in a 1-px box).
  const shown = el => { const r = el.getBoundingClientRect(); return r.width > 1 && r.height > 1; };
  const name = el => el.id ? `#${el.id}` : `.${[...el.classList].join('.')}`;
  function fill(list, make) {
    for (let i = list.children.length; i < 12; i++) list.append(make(i));
    list.scrollTop = list.scrollHeight;
  }
  function wholeLines(list) {
    const b = list.getBoundingClientRect();
    return [...list.children].filter(li => {
      const r = li.getBoundingClientRect();
      return r.height >= 1 && r.top >= b.top - 0.5 && r.bottom <= b.bottom + 0.5
        && r.top >= -0.5 && r.bottom <= innerHeight + 0.5;
    }).length;
  }
  const log = document.getElementById('log-lines'), chat = document.getElementById('chat-lines');
  fill(log, i => Object.assign(document.createElement('li'),
                               {textContent: `AI ${i % 3 + 2} played 7♠`}));
  fill(chat, i => {
    const li = document.createElement('li');
    li.className = 'chat-line';
    li.innerHTML = `<span class="chat-author">ana</span> <span class="chat-text">gg ${i}</span>`;
    return li;
  });
  const moves = wholeLines(log), said = wholeLines(chat);
  if (moves < need) out.push(`the moves show ${moves} whole lines (${log.clientHeight} px)`);
  if (said < need) out.push(`the chat shows ${said} whole lines (${chat.clientHeight} px)`);
  // Siblings whole in their box and apart, level by level.
  function apart(box, parts) {
    const b = box.getBoundingClientRect();
    const rects = parts.filter(shown).map(el => [el, el.getBoundingClientRect()]);
    for (const [el, r] of rects)
      if (r.top < b.top - 0.5 || r.bottom > b.bottom + 0.5 || r.left < b.left - 0.5
          || r.right > b.right + 0.5)
        out.push(`${name(el)} (${at(r)}) sticks out of ${name(box)} (${at(b)})`);
    for (let i = 0; i < rects.length; i++)
      for (let j = i + 1; j < rects.length; j++) {
        const [p, r] = rects[i], [q, s] = rects[j];
        if (r.left < s.right - 0.5 && s.left < r.right - 0.5 && r.top < s.bottom - 0.5
            && s.top < r.bottom - 0.5)
          out.push(`${name(p)} (${at(r)}) and ${name(q)} (${at(s)}) overlap`);
      }
  }
  const panel = document.getElementById('table-panel');
  apart(panel, [...panel.children]);
  const room = document.getElementById('chat-room'), form = document.getElementById('chat-form');
  apart(document.getElementById('chat'), [...room.children, ...form.children]);
  for (const id of ['chat-text', 'chat-send']) {
    const el = document.getElementById(id), r = el.getBoundingClientRect();
    if (r.height < 1 || r.top < -0.5 || r.bottom > innerHeight + 0.5) {
      out.push(`#${id} is not in view`);
      continue;
    }
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!hit || !(hit === el || el.contains(hit)))
      out.push(`#${id} is covered by ${hit && name(hit)}`);
  }
  return out;
}"""
