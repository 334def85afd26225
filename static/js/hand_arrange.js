/* 414 Club table page: the player arranges their hand by hand.
 *
 * - Drag a card (mouse, pen or finger) and drop it where it should go; a gold bar shows the
 *   place. On a touch screen a card is picked up by sliding it sideways or by holding it for a
 *   moment; a swipe up or down still scrolls the page. A tap or click still selects the card.
 * - With the keyboard, Shift+Left/Right moves the focused card one place, Shift+Home/End to
 *   either end; the new place is read out.
 * - The order is the "custom" sort mode of table_view.js: saved per player and per deal in
 *   localStorage as card codes in order (two copies of a card are alike, so the codes need no
 *   copy number), and shown with the CSS `order` property only, so the socket's deltas (which
 *   delete played cards by id) and full snapshots (which swap the whole hand) keep it. A card
 *   that was not in the saved order (a tribute received) takes its place by rank. A new deal
 *   starts from the sort the arrangement was made from.
 * No inline code or style: the site's Content Security Policy forbids both.
 */
(function () {
  "use strict";

  var HOLD_MS = 400;  // touch: holding a card this long picks it up
  var SLOP = 6;  // px a pointer moves before a press becomes a drag
  var KEEP_DEALS = 4;

  window.club414 = window.club414 || { beeps: 0, alerts: 0 };

  function page() { return document.getElementById("table-page"); }
  function handCards() { return document.querySelector("#hand-form .hand-cards"); }

  // The deal shown ("<match>.<round>", on the status region, which every frame carries).
  function deal() {
    var status = document.getElementById("status");
    return (status && status.dataset.deal) || "";
  }

  function storageKey() {
    var p = page();
    return "club414.arrange." + ((p && p.dataset.player) || "anonymous");
  }

  function load() {
    try {
      var saved = JSON.parse(window.localStorage.getItem(storageKey()) || "{}");
      return saved && typeof saved === "object" ? saved : {};
    } catch (e) {
      return {};
    }
  }

  function record() {
    var key = deal();
    var saved = key ? load()[key] : null;
    return saved && Array.isArray(saved.codes) ? saved : null;
  }

  function save(codes, base) {
    var key = deal();
    if (!key) return;
    var saved = load();
    saved[key] = { codes: codes, base: base, at: Date.now() };
    // Only the last few deals: a player's earlier matches need no order any more.
    Object.keys(saved).sort(function (a, b) { return (saved[b].at || 0) - (saved[a].at || 0); })
      .slice(KEEP_DEALS).forEach(function (old) { delete saved[old]; });
    try { window.localStorage.setItem(storageKey(), JSON.stringify(saved)); } catch (e) { /* private mode */ }
  }

  // table_view.js: the cards (as rendered, with their index) in the saved order, or null.
  function order(all) {
    var saved = record();
    if (!saved) return null;
    // Copies of a card take the saved places in the order they are shown now, so moving a
    // card past its twin moves that card (by rendered order the twin would take its place).
    var byCode = {};
    all.slice().sort(function (a, b) { return shownAt(a) - shownAt(b) || a.index - b.index; })
      .forEach(function (c) { (byCode[c.code] = byCode[c.code] || []).push(c); });
    var placed = [];
    var used = {};
    saved.codes.forEach(function (code) {
      var left = byCode[code];
      if (!left || !left.length) return;  // played since
      var c = left.shift();
      placed.push(c);
      used[c.index] = true;
    });
    all.forEach(function (c) {
      if (used[c.index]) return;
      // A card the order never had: right after the placed card rendered just before it.
      var at = 0;
      var nearest = -1;
      placed.forEach(function (p, i) {
        if (p.index < c.index && p.index > nearest) { nearest = p.index; at = i + 1; }
      });
      placed.splice(at, 0, c);
    });
    return placed;
  }

  function shownAt(c) {
    var at = c.label ? parseInt(c.label.style.order, 10) : NaN;
    return isNaN(at) ? c.index : at;
  }

  function base() {
    var saved = record();
    return (saved && saved.base) || "rank";
  }

  window.club414.arrangement = { order: order, base: base };

  // The labels as shown (by their CSS order; the rendered order when the hand is unsorted).
  function shownLabels() {
    var hand = handCards();
    if (!hand) return [];
    var labels = Array.prototype.slice.call(hand.querySelectorAll("label"));
    var rendered = labels.slice();
    return labels.sort(function (a, b) {
      return ((parseInt(a.style.order, 10) || 0) - (parseInt(b.style.order, 10) || 0))
        || rendered.indexOf(a) - rendered.indexOf(b);
    });
  }

  function codeOf(label) {
    var box = document.getElementById(label.htmlFor);
    return box ? box.value : "";
  }

  // Keep this order of labels as the player's own, and show it.
  function arrange(labels) {
    var mode = window.club414.sortMode ? window.club414.sortMode() : "rank";
    labels.forEach(function (label, i) { label.style.order = String(i); });
    save(labels.map(codeOf), mode === "custom" ? base() : mode);
    if (window.club414.setSort) window.club414.setSort("custom");
  }

  function strings() {
    var el = document.getElementById("table-strings");
    try { return (el && JSON.parse(el.textContent)) || {}; } catch (e) { return {}; }
  }

  function announce(text) {
    var region = document.getElementById("announcer");
    if (!region || !text) return;
    var line = document.createElement("p");
    line.textContent = text;
    region.appendChild(line);
    while (region.childNodes.length > 6) region.removeChild(region.firstChild);
  }

  // --- keyboard: Shift+arrows move the focused card ------------------------------------------
  document.addEventListener("keydown", function (evt) {
    var box = evt.target;
    if (!evt.shiftKey || evt.altKey || evt.ctrlKey || evt.metaKey) return;
    if (!box.classList || !box.classList.contains("card-check")) return;
    var labels = shownLabels();
    var label = box.nextElementSibling;
    var from = labels.indexOf(label);
    if (from < 0) return;
    var to;
    if (evt.key === "ArrowLeft" || evt.key === "ArrowUp") to = from - 1;
    else if (evt.key === "ArrowRight" || evt.key === "ArrowDown") to = from + 1;
    else if (evt.key === "Home") to = 0;
    else if (evt.key === "End") to = labels.length - 1;
    else return;
    evt.preventDefault();
    to = Math.max(0, Math.min(labels.length - 1, to));
    if (to === from) return;
    labels.splice(from, 1);
    labels.splice(to, 0, label);
    arrange(labels);
    box.focus({ preventScroll: true });
    label.scrollIntoView({ block: "nearest", inline: "nearest" });
    var card = label.querySelector(".playing-card");
    var text = strings().cardMoved || "%(card)s: place %(place)s of %(count)s";
    announce(text.replace("%(card)s", (card && card.getAttribute("title")) || box.value)
      .replace("%(place)s", String(to + 1)).replace("%(count)s", String(labels.length)));
  });

  // --- pointer: drag a card to its place -----------------------------------------------------
  var drag = null;  // the press on a card, until it is released or cancelled
  var swallowClickUntil = 0;

  function clearMarks() {
    document.querySelectorAll("#hand-form .drop-before, #hand-form .drop-after")
      .forEach(function (el) { el.classList.remove("drop-before", "drop-after"); });
  }

  function endDrag() {
    if (!drag) return;
    clearTimeout(drag.timer);
    if (drag.started) {
      drag.label.classList.remove("dragging");
      drag.label.style.transform = "";
      var hand = handCards();
      if (hand) hand.classList.remove("arranging");
      clearMarks();
      // The click that follows the release must not select or drop the card.
      swallowClickUntil = Date.now() + 400;
    }
    drag = null;
  }

  function start() {
    var hand = handCards();
    if (!drag || !hand || !hand.contains(drag.label)) { endDrag(); return; }
    drag.started = true;
    clearTimeout(drag.timer);
    try { drag.label.setPointerCapture(drag.pointerId); } catch (e) { /* released meanwhile */ }
    drag.label.classList.add("dragging");
    hand.classList.add("arranging");
    follow(drag.x, drag.y);
  }

  // Where the card would land for a pointer at (x, y): before a card, or after a row's last.
  // Positions are the labels' layout boxes (offsetLeft/Top in .hand-cards, which a selected
  // card's lift does not move), so the rows stay put while the card is dragged.
  function place(x, y, others) {
    var hand = handCards();
    var rect = hand.getBoundingClientRect();
    var px = x - rect.left + hand.scrollLeft;
    var py = y - rect.top + hand.scrollTop;
    var rows = [];
    others.forEach(function (label, index) {
      var row = rows[rows.length - 1];
      if (!row || row.top !== label.offsetTop) {
        row = { top: label.offsetTop, bottom: label.offsetTop + label.offsetHeight, items: [] };
        rows.push(row);
      }
      row.items.push({ label: label, index: index });
    });
    var best = null;
    var bestDistance = Infinity;
    rows.forEach(function (row) {
      var distance = py < row.top ? row.top - py : py > row.bottom ? py - row.bottom : 0;
      if (distance < bestDistance) { best = row; bestDistance = distance; }
    });
    if (!best) return null;
    for (var i = 0; i < best.items.length; i++) {
      var item = best.items[i];
      if (px < item.label.offsetLeft + item.label.offsetWidth / 2) {
        return { index: item.index, mark: item.label, side: "drop-before" };
      }
    }
    var last = best.items[best.items.length - 1];
    return { index: last.index + 1, mark: last.label, side: "drop-after" };
  }

  function follow(x, y) {
    drag.x = x;
    drag.y = y;
    drag.label.style.transform = "translate(" + (x - drag.x0) + "px, " + (y - drag.y0) + "px)";
    var others = shownLabels().filter(function (l) { return l !== drag.label; });
    var spot = place(x, y, others);
    clearMarks();
    drag.spot = spot;
    if (spot) spot.mark.classList.add(spot.side);
  }

  function drop() {
    var label = drag.label;
    var others = shownLabels().filter(function (l) { return l !== label; });
    var spot = drag.spot;
    var before = shownLabels();
    endDrag();
    if (!spot || !document.body.contains(label)) return;
    others.splice(spot.index, 0, label);
    var same = others.every(function (l, i) { return l === before[i]; });
    if (!same) arrange(others);
  }

  document.addEventListener("pointerdown", function (evt) {
    if (!evt.isPrimary || evt.button !== 0) return;
    var label = evt.target.closest && evt.target.closest("#hand-form .hand-cards label");
    swallowClickUntil = 0;  // a new press: its click is the player's (a touch drag makes none)
    if (!label) return;
    endDrag();
    drag = { label: label, pointerId: evt.pointerId, x0: evt.clientX, y0: evt.clientY,
             x: evt.clientX, y: evt.clientY, started: false, touch: evt.pointerType !== "mouse",
             timer: null, spot: null };
    if (drag.touch) drag.timer = setTimeout(start, HOLD_MS);
  });

  document.addEventListener("pointermove", function (evt) {
    if (!drag || evt.pointerId !== drag.pointerId) return;
    if (!drag.started) {
      var dx = evt.clientX - drag.x0;
      var dy = evt.clientY - drag.y0;
      drag.x = evt.clientX;
      drag.y = evt.clientY;
      if (Math.abs(dx) < SLOP && Math.abs(dy) < SLOP) return;
      // A finger moving up or down first scrolls the page (the browser cancels this press).
      if (drag.touch && Math.abs(dy) > Math.abs(dx)) { endDrag(); return; }
      start();
    }
    if (drag && drag.started) {
      evt.preventDefault();
      follow(evt.clientX, evt.clientY);
    }
  });

  document.addEventListener("pointerup", function (evt) {
    if (!drag || evt.pointerId !== drag.pointerId) return;
    if (drag.started) { drop(); return; }
    // A tap's click is aimed where the finger was (the fresh copy): only a mouse's or a pen's
    // needs making.
    var carried = drag.carried && !drag.touch && document.getElementById(drag.label.htmlFor);
    endDrag();
    if (carried) clickCarried(carried);
  });
  document.addEventListener("pointercancel", function (evt) {
    if (drag && evt.pointerId === drag.pointerId) endDrag();
  });
  document.addEventListener("keydown", function (evt) {
    if (drag && drag.started && evt.key === "Escape") {
      evt.preventDefault();
      evt.stopImmediatePropagation();
      endDrag();
    }
  }, { capture: true });

  document.addEventListener("click", function (evt) {
    if (Date.now() > swallowClickUntil) return;
    if (!evt.target.closest || !evt.target.closest("#hand-form .hand-cards")) return;
    swallowClickUntil = 0;
    evt.preventDefault();
    evt.stopPropagation();
  }, { capture: true });

  // Once a card is picked up, the finger moves it and not the page, and no menu opens.
  document.addEventListener("DOMContentLoaded", function () {
    var p = page();
    if (!p) return;
    p.addEventListener("touchmove", function (evt) {
      if (drag && drag.started && evt.cancelable) evt.preventDefault();
    }, { passive: false });
    p.addEventListener("contextmenu", function (evt) {
      if (drag) evt.preventDefault();
    });
  });

  // A push that swaps a fresh hand in (a changed hand, a snapshot) under a press: the press
  // carries over to the card's fresh copy (the same id). A drag goes on with it, and a click,
  // which the browser sends to the press's common ancestor and not to the card, is made here.
  // A card gone from the hand ends the press.
  document.addEventListener("htmx:wsAfterMessage", function () {
    if (!drag || document.body.contains(drag.label)) return;
    var fresh = document.getElementById(drag.label.id);
    var hand = handCards();
    if (!fresh || !hand || !hand.contains(fresh)) { endDrag(); return; }
    drag.label = fresh;
    drag.carried = true;
    if (drag.started) {
      fresh.classList.add("dragging");
      hand.classList.add("arranging");
      try { fresh.setPointerCapture(drag.pointerId); } catch (e) { /* released meanwhile */ }
      follow(drag.x, drag.y);
    }
  });

  // A carried click: made after the browser's own, unless that one reached the card.
  var carriedBox = null;
  function clickCarried(box) {
    carriedBox = box;
    setTimeout(function () {
      if (carriedBox === box && document.body.contains(box)) box.click();
      carriedBox = null;
    }, 0);
  }
  document.addEventListener("click", function (evt) {
    if (!carriedBox || !evt.target.closest) return;
    var label = evt.target.closest("label");
    if (evt.target === carriedBox || (label && label.htmlFor === carriedBox.id)) carriedBox = null;
  }, { capture: true });
})();
