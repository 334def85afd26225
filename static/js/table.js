/* 414 Club table page: small helpers around htmx's ws extension. No build step.
 *
 * - every message sent on the table socket carries a client id and the shown version;
 * - `cards` is always a list;
 * - countdown bars shrink to their deadline;
 * - Hint cycles through the legal plays; Enter on the hand plays; Space toggles a card.
 */
(function () {
  "use strict";

  function newClientId() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return "c" + Date.now().toString(36) + Math.random().toString(36).slice(2);
  }

  function shownVersion() {
    var status = document.getElementById("status");
    var v = status && status.dataset.version;
    return v ? parseInt(v, 10) : null;
  }

  // --- sending ------------------------------------------------------------------------------
  document.addEventListener("htmx:wsConfigSend", function (evt) {
    var params = evt.detail.parameters;
    params.client_id = newClientId();
    var version = parseInt(params.version, 10);
    if (isNaN(version)) version = shownVersion();
    params.version = version;
    var cards = params.cards;
    if (cards === undefined || cards === null || cards === "") cards = [];
    else if (!Array.isArray(cards)) cards = [cards];
    params.cards = params.action === "pass" ? [] : cards;
    // Headers mean nothing to the table socket (the session authenticates it): don't send them.
    evt.detail.headers = null;
    clearFlash();
    // One answer per prompt: lock the form's buttons until the next render replaces them.
    var form = evt.detail.elt && evt.detail.elt.closest ? evt.detail.elt.closest("form") : null;
    if (form) {
      setTimeout(function () { lock(form); }, 0);
      // Unlock if nothing came back (a lost frame); a refusal unlocks at once.
      setTimeout(function () { if (document.body.contains(form)) unlock(form); }, 2000);
    }
  });

  function lock(form) {
    form.querySelectorAll("button:not([disabled])").forEach(function (b) {
      b.disabled = true;
      b.classList.add("sent-lock");
    });
  }

  function unlock(root) {
    root.querySelectorAll("button.sent-lock").forEach(function (b) {
      b.disabled = false;
      b.classList.remove("sent-lock");
    });
  }

  function clearFlash() {
    var flash = document.getElementById("flash");
    if (flash) flash.innerHTML = "";
  }

  var flashTimer = null;
  document.addEventListener("htmx:oobAfterSwap", function (evt) {
    var target = evt.detail.target;
    if (target && target.id === "flash" && target.textContent.trim()) {
      // A refusal: let the form be used again at once, and fade the message after a while.
      unlock(document);
      clearTimeout(flashTimer);
      flashTimer = setTimeout(clearFlash, 8000);
    }
  });

  document.addEventListener("click", function (evt) {
    if (evt.target.closest(".flash-close")) clearFlash();
  });

  // The newest move is the last line: keep it in view.
  function scrollLog() {
    var lines = document.querySelector("#log .log-lines");
    if (lines) lines.scrollTop = lines.scrollHeight;
  }
  document.addEventListener("DOMContentLoaded", scrollLog);
  document.addEventListener("htmx:oobAfterSwap", function (evt) {
    if (evt.detail.target && evt.detail.target.id === "log") scrollLog();
  });

  // --- connection state -----------------------------------------------------------------------
  function setOnline(online) {
    var el = document.getElementById("connection");
    if (!el) return;
    el.hidden = online;
    el.textContent = online ? "" : el.dataset.offline;
  }
  document.addEventListener("htmx:wsOpen", function () { setOnline(true); });
  document.addEventListener("htmx:wsClose", function (evt) {
    setOnline(false);
    // The extension retries abnormal closes itself; a server going away (1001, a restart)
    // is retried here too. 1000 is a normal close, 4403 a refusal: those stay closed.
    var code = evt.detail.event && evt.detail.event.code;
    if (code === 1001 || code === 1005) {
      setTimeout(function () { evt.detail.socketWrapper.reconnect(); }, 1000 + Math.random() * 2000);
    }
  });

  // --- countdown bars -------------------------------------------------------------------------
  // The bar counts down from the remaining time the server rendered, measured on this page's
  // clock (so a skewed client clock does not matter); data-deadline-ms is the fallback.
  function tick() {
    var now = performance.now();
    document.querySelectorAll(".countdown").forEach(function (bar) {
      if (!bar.dataset.localDeadline) {
        var remaining = parseFloat(bar.dataset.remaining);
        if (isNaN(remaining)) remaining = (parseInt(bar.dataset.deadlineMs, 10) - Date.now()) / 1000;
        bar.dataset.localDeadline = String(now + remaining * 1000);
      }
      var total = parseFloat(bar.dataset.total) || 1;
      var left = Math.max(0, (parseFloat(bar.dataset.localDeadline) - now) / 1000);
      var fill = bar.querySelector(".countdown-fill");
      if (fill) fill.style.width = Math.min(100, (left / total) * 100) + "%";
      bar.classList.toggle("urgent", left <= Math.min(5, total / 3));
      var seconds = bar.querySelector(".countdown-seconds");
      if (seconds) seconds.textContent = String(Math.ceil(left));
    });
    window.requestAnimationFrame(tick);
  }
  window.requestAnimationFrame(tick);

  // --- hand: keep the selection and focus across pushes ---------------------------------------
  // Every change at the table re-renders the hand; a card picked while waiting stays picked as
  // long as the hand itself did not change (after this seat's own play it did: it clears).
  var kept = null;
  document.addEventListener("htmx:oobBeforeSwap", function (evt) {
    var target = evt.detail.target;
    if (!target || target.id !== "hand") return;
    var boxes = target.querySelectorAll(".card-check");
    var focused = document.activeElement;
    kept = {
      codes: Array.prototype.map.call(boxes, function (b) { return b.value; }).join(" "),
      checked: Array.prototype.filter.call(boxes, function (b) { return b.checked; })
        .map(function (b) { return b.value; }),
      focus: focused && target.contains(focused) ? focused.id : null,
    };
  });
  document.addEventListener("htmx:oobAfterSwap", function (evt) {
    var target = evt.detail.target;
    if (!kept || !target || target.id !== "hand") return;
    var form = document.getElementById("hand-form");
    if (form) {
      var codes = Array.prototype.map.call(form.querySelectorAll(".card-check"),
        function (b) { return b.value; }).join(" ");
      if (codes === kept.codes) {
        selectCards(form, kept.checked);
        var again = kept.focus && document.getElementById(kept.focus);
        if (again) again.focus({ preventScroll: true });
      }
    }
    kept = null;
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
  }

  document.addEventListener("click", function (evt) {
    var hint = evt.target.closest("#hint-button");
    var clear = evt.target.closest("#clear-button");
    var form = document.getElementById("hand-form");
    if (!form) return;
    if (hint) {
      var hints = [];
      try { hints = JSON.parse(form.dataset.hints || "[]"); } catch (e) { hints = []; }
      if (!hints.length) return;
      if (hintVersion !== shownVersion()) { hintIndex = -1; hintVersion = shownVersion(); }
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
    if (evt.key !== "Enter") return;
    var form = evt.target.closest && evt.target.closest("#hand-form");
    if (!form || evt.target.tagName === "BUTTON") return;
    var play = document.getElementById("play-button");
    evt.preventDefault();
    if (play && !play.disabled) play.click();
  });

  // --- invite link ----------------------------------------------------------------------------
  function absolutizeInvite() {
    var input = document.getElementById("invite-url");
    if (input && input.dataset.path) input.value = new URL(input.dataset.path, location.href).href;
  }
  document.addEventListener("DOMContentLoaded", absolutizeInvite);
  document.addEventListener("htmx:oobAfterSwap", absolutizeInvite);
  document.addEventListener("click", function (evt) {
    var button = evt.target.closest(".copy-invite");
    if (!button) return;
    var input = document.getElementById("invite-url");
    input.select();
    if (navigator.clipboard) {
      navigator.clipboard.writeText(input.value).then(function () {
        button.textContent = button.dataset.copied;
      });
    }
  });
})();
