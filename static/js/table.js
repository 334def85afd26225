/* 414 Club table page: small helpers around htmx's ws extension. No build step.
 *
 * - every message sent on the table socket carries a client id and the shown version;
 * - `cards` is always a list;
 * - countdown bars shrink to their deadline;
 * - Hint cycles through the legal plays; Enter on the hand plays; Space toggles a card;
 * - the keyboard plays a whole round: arrows move between cards, shortcut keys act;
 * - a live region announces plays, your turn and claim windows; a beep and the tab title tell
 *   you when it is your turn or a window opens for you (both follow the player's preferences);
 *   Shift+arrows are left to hand_arrange.js, which moves the focused card;
 * - with the "confirm before playing" preference, a play is sent only after the player says yes.
 * Sentences come translated from the page (#table-strings, rendered by Django).
 */
(function () {
  "use strict";

  // One htmx:oobAfterSwap per swapped region. htmx 2 fires it, after each out-of-band swap, on
  // every element the same message swapped in so far (oobSwap's settleInfo.elts), each time with
  // that swap's details: a push of six regions made ~24 events, and every listener of this page
  // ran for each. The first event of a swap goes on; its repeats (the same details object) stop
  // here, in the capture phase, before any listener of the page sees them.
  var lastOobSwap = null;
  window.addEventListener("htmx:oobAfterSwap", function (evt) {
    if (evt.detail === lastOobSwap) evt.stopImmediatePropagation();
    lastOobSwap = evt.detail;
  }, true);

  // Reconnect quickly after a drop or a server restart: a turn lasts seconds, so the
  // extension's default exponential backoff (up to a minute) would time the seat out.
  if (window.htmx) {
    htmx.config.wsReconnectDelay = function (retryCount) {
      return Math.min(500 * Math.pow(2, retryCount), 5000) * (0.5 + Math.random() / 2);
    };
  }

  // An anonymous visitor's random id, so that their tabs count as one spectator
  // (games.live.spectating.person_of); a signed-in player is counted by their account instead.
  if (!/(?:^|;\s*)club414_watcher=/.test(document.cookie)) {
    document.cookie = "club414_watcher=" + newClientId().replace(/[^A-Za-z0-9_-]/g, "")
      + "; path=/; max-age=31536000; SameSite=Lax"
      + (location.protocol === "https:" ? "; Secure" : "");
  }

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
  // "Confirm before playing" (accounts preference, data-confirm-play="on"): ask, naming the
  // cards, before a play leaves the page. No means nothing is sent and the cards stay picked.
  function playConfirmed(params) {
    var page = document.getElementById("table-page");
    if (!page || page.dataset.confirmPlay !== "on" || params.action !== "play") return true;
    var names = Array.prototype.map.call(
      document.querySelectorAll("#hand-form .card-check:checked + label .playing-card"),
      function (card) { return card.getAttribute("title") || card.dataset.card; });
    var text = tableStrings().confirmPlay || "Play %(cards)s?";
    return window.confirm(text.replace("%(cards)s", names.join(", ")));
  }

  document.addEventListener("htmx:wsConfigSend", function (evt) {
    var params = evt.detail.parameters;
    if (params.chat) {
      // A chat line (games.chat.rooms): not a move, so no version, no cards, no lock. A phrase
      // button leaves the typed text alone; Send empties the box once the line is sent.
      evt.detail.headers = null;
      clearFlash();
      if (!params.phrase) {
        var box = document.getElementById("chat-text");
        if (!params.text || !String(params.text).trim()) { evt.preventDefault(); return; }
        setTimeout(function () { if (box) box.value = ""; }, 0);
      }
      return;
    }
    if (!playConfirmed(params)) {
      evt.preventDefault();
      // The extension cancels the form's own submit only once it sends: stop it here.
      if (evt.detail.triggeringEvent) evt.detail.triggeringEvent.preventDefault();
      return;
    }
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
    syncPlay();
  }

  // A new version of the table frees the buttons locked for the last answer, also when the
  // push left their region out as unchanged (the same controls: nothing beats the top play
  // twice running), which kept Pass disabled for up to 2 s when the turn came back that fast.
  document.addEventListener("htmx:oobAfterSwap", function (evt) {
    if (evt.detail.target && evt.detail.target.id === "status") unlock(document);
  });

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

  // The newest move is the last line: keep it in view. Scrolled in the next animation frame,
  // once per frame: reading the log's height in the middle of a push's swaps made the browser
  // lay the whole table out there, and again for the swaps after it (~2.6 ms a frame).
  var scrollFrame = 0;
  function scrollLog() {
    if (scrollFrame) return;
    scrollFrame = window.requestAnimationFrame(function () {
      scrollFrame = 0;
      var lines = document.querySelector("#log .log-lines");
      if (lines) lines.scrollTop = lines.scrollHeight;
    });
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
  // Refusals the server names by close code (games.sockets.socket_limits): say why, stay closed.
  var REFUSALS = { 4429: "tooManySockets", 4430: "tableFull" };
  document.addEventListener("htmx:wsClose", function (evt) {
    setOnline(false);
    // The extension retries abnormal closes itself; a server going away (1001, a restart)
    // is retried here too, and so is a socket closed for one message too big (1009 from
    // Daphne, 4009 from the consumer: only a page whose field limits were taken away sends
    // one) or for a flood (4008, after a longer pause): the message is gone, the table is not.
    // 1000 is a normal close, 4403 a refusal: those stay closed. 4401: this browser's session
    // ended (logged out, password changed): reload, to show what it may see now.
    var code = evt.detail.event && evt.detail.event.code;
    var refusal = REFUSALS[code] && tableStrings()[REFUSALS[code]];
    if (refusal) {
      var el = document.getElementById("connection");
      if (el) {
        el.textContent = refusal;
        el.classList.add("refused");
      }
      announce(refusal, true);
      return;
    }
    if (code === 4401) {
      window.location.reload();
      return;
    }
    if (code === 1001 || code === 1005 || code === 1009 || code === 4009 || code === 4008) {
      var pause = code === 4008 ? 5000 : 1000;
      setTimeout(function () { evt.detail.socketWrapper.reconnect(); }, pause + Math.random() * 2000);
    }
  });

  // --- frames: in order, or a snapshot --------------------------------------------------------
  // Each frame that shows the table starts with <!--frame {"v","r","full","b"}-->: v the match
  // version it shows, r the table's revision, b the version a delta applies on. A page never
  // shows an older frame over a newer one; a delta that does not follow what it shows (a lost
  // push) is dropped and a snapshot asked for. Frames without a header (a refusal, the
  // spectator count) always apply.
  var FRAME_HEADER = /^<!--frame (\{[^>]*\})-->/;
  var shownFrame = { v: -1, r: -1 };
  window.club414 = window.club414 || { beeps: 0, alerts: 0 };
  window.club414.dropFrames = 0;  // tests: lose the next N frames on purpose
  window.club414.resyncs = 0;
  window.club414.snapshots = 0;  // full frames applied (first connect, resyncs, seat changes)

  function older(a, b) { return a.r < b.r || (a.r === b.r && a.v < b.v); }

  document.addEventListener("DOMContentLoaded", function () {
    var status = document.getElementById("status");
    if (!status) return;
    var v = parseInt(status.dataset.version, 10);
    var r = parseInt(status.dataset.revision, 10);
    shownFrame = { v: isNaN(v) ? -1 : v, r: isNaN(r) ? -1 : r };
  });

  document.addEventListener("htmx:wsBeforeMessage", function (evt) {
    var match = FRAME_HEADER.exec(evt.detail.message);
    if (!match) return;
    var frame;
    try { frame = JSON.parse(match[1]); } catch (e) { return; }
    if (window.club414.dropFrames > 0) {
      window.club414.dropFrames -= 1;
      evt.preventDefault();
      return;
    }
    if (frame.full) {
      if (older(frame, shownFrame)) { evt.preventDefault(); return; }
    } else if (!older(shownFrame, frame)) {
      evt.preventDefault();  // already shown
      return;
    } else if (frame.b !== shownFrame.v || frame.r !== shownFrame.r) {
      evt.preventDefault();
      askSnapshot();
      return;
    }
    shownFrame = { v: frame.v, r: frame.r };
    if (frame.full) window.club414.snapshots += 1;
  });

  var tableSocket = null;
  var socketOpens = 0;
  document.addEventListener("htmx:wsOpen", function (evt) {
    tableSocket = evt.detail.socketWrapper;
    socketOpens += 1;
    window.club414.socketOpens = socketOpens;  // read by the browser tests: the page is live
    // After a reconnect, the chat room's last lines (games.chat.rooms): lines said while the
    // socket was away. The first open needs none: the page came with them.
    if (socketOpens > 1 && document.getElementById("chat")) tableSocket.send('{"chat_room":1}');
  });
  function askSnapshot() {
    window.club414.resyncs += 1;
    if (tableSocket) tableSocket.send('{"resync":1}');
  }
  // Every few seconds the page says it is still there (the spectator count forgets a silent
  // one) and which version it shows: the server sends a snapshot if it is behind.
  setInterval(function () {
    if (tableSocket) tableSocket.send(JSON.stringify({ heartbeat: 1, version: shownFrame.v }));
  }, 5000);

  // Appended trick entries: keep the last eight, as a fresh render shows.
  var TRICK_KEEP = 8;
  document.addEventListener("htmx:oobAfterSwap", function (evt) {
    var target = evt.detail.target;
    if (!target || target.id !== "trick-list") return;
    while (target.children.length > TRICK_KEEP) target.removeChild(target.firstElementChild);
  });

  // Appended log lines: drop the "no moves yet" line and keep the log short.
  var LOG_KEEP = 40;
  document.addEventListener("htmx:oobAfterSwap", function (evt) {
    var target = evt.detail.target;
    if (!target || target.id !== "log-lines") return;
    target.querySelectorAll("li.muted").forEach(function (li) { li.remove(); });
    while (target.children.length > LOG_KEEP) target.removeChild(target.firstElementChild);
    scrollLog();
  });

  // --- chat (games.chat.rooms): lines arrive without a frame header, so they never touch the
  // version above. The server sends no line of a muted player (games.chat.mutes); lines already
  // on the page are hidden here when the reader mutes their author. The viewer's
  // own lines offer no mute or report, and the room keeps its last lines.
  var CHAT_KEEP = 30;
  function mutedPlayers() {
    var chat = document.getElementById("chat");
    try { return JSON.parse((chat && chat.dataset.muted) || "[]").map(String); } catch (e) { return []; }
  }
  function tidyChat() {
    var lines = document.getElementById("chat-lines");
    if (!lines) return;
    var muted = mutedPlayers();
    var me = (document.getElementById("table-page") || {}).dataset || {};
    var seen = {};
    Array.prototype.slice.call(lines.children).reverse().forEach(function (li) {
      if (seen[li.id]) { li.remove(); return; }  // a line sent while the room was re-read
      seen[li.id] = true;
      if (muted.indexOf(li.dataset.author) >= 0) li.hidden = true;
      if (me.player && li.dataset.author === me.player) li.classList.add("mine");
    });
    while (lines.children.length > CHAT_KEEP) lines.removeChild(lines.firstElementChild);
    lines.scrollTop = lines.scrollHeight;
  }
  document.addEventListener("DOMContentLoaded", tidyChat);
  document.addEventListener("htmx:oobAfterSwap", function (evt) {
    var id = evt.detail.target && evt.detail.target.id;
    if (id === "chat-lines" || id === "chat-room") tidyChat();
  });
  // The server answers a mute with an HX-Trigger naming the player (games.chat.views.mute); the
  // event bubbles from the button to the document.
  document.addEventListener("chat-muted", onMuted);
  function onMuted(evt) {
    var chat = document.getElementById("chat");
    var user = evt.detail && String(evt.detail.user);
    if (!chat || !user) return;
    var muted = mutedPlayers();
    if (muted.indexOf(user) < 0) muted.push(user);
    chat.dataset.muted = JSON.stringify(muted);
    tidyChat();
  }
  // --- rematch: a player seated at the new table goes there ---------------------------------
  // Only when the rematch region comes to say so while the page is open (games.play.rematches): a
  // finished table opened later, its rematch long settled, stays where it is.
  var rematchGo = "";
  document.addEventListener("DOMContentLoaded", function () {
    var region = document.getElementById("rematch");
    rematchGo = (region && region.dataset.go) || "";
  });
  document.addEventListener("htmx:oobAfterSwap", function () {
    var region = document.getElementById("rematch");
    var go = (region && region.dataset.go) || "";
    if (go && go !== rematchGo) window.location.assign(go);
    rematchGo = go;
  });

  // --- countdown bars -------------------------------------------------------------------------
  // The bar counts down from the remaining time the server rendered, measured on this page's
  // clock (so a skewed client clock does not matter); data-deadline-ms is the fallback. The page
  // is drawn only when a bar moves by a whole pixel or its seconds change: a redraw at every
  // frame (requestAnimationFrame) kept a third of a core busy per open table page for a bar
  // that moves a few pixels a second. No bar counting: no timer at all (a 250 ms one woke an
  // idle page four times a second to find none); a bar comes only with the page or with a
  // swap, and each swap ticks at once.
  var MIN_TICK_MS = 16;
  var tickTimer = 0;
  var tickFrame = 0;
  // A bar's deadline on this page's clock, taken when the bar arrives (the remaining time was
  // rendered for that moment), not when it is first drawn: a hidden tab draws nothing.
  function stampBars(now) {
    document.querySelectorAll(".countdown:not([data-local-deadline])").forEach(function (bar) {
      var remaining = parseFloat(bar.dataset.remaining);
      if (isNaN(remaining)) remaining = (parseInt(bar.dataset.deadlineMs, 10) - Date.now()) / 1000;
      bar.dataset.localDeadline = String(now + remaining * 1000);
    });
  }
  function tick() {
    var now = performance.now();
    var wait = Infinity;
    stampBars(now);
    document.querySelectorAll(".countdown").forEach(function (bar) {
      var total = parseFloat(bar.dataset.total) || 1;
      var leftMs = Math.max(0, parseFloat(bar.dataset.localDeadline) - now);
      var left = leftMs / 1000;
      var fill = bar.querySelector(".countdown-fill");
      if (fill) {
        // Rounded up to the bar's pixels; the next tick when the next pixel is due.
        var pixels = Math.max(1, bar.clientWidth);
        var shown = Math.min(pixels, Math.ceil((left / total) * pixels));
        var width = (shown / pixels) * 100 + "%";
        if (fill.style.width !== width) fill.style.width = width;
        if (shown > 0) wait = Math.min(wait, leftMs - ((shown - 1) / pixels) * total * 1000);
      }
      bar.classList.toggle("urgent", left <= Math.min(5, total / 3));
      var seconds = bar.querySelector(".countdown-seconds");
      var text = String(Math.ceil(left));
      if (seconds && seconds.textContent !== text) seconds.textContent = text;
      if (leftMs > 0) wait = Math.min(wait, (leftMs % 1000) || 1000);
    });
    tickTimer = wait === Infinity ? 0 : window.setTimeout(tick, Math.max(MIN_TICK_MS, wait));
  }
  // A swap's bars are drawn in the next animation frame, once however many regions the push
  // swapped: a bar's width read right after the swaps laid the whole table out once more than
  // the frame needs (~1.2 ms a frame).
  function tickNow() {
    stampBars(performance.now());
    window.clearTimeout(tickTimer);
    tickTimer = 0;
    if (tickFrame) return;
    tickFrame = window.requestAnimationFrame(function () {
      tickFrame = 0;
      tick();
    });
  }
  // The page's own bars at once, and a bar a swap brings (a push's or a form's answer).
  document.addEventListener("DOMContentLoaded", tickNow);
  document.addEventListener("htmx:oobAfterSwap", tickNow);
  document.addEventListener("htmx:afterSwap", tickNow);
  tickNow();

  // --- hand: keep the selection and focus across pushes ---------------------------------------
  // Every change at the table re-renders the hand; a card picked while waiting stays picked as
  // long as it is still in the hand. The cards a play took leave the pick (one copy per card
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

  // --- form controls: a push never undoes what the viewer chose --------------------------------
  // A full frame swaps whole regions in: the first one right after the page loads (its socket's
  // snapshot), then one at every seating change before the start. A select, a text box or a
  // disclosure in such a region came back as rendered, so a difficulty picked under "AI players"
  // just after the page loaded read "Casual" again and the fill used that. A control the viewer
  // changed keeps their value through the swap as long as the server rendered it as before (the
  // same default, the value still offered); one the server now renders otherwise shows the
  // server's. The hand's cards have their own rule above (kept while the hand is the same).
  var KEEP_CONTROLS = "select, textarea, input, details[id]";
  var keptControls = {};

  function controlKey(el) {
    if (el.id) return "#" + el.id;
    if (!el.name) return null;
    var form = el.form && el.form.getAttribute("action");
    return (form || "") + "|" + el.name + (isCheckable(el) ? "=" + el.value : "");
  }
  function isCheckable(el) { return el.type === "checkbox" || el.type === "radio"; }
  // The value the server rendered the control with.
  function renderedValue(el) {
    if (el.tagName === "DETAILS") return "closed";  // never rendered open
    if (el.tagName === "SELECT") {
      var picked = Array.prototype.filter.call(el.options, function (o) { return o.defaultSelected; });
      if (!picked.length && el.options.length && !el.multiple) picked = [el.options[0]];
      return picked.map(function (o) { return o.value; }).join("\n");
    }
    return isCheckable(el) ? String(el.defaultChecked) : el.defaultValue;
  }
  // What the server rendered: the value, and for a select the values it offers.
  function rendered(el) {
    if (el.tagName !== "SELECT") return renderedValue(el);
    return renderedValue(el) + "\u0000"
      + Array.prototype.map.call(el.options, function (o) { return o.value; }).join("\n");
  }
  function controlValue(el) {
    if (el.tagName === "DETAILS") return el.open ? "open" : "closed";
    if (el.tagName === "SELECT") {
      return Array.prototype.filter.call(el.options, function (o) { return o.selected; })
        .map(function (o) { return o.value; }).join("\n");
    }
    return isCheckable(el) ? String(el.checked) : el.value;
  }
  function changedByViewer(el) {
    if (el.disabled || el.readOnly || el.classList.contains("card-check")) return false;
    if (/^(hidden|submit|button|reset|image|file)$/.test(el.type || "")) return false;
    return controlValue(el) !== renderedValue(el);
  }
  function restoreControl(el, value) {
    if (el.tagName === "DETAILS") { el.open = value === "open"; return; }
    if (el.tagName === "SELECT") {
      var wanted = value.split("\n");
      var offered = Array.prototype.map.call(el.options, function (o) { return o.value; });
      if (!wanted.every(function (v) { return offered.indexOf(v) >= 0; })) return;
      Array.prototype.forEach.call(el.options, function (o) { o.selected = wanted.indexOf(o.value) >= 0; });
      return;
    }
    if (isCheckable(el)) { el.checked = value === "true"; return; }
    el.value = value;
  }

  document.addEventListener("htmx:oobBeforeSwap", function (evt) {
    var target = evt.detail.target;
    if (!target || !target.id || target.id === "hand" || !target.querySelectorAll) return;
    var kept = [];
    target.querySelectorAll(KEEP_CONTROLS).forEach(function (el) {
      var key = controlKey(el);
      if (key && changedByViewer(el)) {
        kept.push({ key: key, value: controlValue(el), rendered: rendered(el) });
      }
    });
    if (kept.length) keptControls[target.id] = kept;
    else delete keptControls[target.id];
  });
  document.addEventListener("htmx:oobAfterSwap", function (evt) {
    var target = evt.detail.target;
    var kept = target && target.id && keptControls[target.id];
    if (!kept) return;
    delete keptControls[target.id];
    var region = document.getElementById(target.id);
    if (!region) return;
    var byKey = {};
    region.querySelectorAll(KEEP_CONTROLS).forEach(function (el) {
      var key = controlKey(el);
      if (key && !(key in byKey)) byKey[key] = el;
    });
    kept.forEach(function (entry) {
      var el = byKey[entry.key];
      if (el && rendered(el) === entry.rendered) restoreControl(el, entry.value);
    });
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
    if (!play || play.classList.contains("sent-lock")) return;
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
    if (evt.key !== "Enter" || evt.altKey || evt.ctrlKey || evt.metaKey) return;
    var onBody = evt.target === document.body || evt.target === document.documentElement;
    var form = evt.target.closest && evt.target.closest("#hand-form");
    if (!(form || (onBody && document.getElementById("hand-form")))) return;
    if (evt.target.tagName === "BUTTON") return;
    var play = document.getElementById("play-button");
    evt.preventDefault();
    if (play && !play.disabled) play.click();
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

  function clickIfUsable(id) {
    var el = document.getElementById(id);
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

  // --- announcements, sound and title ---------------------------------------------------------
  function tableStrings() {
    var el = document.getElementById("table-strings");
    if (!el) return {};
    try { return JSON.parse(el.textContent) || {}; } catch (e) { return {}; }
  }
  function preference(name) {
    var page = document.getElementById("table-page");
    return !!page && page.dataset[name] !== "off";
  }

  var urgentTimer = null;
  var urgentText = null;  // what the assertive region holds (or is about to)
  function announce(text, urgent) {
    var region = document.getElementById(urgent ? "alert-announcer" : "announcer");
    if (!region || !text) return;
    if (urgent) {
      region.textContent = "";
      clearTimeout(urgentTimer);
      urgentText = text;
      urgentTimer = setTimeout(function () { region.textContent = text; }, 30);
      return;
    }
    var line = document.createElement("p");
    line.textContent = text;
    region.appendChild(line);
    while (region.childNodes.length > 6) region.removeChild(region.firstChild);
  }

  // The one AudioContext of the page, made (or resumed) only inside a gesture: made outside
  // one, the browser refuses to start it and warns in the console, on every page load.
  var audio = null;
  function wakeAudio() {
    var Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return null;
    if (!audio) { try { audio = new Ctx(); } catch (e) { return null; } }
    if (audio.state === "suspended" && audio.resume) audio.resume();
    return audio;
  }
  // Browsers start sound only after a gesture: the first click or key wakes the audio up.
  ["pointerdown", "keydown"].forEach(function (type) {
    document.addEventListener(type, function () {
      if (!document.getElementById("table-page")) return;
      if (preference("sound") || preference("effectSounds")) wakeAudio();
    }, { capture: true });
  });
  // The beeps and table_effects.js play on that context, only once a gesture has woken it up:
  // a tab nobody touched stays silent and never queues sounds to burst out later.
  window.club414.runningAudio = function () {
    return audio && audio.state === "running" ? audio : null;
  };

  function beep(high) {
    var ctx = window.club414.runningAudio();
    if (!ctx) return;
    var t = ctx.currentTime;
    var osc = ctx.createOscillator();
    var gain = ctx.createGain();
    osc.type = "sine";
    osc.frequency.setValueAtTime(high ? 880 : 660, t);
    gain.gain.setValueAtTime(0.0001, t);
    gain.gain.exponentialRampToValueAtTime(0.25, t + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.28);
    osc.connect(gain);
    gain.connect(ctx.destination);
    osc.start(t);
    osc.stop(t + 0.3);
    window.club414.beeps += 1;
  }

  var baseTitle = null;
  function setTitle(label) {
    if (baseTitle === null) baseTitle = document.title;
    var wanted = label && preference("titleAlerts") ? "▶ " + label + " · " + baseTitle : baseTitle;
    if (document.title !== wanted) document.title = wanted;
  }

  function logLines() {
    return Array.prototype.map.call(
      document.querySelectorAll("#log .log-lines li:not(.muted)"),
      function (li) { return li.textContent.trim(); });
  }
  function newLines(before, now) {
    for (var k = Math.min(before.length, now.length); k > 0; k--) {
      var same = true;
      for (var j = 0; j < k; j++) {
        if (before[before.length - k + j] !== now[j]) { same = false; break; }
      }
      if (same) return now.slice(k);
    }
    return now;
  }

  // Once the match is over, a turn or claim alert still in the assertive region (or on its
  // way) is stale: a screen reader going back to it must not hear "Your turn". With ``only``,
  // only while the region still holds that text (a refusal said since stays).
  function clearAlert(only) {
    if (only !== undefined && urgentText !== only) return;
    clearTimeout(urgentTimer);
    urgentText = null;
    var region = document.getElementById("alert-announcer");
    if (region && region.textContent) region.textContent = "";
  }

  var seen = null;
  function observe(first) {
    var strings = tableStrings();
    var status = document.getElementById("status");
    var over = !!status && status.dataset.phase === "match_over";
    if (over && seen && !seen.over) clearAlert();  // once: a later refusal is still read out
    var lines = logLines();
    var myTurn = !!document.querySelector("#status.my-turn");
    var claimForm = document.getElementById("claim-form");
    var title = document.querySelector("#claim-bar .claim-title");
    var claimKey = claimForm && title ? title.textContent.trim() : null;
    // The turn or claim alert read out last, while it still holds: once the turn has passed
    // (played, passed, gone out, the round over, the AI standing in) or the window closed, it
    // leaves the assertive region, so nobody going back to it hears "Your turn — you lead".
    var standing = seen ? seen.standing : null;
    if (standing && (standing.turn ? !myTurn : claimKey !== standing.claimKey)) {
      clearAlert(standing.text);
      standing = null;
    }
    if (!first && seen) {
      newLines(seen.lines, lines).forEach(function (text) { announce(text, false); });
      var said = null;
      if (claimKey && claimKey !== seen.claimKey) {
        said = claimKey + " " + (strings.claimKeys || "");
        standing = { turn: false, claimKey: claimKey, text: said };
      } else if (myTurn && !seen.myTurn) {
        var line = document.getElementById("turn-line");
        var canPass = !!document.getElementById("pass-button");  // a lead may not pass
        said = (line ? line.textContent.replace(/\s+/g, " ").trim() : strings.yourTurn || "")
          + ". " + ((canPass ? strings.turnKeys : strings.leadKeys) || "");
        standing = { turn: true, claimKey: null, text: said };
      }
      if (said) {
        announce(said, true);
        window.club414.alerts += 1;
        if (preference("sound")) beep(!!claimKey);
      }
    }
    setTitle(claimKey ? strings.claimWindow : myTurn ? strings.yourTurn : null);
    seen = { lines: lines, myTurn: myTurn, claimKey: claimKey, over: over, standing: standing };
  }

  var observeTimer = null;
  document.addEventListener("htmx:oobAfterSwap", function () {
    // One push swaps several regions: look once, after the last of them.
    clearTimeout(observeTimer);
    observeTimer = setTimeout(function () { afterSwapFocus(); observe(false); }, 0);
  });
  document.addEventListener("DOMContentLoaded", function () {
    if (!document.getElementById("table-page")) return;
    rove(null);
    observe(true);
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
