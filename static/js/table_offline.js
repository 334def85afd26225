/* 414 Club table page: while the table's connection is down, a move is never silently lost.
 *
 * From the moment the socket closes (or the browser goes offline: its socket may stay "open",
 * its sends held) until the first frame the page applies on a new socket, a seated player's
 * page is "cut": nothing it would send can arrive. htmx's ws extension queues a message sent on
 * a closed socket and sends it on the next one, at the version it was pressed at; one sent on a
 * held socket is lost. So, while cut:
 * - the buttons that send a move (Play, Pass, Hook, Unhook, Return, the seat menu's) are
 *   disabled (marked data-offline-lock: an attribute, as htmx's settling puts a swapped
 *   element's class back as rendered);
 * - a notice by the claim bar and the hand (#flash, where refusals show) says the connection is
 *   lost;
 * - a press anyway (K, P, Enter: table_hand.js; a form sent some other way) is refused with
 *   "not sent" there and in the alert region, and never reaches the extension's queue (emptied
 *   too when a socket opens again).
 * Hint, Clear and picking cards are the page's own: they work on. The first frame on the new
 * socket (its snapshot) brings the buttons back as it renders them; the player presses again.
 */
(function () {
  "use strict";
  var table = window.club414.table;  // table.js

  var cut = false;
  var releaseDue = false;  // the frame that ends the cut is being swapped in
  var connected = false;
  var HELD = "form[ws-send]:not(#chat-form) button:not([type=button])";
  var FRAME_HEADER = /^<!--frame \{/;
  // The refusals the server names by close code (table.js says them in the header): no
  // reconnecting then, so the notice says why instead.
  var REFUSALS = { 4429: "tooManySockets", 4430: "tableFull" };

  // Only a page with moves to make: a spectator has none (the header's notice is enough).
  function seated() {
    return !!document.querySelector("form[ws-send]:not(#chat-form)");
  }

  // Play is held even while disabled: a card picked offline must not turn it on (syncPlay).
  function holdActions() {
    document.querySelectorAll(HELD).forEach(function (b) {
      if (b.disabled && b.id !== "play-button" && !b.classList.contains("sent-lock")) return;
      b.disabled = true;
      b.setAttribute("data-offline-lock", "");
    });
  }

  function releaseActions() {
    document.querySelectorAll("button[data-offline-lock]").forEach(function (b) {
      b.removeAttribute("data-offline-lock");
      if (!b.classList.contains("sent-lock")) b.disabled = false;
    });
    if (document.querySelector("#flash .offline-message")) table.clearFlash();
    table.syncPlay();
  }

  function showNotice(key) {
    var flash = document.getElementById("flash");
    var text = table.tableStrings()[key];
    if (!flash || !text) return null;
    table.keepFlash();  // a refusal's fading must not take the notice away
    var notice = flash.querySelector(".offline-message");
    if (!notice) {
      flash.textContent = "";
      notice = document.createElement("p");
      notice.className = "flash-message offline-message";
      flash.appendChild(notice);
    }
    notice.classList.toggle("not-sent", key !== "offline");
    notice.textContent = text;
    placeNotice();
    return notice;
  }

  // On a phone held upright (table.css) the notice is fixed just above what the thumb is about
  // to press: the claim bar while one shows, else the dock (a refusal goes over the header
  // instead: there it covered the hand's lowest cards). Their heights follow their words (a
  // question on two lines, the claim help), so the place is measured, not assumed.
  function placeNotice() {
    var flash = document.getElementById("flash");
    if (!flash || !flash.querySelector(".flash-message")) return;
    var bar = document.getElementById("claim-bar");
    var dock = document.querySelector(".hand-actions:not([hidden])");
    var above = bar && !bar.hidden && bar.getClientRects().length ? bar : dock;
    if (!above) return;
    var gap = window.innerHeight - above.getBoundingClientRect().top;
    flash.style.setProperty("--offline-bottom", Math.max(0, gap) + 6 + "px");
  }
  window.addEventListener("resize", placeNotice);

  function startCut(why) {
    if (!seated()) return;
    cut = true;
    releaseDue = false;
    holdActions();
    showNotice(why || "offline");
  }

  function refuse() {
    var notice = showNotice("notSent");
    if (!notice) return;
    notice.classList.remove("nudge");
    void notice.offsetWidth;  // restart the nudge for a press after a press
    notice.classList.add("nudge");
    table.announce(notice.textContent, true);
  }

  // Before table.js's own handler (capture, on window): a message refused here gets no client
  // id, locks no form and never reaches the extension's queue.
  window.addEventListener("htmx:wsConfigSend", function (evt) {
    if (!cut) return;
    evt.stopImmediatePropagation();
    evt.preventDefault();
    // The extension cancels the form's own submit only once it sends: stop it here.
    if (evt.detail.triggeringEvent) evt.detail.triggeringEvent.preventDefault();
    refuse();
  }, true);

  document.addEventListener("htmx:wsOpen", function (evt) {
    connected = true;
    // Whatever waits in the extension's queue stays unsent: it was pressed on an older table.
    if (cut && evt.detail.socketWrapper) evt.detail.socketWrapper.queue.length = 0;
  });
  document.addEventListener("htmx:wsClose", function (evt) {
    connected = false;
    var code = evt.detail.event && evt.detail.event.code;
    if (code !== 4401) startCut(REFUSALS[code]);  // 4401: table.js reloads the page
  });
  window.addEventListener("offline", function () {
    if (window.club414.socketOpens) startCut();
  });
  window.addEventListener("online", function () {
    connected = false;  // table.js drops a held socket and opens a new one
  });

  // The first frame the page applies on a connection back (table.js, whose listener runs
  // first, cancels one it drops) ends the cut: its regions come in as rendered, and once they
  // have settled every button still held is freed. A region swapped in while cut (a frame
  // already on its way) is held too.
  document.addEventListener("htmx:wsBeforeMessage", function (evt) {
    if (!cut || evt.defaultPrevented || !connected || navigator.onLine === false) return;
    if (!FRAME_HEADER.test(evt.detail.message || "")) return;  // a chat line, a refusal
    cut = false;
    releaseDue = true;
  });
  document.addEventListener("htmx:oobAfterSwap", function () {
    if (cut) holdActions();
    placeNotice();  // a claim bar came or went, or a refusal came
  });
  document.addEventListener("htmx:wsAfterMessage", function () {
    if (!releaseDue) return;
    releaseDue = false;
    releaseActions();
  });

  table.holdIfCut = function () { if (cut) holdActions(); };
  // table_hand.js: the shortcut keys of a held button say "not sent" instead of doing nothing.
  table.refuseOffline = refuse;
})();
