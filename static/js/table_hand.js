/* 414 Club table page: the own hand: its picked cards kept across pushes, Hint and Clear, Play
 * enabled only with cards picked on the own turn, and the keyboard (one tab stop for the hand,
 * arrows between cards, shortcut keys; Shift+arrows are hand_arrange.js's).
 */
(function () {
  "use strict";
  var table = window.club414.table;  // table.js

  // --- hand: keep the selection and focus across pushes ---------------------------------------
  // A push that swaps the whole hand in (a snapshot, a changed hand) keeps what was picked: a
  // card picked while waiting stays picked as long as it is still in the hand. The cards a play took leave the pick (one copy per card
  // played): the tab that played is left with nothing picked, and a second tab of the same
  // seat keeps the cards it had picked and still holds (it lost its whole pick to the other
  // tab's play, and Play then answered "Select the cards to play first"). A hand that gained a
  // card (a new deal, a tribute) starts with nothing picked.
  var kept = null;

  function codesOf(boxes) {
    return Array.prototype.map.call(boxes, function (b) { return b.value; });
  }
  function checkedCodes(root) {
    return codesOf(root.querySelectorAll(".card-check:checked"));
  }
  // ``from`` without ``taken``, copy by copy. ``strict``: null when ``taken`` holds a card
  // ``from`` has not (the hand gained a card).
  function without(from, taken, strict) {
    var left = from.slice();
    for (var i = 0; i < taken.length; i++) {
      var at = left.indexOf(taken[i]);
      if (at >= 0) left.splice(at, 1);
      else if (strict) return null;
    }
    return left;
  }
  document.addEventListener("htmx:oobBeforeSwap", function (evt) {
    var target = evt.detail.target;
    if (!target || target.id !== "hand") return;
    var boxes = target.querySelectorAll(".card-check");
    var focused = document.activeElement;
    kept = {
      codes: codesOf(boxes),
      checked: checkedCodes(target),
      focus: focused && target.contains(focused) ? focused.id : null,
    };
  });
  document.addEventListener("htmx:oobAfterSwap", function (evt) {
    var target = evt.detail.target;
    if (!kept || !target || target.id !== "hand") return;
    var form = document.getElementById("hand-form");
    if (form) {
      var lost = without(kept.codes, codesOf(form.querySelectorAll(".card-check")), true);
      if (lost) {
        selectCards(form, without(kept.checked, lost));
        var again = kept.focus && document.getElementById(kept.focus);
        if (again) again.focus({ preventScroll: true });
      }
    }
    kept = null;
    syncPlay();
  });

  // After this seat's own play the played cards are removed one by one (no new hand): the
  // pick as it was before the first removal, less the cards removed, once the push is in.
  var removal = null;
  document.addEventListener("htmx:oobBeforeSwap", function (evt) {
    var target = evt.detail.target;
    var form = document.getElementById("hand-form");
    if (!form || !target || !/^(card|rank)-/.test(target.id || "")) return;
    if (!removal) {
      removal = { checked: checkedCodes(form), played: [] };
      setTimeout(function () {
        var done = removal;
        removal = null;
        var now = document.getElementById("hand-form");
        if (now) selectCards(now, without(done.checked, done.played));
        syncPlay();
      }, 0);
    }
    var boxes = target.classList.contains("card-check") ? [target]
      : target.querySelectorAll(".card-check");
    removal.played = removal.played.concat(codesOf(boxes));
  });

  // --- hand: hints, clear, keyboard ----------------------------------------------------------
  var hintIndex = -1;
  var hintVersion = null;

  function selectCards(form, cards) {
    var wanted = {};
    cards.forEach(function (c) { wanted[c] = (wanted[c] || 0) + 1; });
    form.querySelectorAll(".card-check").forEach(function (box) {
      if (wanted[box.value]) {
        box.checked = true;
        wanted[box.value] -= 1;
      } else {
        box.checked = false;
      }
    });
    syncPlay();
  }

  // Play says whether it would do anything: off while this seat has nothing to play (the
  // server renders it so: no hints) and while no card is picked, so a press never sends an
  // empty play ("Select the cards to play first" came after a pick had been swept away). A
  // press in flight keeps it locked until the answer (sent-lock).
  function syncPlay() {
    var play = document.getElementById("play-button");
    if (!play || play.classList.contains("sent-lock") || play.hasAttribute("data-offline-lock")) return;
    var actions = document.getElementById("hand-actions");
    var hints = (actions && actions.dataset.hints) || "[]";
    play.disabled = hints === "[]" || !document.querySelector("#hand-form .card-check:checked");
  }
  document.addEventListener("change", function (evt) {
    if (evt.target.classList && evt.target.classList.contains("card-check")) syncPlay();
  });
  document.addEventListener("DOMContentLoaded", syncPlay);
  document.addEventListener("htmx:oobAfterSwap", function (evt) {
    var id = evt.detail.target && evt.detail.target.id;
    if (id === "hand-actions" || id === "hand") syncPlay();
  });

  document.addEventListener("click", function (evt) {
    var hint = evt.target.closest("#hint-button");
    var clear = evt.target.closest("#clear-button");
    var form = document.getElementById("hand-form");
    if (!form) return;
    if (hint) {
      var hints = [];
      var actions = document.getElementById("hand-actions");
      try { hints = JSON.parse((actions && actions.dataset.hints) || "[]"); } catch (e) { hints = []; }
      if (!hints.length) return;
      if (hintVersion !== table.shownVersion()) { hintIndex = -1; hintVersion = table.shownVersion(); }
      hintIndex = (hintIndex + 1) % hints.length;
      selectCards(form, hints[hintIndex]);
      var first = form.querySelector(".card-check:checked");
      if (first && first.nextElementSibling) {
        first.nextElementSibling.scrollIntoView({ block: "nearest", inline: "center" });
      }
    } else if (clear) {
      selectCards(form, []);
    }
  });

  document.addEventListener("keydown", function (evt) {
    if (evt.key !== "Enter" || evt.altKey || evt.ctrlKey || evt.metaKey) return;
    var onBody = evt.target === document.body || evt.target === document.documentElement;
    var form = evt.target.closest && evt.target.closest("#hand-form");
    if (!(form || (onBody && document.getElementById("hand-form")))) return;
    if (evt.target.tagName === "BUTTON") return;
    var play = document.getElementById("play-button");
    evt.preventDefault();
    if (held(play)) table.refuseOffline();
    else if (play && !play.disabled) play.click();
  });

  // --- keyboard: one tab stop for the hand, arrows between cards, shortcut keys -------------
  function cardBoxes() {
    // In the order shown: table_view.js may sort the hand with the CSS `order` of the labels.
    var boxes = Array.prototype.slice.call(document.querySelectorAll("#hand-form .card-check"));
    function shown(box) {
      var label = box.nextElementSibling;
      return (label && parseInt(label.style.order, 10)) || 0;
    }
    return boxes.sort(function (a, b) { return shown(a) - shown(b); });
  }

  // Roving tab stop: Tab reaches the hand once (the focused, first selected or first card).
  function rove(current) {
    var boxes = cardBoxes();
    if (!boxes.length) return null;
    if (!current || boxes.indexOf(current) < 0) {
      current = boxes.filter(function (b) { return b.tabIndex === 0; })[0]
        || boxes.filter(function (b) { return b.checked; })[0] || boxes[0];
    }
    boxes.forEach(function (b) { b.tabIndex = b === current ? 0 : -1; });
    return current;
  }

  function focusCard(box) {
    box = rove(box);
    if (!box) return false;
    box.focus();
    var label = box.nextElementSibling;
    if (label) label.scrollIntoView({ block: "nearest", inline: "nearest" });
    return true;
  }

  document.addEventListener("keydown", function (evt) {
    var box = evt.target;
    if (!box.classList || !box.classList.contains("card-check")) return;
    if (evt.shiftKey) return;  // Shift+arrows move the card itself (hand_arrange.js)
    var boxes = cardBoxes();
    var i = boxes.indexOf(box);
    var next = null;
    if (evt.key === "ArrowRight" || evt.key === "ArrowDown") next = boxes[i + 1];
    else if (evt.key === "ArrowLeft" || evt.key === "ArrowUp") next = boxes[i - 1];
    else if (evt.key === "Home") next = boxes[0];
    else if (evt.key === "End") next = boxes[boxes.length - 1];
    else return;
    evt.preventDefault();
    if (next) focusCard(next);
  });

  // A button held while the table's connection is down (table.js) that would be usable now:
  // Play with something to play, any other shown.
  function held(el) {
    if (!el || !el.hasAttribute("data-offline-lock") || el.closest("[hidden]")) return false;
    if (el.id !== "play-button") return true;
    var actions = document.getElementById("hand-actions");
    return ((actions && actions.dataset.hints) || "[]") !== "[]";
  }

  // Click the button if it can be used; a held one says "not sent" instead (table.js).
  function clickIfUsable(id) {
    var el = document.getElementById(id);
    if (held(el)) {
      table.refuseOffline();
      return true;
    }
    if (!el || el.disabled || el.closest("[hidden]")) return false;
    el.click();
    return true;
  }

  function typing(el) {
    if (!el || !el.tagName) return false;
    if (el.isContentEditable || el.tagName === "TEXTAREA" || el.tagName === "SELECT") return true;
    return el.tagName === "INPUT" && !/^(checkbox|radio|button|submit)$/i.test(el.type);
  }

  document.addEventListener("keydown", function (evt) {
    if (!document.getElementById("table-page")) return;
    if (evt.altKey || evt.ctrlKey || evt.metaKey || typing(evt.target)) return;
    var key = evt.key.length === 1 ? evt.key.toLowerCase() : evt.key;
    var done = false;
    if (key === "y") done = focusCard(null);
    else if (key === "h") done = clickIfUsable("hint-button");
    else if (key === "c" || key === "Escape") done = clickIfUsable("clear-button");
    else if (key === "k") done = clickIfUsable("claim-button");
    else if (key === "p") done = clickIfUsable("claim-pass-button") || clickIfUsable("pass-button");
    if (done) evt.preventDefault();
  });

  // A push that replaced the focused control leaves focus nowhere: put it back in the hand (or
  // on the same control when it is still there), so the keyboard never has to start over.
  var lostFocusId = null;
  document.addEventListener("htmx:oobBeforeSwap", function (evt) {
    var target = evt.detail.target;
    var focused = document.activeElement;
    if (target && focused && focused !== document.body && target.contains(focused)) {
      lostFocusId = focused.id || "";
    }
  });
  function afterSwapFocus() {
    rove(null);
    if (lostFocusId === null) return;
    var focused = document.activeElement;
    if (!focused || focused === document.body) {
      var again = lostFocusId && document.getElementById(lostFocusId);
      if (again && !again.disabled && !again.closest("[hidden]")) again.focus({ preventScroll: true });
      else if (!focusCardQuietly()) {
        var page = document.getElementById("table-page");
        if (page) { page.tabIndex = -1; page.focus({ preventScroll: true }); }
      }
    }
    lostFocusId = null;
  }
  function focusCardQuietly() {
    var box = rove(null);
    if (!box) return false;
    box.focus({ preventScroll: true });
    return true;
  }

  // After a push, the focus the swap took goes back to the hand (once, after its last region);
  // at load, the hand's one tab stop.
  var focusTimer = null;
  document.addEventListener("htmx:oobAfterSwap", function () {
    clearTimeout(focusTimer);
    focusTimer = setTimeout(afterSwapFocus, 0);
  });
  document.addEventListener("DOMContentLoaded", function () {
    if (document.getElementById("table-page")) rove(null);
  });
  table.syncPlay = syncPlay;
})();
