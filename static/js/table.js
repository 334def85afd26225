/* 414 Club table page: the socket and what travels on it. No build step.
 *
 * - every message sent on the table socket carries a client id and the shown version;
 * - `cards` is always a list;
 * - with the "confirm before playing" preference, a play is sent only after the player says yes;
 * - frames apply in order, a lost one brings a snapshot; chat lines, the rematch's move;
 * Beside it: the own hand and the keyboard (table_hand.js), form controls kept across pushes
 * (table_controls.js), announcements, beeps and the tab title (table_voice.js), the view's
 * order and the hand's arrangement (table_view.js, hand_arrange.js), sounds (table_effects.js),
 * the side panel (table_panel.js), the moves held while the socket is down (table_offline.js),
 * the claim help's fade (table_claim.js), the countdown bars (table_countdown.js). Sentences
 * come translated from the page (#table-strings, rendered by Django).
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

  // What the table's scripts share, each part set by the file that owns it: this one's below,
  // syncPlay (table_hand.js), announce (table_voice.js). They are called only once every
  // script of the page has run (all are deferred, in order).
  window.club414 = window.club414 || { beeps: 0, alerts: 0 };
  var table = window.club414.table = {
    shownVersion: shownVersion, tableStrings: tableStrings, preference: preference,
    closeOnEscape: closeOnEscape,
  };

  // A menu or drawer open over the table (the chat's phrases, the side panel's drawer) takes
  // Escape first: it closes, giving the focus back to its button, and the table's own Escape
  // (table_hand.js: clear the selected cards) does not run. Listened for on window in the
  // capture phase, so before any document handler.
  function closeOnEscape(isOpen, close) {
    window.addEventListener("keydown", function (evt) {
      if (evt.key !== "Escape" || !isOpen()) return;
      evt.preventDefault();
      evt.stopImmediatePropagation();
      close();
    }, true);
  }

  function tableStrings() {
    var el = document.getElementById("table-strings");
    if (!el) return {};
    try { return JSON.parse(el.textContent) || {}; } catch (e) { return {}; }
  }
  function preference(name) {
    var page = document.getElementById("table-page");
    return !!page && page.dataset[name] !== "off";
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
    table.holdIfCut();  // a lock that ran out while the connection is down (table_offline.js)
    table.syncPlay();
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
  // table_offline.js: its notice in #flash is a state, not a refusal that fades.
  table.keepFlash = function () { clearTimeout(flashTimer); };
  table.clearFlash = clearFlash;
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
  var connected = false;  // the table socket is open (a heartbeat is sent, never queued)
  document.addEventListener("htmx:wsOpen", function () { connected = true; setOnline(true); });
  // Refusals the server names by close code (games.sockets.socket_limits): say why, stay closed.
  var REFUSALS = { 4429: "tooManySockets", 4430: "tableFull" };
  document.addEventListener("htmx:wsClose", function (evt) {
    connected = false;
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
      table.announce(refusal, true);
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
  var rawSocket = null;  // the WebSocket under tableSocket (its open event's target)
  var socketOpens = 0;
  document.addEventListener("htmx:wsOpen", function (evt) {
    tableSocket = evt.detail.socketWrapper;
    rawSocket = evt.detail.event && evt.detail.event.target;
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
  // Only while the socket is open: the extension queues what is sent on a closed one, and a
  // connection back after a while then sent the queue at once.
  setInterval(function () {
    if (tableSocket && connected && navigator.onLine !== false) {
      tableSocket.send(JSON.stringify({ heartbeat: 1, version: shownFrame.v }));
    }
  }, 5000);

  // The browser knows before the socket does that the network went (the socket may stay
  // "open", its sends held, until a timeout half a minute later): say so at once, as the turn's
  // seconds run on. When the network is back, a new socket, rather than waiting on the old one
  // (dropped quietly: its late close must not take the new one down or say "Reconnecting…").
  window.addEventListener("offline", function () {
    if (tableSocket) setOnline(false);
  });
  window.addEventListener("online", function () {
    // A socket already closed is the extension's to open again (its retries are under way).
    if (!tableSocket || !rawSocket || rawSocket.readyState !== WebSocket.OPEN) return;
    rawSocket.onclose = null;
    rawSocket.onerror = null;
    rawSocket.close();
    connected = false;
    tableSocket.reconnect();
  });

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
