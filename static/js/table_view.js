/* 414 Club table page: how this page shows the table, beside what the server renders.
 *
 * - The hand's sort order (by rank, as rendered; by suit; bombs and straights grouped first;
 *   the player's own order, dragged or moved with Shift+arrows: hand_arrange.js), chosen with
 *   the buttons of .hand-sort and remembered per player in localStorage. Cards are reordered
 *   with the CSS `order` property only: every card stays in its rank group, so the socket's
 *   deltas (which delete played cards and emptied rank groups by id) still apply.
 *   table.js moves the keyboard through the cards in this visual order.
 * - The trick just ended stays readable, dimmed, under "Last trick", until the next lead
 *   replaces the trick region.
 * No inline code or style: the site's Content Security Policy forbids both.
 */
(function () {
  "use strict";

  var MODES = ["rank", "suit", "combos", "custom"];
  var SUITS = { S: 0, H: 1, C: 2, D: 3 };
  var NATURAL = { J: 11, Q: 12, K: 13, A: 14 };

  function page() { return document.getElementById("table-page"); }

  function storageKey() {
    var p = page();
    return "club414.sort." + ((p && p.dataset.player) || "anonymous");
  }

  function savedMode() {
    var mode = null;
    try { mode = window.localStorage.getItem(storageKey()); } catch (e) { mode = null; }
    return MODES.indexOf(mode) >= 0 ? mode : "rank";
  }

  function saveMode(mode) {
    try { window.localStorage.setItem(storageKey(), mode); } catch (e) { /* private mode */ }
  }

  function faceOf(code) {
    if (code === "BJ" || code === "RJ") return null;
    var rank = code.slice(0, -1);
    return NATURAL[rank] || parseInt(rank, 10);
  }

  // Cards as rendered (by power at the round level, weakest first), with their labels.
  function cards() {
    return Array.prototype.map.call(
      document.querySelectorAll("#hand-form .card-check"),
      function (box, index) {
        return { box: box, label: box.nextElementSibling, code: box.value, index: index,
                 face: faceOf(box.value) };
      });
  }

  // Groups of cards in the order shown: bombs (3+ of a face, two or more jokers, 4-4-A),
  // then straights (3+ consecutive natural faces 3..A, longest first), then the rest.
  function combos(all) {
    var byFace = {};
    var jokers = [];
    all.forEach(function (c) {
      if (c.face === null) jokers.push(c);
      else (byFace[c.face] = byFace[c.face] || []).push(c);
    });
    var groups = [];
    var used = {};
    function take(list) { list.forEach(function (c) { used[c.index] = true; }); groups.push(list); }
    if (jokers.length >= 2) take(jokers);
    Object.keys(byFace).forEach(function (face) {
      if (byFace[face].length >= 3) take(byFace[face]);
    });
    var fours = (byFace[4] || []).filter(function (c) { return !used[c.index]; });
    var aces = (byFace[14] || []).filter(function (c) { return !used[c.index]; });
    if (fours.length === 2 && aces.length >= 1) take([fours[0], fours[1], aces[0]]);
    for (;;) {  // the longest run of free faces, one card each, again and again
      var best = null;
      var run = [];
      for (var face = 3; face <= 15; face++) {
        var free = face <= 14 && (byFace[face] || []).filter(function (c) { return !used[c.index]; })[0];
        if (free) { run.push(free); continue; }
        if (run.length >= 3 && (!best || run.length > best.length)) best = run;
        run = [];
      }
      if (!best) break;
      take(best);
    }
    var rest = all.filter(function (c) { return !used[c.index]; });
    if (rest.length) groups.push(rest);
    return groups;
  }

  function orderOf(mode, all) {
    if (mode === "suit") {
      var sorted = all.slice().sort(function (a, b) {
        var sa = a.face === null ? 9 : SUITS[a.code.slice(-1)];
        var sb = b.face === null ? 9 : SUITS[b.code.slice(-1)];
        return sa - sb || a.index - b.index;
      });
      var groups = [];
      sorted.forEach(function (c, i) {
        var prev = sorted[i - 1];
        var same = prev && (prev.face === null) === (c.face === null)
          && (c.face === null || prev.code.slice(-1) === c.code.slice(-1));
        if (same) groups[groups.length - 1].push(c); else groups.push([c]);
      });
      return groups;
    }
    if (mode === "combos") return combos(all);
    return null;
  }

  // The player's own order for this deal (hand_arrange.js), or null when they made none.
  function arranged(all) {
    var arrangement = window.club414 && window.club414.arrangement;
    return arrangement ? arrangement.order(all) : null;
  }

  function applySort(mode) {
    var hand = document.querySelector("#hand-form .hand-cards");
    if (!hand) return;
    var all = cards();
    var own = arranged(all);
    var groups;
    if (mode === "custom" && own) {
      groups = [own];
    } else {
      // No own order for this deal (a new deal): the order it was arranged from.
      if (mode === "custom") {
        mode = (window.club414.arrangement && window.club414.arrangement.base()) || "rank";
      }
      groups = orderOf(mode, all);
    }
    hand.classList.toggle("sorted", !!groups);
    hand.dataset.sort = mode;
    all.forEach(function (c) {
      c.label.style.order = "";
      c.label.style.zIndex = "";
      c.label.classList.remove("group-start");
    });
    if (groups) {
      var n = 0;
      groups.forEach(function (group) {
        group.forEach(function (c, i) {
          // Positioned cards paint in document order: the z-index keeps each card under the next.
          c.label.style.zIndex = String(n);
          c.label.style.order = String(n++);
          if (i === 0 && groups.length > 1) c.label.classList.add("group-start");
        });
      });
    }
    document.querySelectorAll(".hand-sort [data-sort]").forEach(function (button) {
      button.setAttribute("aria-pressed", button.dataset.sort === mode ? "true" : "false");
      if (button.dataset.sort === "custom") button.hidden = !own;
    });
  }

  document.addEventListener("click", function (evt) {
    var button = evt.target.closest && evt.target.closest(".hand-sort [data-sort]");
    if (!button) return;
    saveMode(button.dataset.sort);
    applySort(button.dataset.sort);
  });
  document.addEventListener("DOMContentLoaded", function () { applySort(savedMode()); });
  // After each frame has settled: htmx's settling puts the server's class back on swapped
  // elements that keep their id (the cards' labels: base.html settles no style), so sorting
  // earlier would be undone.
  document.addEventListener("htmx:wsAfterMessage", function () { applySort(savedMode()); });

  // --- the last trick, until the next lead --------------------------------------------------
  var lastTrick = null;
  // A snapshot (a full frame: first connect, resync) shows the table as a fresh page would.
  var fullFrame = false;
  document.addEventListener("htmx:wsBeforeMessage", function (evt) {
    fullFrame = /^<!--frame \{[^>]*"full":true/.test(evt.detail.message || "");
  });
  document.addEventListener("htmx:oobBeforeSwap", function (evt) {
    var target = evt.detail.target;
    if (!target || target.id !== "trick") return;
    var list = target.querySelector("#trick-list");
    var kept = target.querySelector(".last-trick");
    lastTrick = list ? list.cloneNode(true) : kept ? kept.querySelector("ol") : null;
  });
  document.addEventListener("htmx:oobAfterSwap", function (evt) {
    if (!evt.detail.target || evt.detail.target.id !== "trick") return;
    var target = document.getElementById("trick");  // the swapped-in region (htmx names the old)
    var old = lastTrick;
    lastTrick = null;
    if (!target) return;
    if (!old || fullFrame || target.querySelector("#trick-list") || target.hidden) return;
    old.removeAttribute("id");
    old.querySelectorAll("[id]").forEach(function (el) { el.removeAttribute("id"); });
    var box = document.createElement("div");
    box.className = "last-trick";
    var title = document.createElement("p");
    title.className = "last-trick-title";
    title.textContent = (page() && page().dataset.lastTrick) || "";
    box.appendChild(title);
    box.appendChild(old);
    target.appendChild(box);
  });

  window.club414 = window.club414 || { beeps: 0, alerts: 0 };
  window.club414.sortHand = applySort;
  // hand_arrange.js: the mode shown, and a new mode chosen (saved, then shown).
  window.club414.sortMode = function () {
    var hand = document.querySelector("#hand-form .hand-cards");
    return (hand && hand.dataset.sort) || savedMode();
  };
  window.club414.setSort = function (mode) {
    saveMode(mode);
    applySort(mode);
  };
})();
