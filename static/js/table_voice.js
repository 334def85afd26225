/* 414 Club table page: what the table says without being looked at: a live region announces plays,
 * your turn and claim windows; a beep and the tab title tell you when it is your turn or a
 * window opens for you (both follow the player's preferences).
 */
(function () {
  "use strict";
  var table = window.club414.table;  // table.js

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
      if (table.preference("sound") || table.preference("effectSounds")) wakeAudio();
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
    var wanted = label && table.preference("titleAlerts") ? "▶ " + label + " · " + baseTitle : baseTitle;
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
    var strings = table.tableStrings();
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
        if (table.preference("sound")) beep(!!claimKey);
      }
    }
    setTitle(claimKey ? strings.claimWindow : myTurn ? strings.yourTurn : null);
    seen = { lines: lines, myTurn: myTurn, claimKey: claimKey, over: over, standing: standing };
  }

  var observeTimer = null;
  document.addEventListener("htmx:oobAfterSwap", function () {
    // One push swaps several regions: look once, after the last of them.
    clearTimeout(observeTimer);
    observeTimer = setTimeout(function () { observe(false); }, 0);
  });
  document.addEventListener("DOMContentLoaded", function () {
    if (document.getElementById("table-page")) observe(true);
  });

  table.announce = announce;
})();
