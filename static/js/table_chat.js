/* 414 Club table page: the table's chat room (games.chat.rooms) as the reader sees it: muted
 * players' lines hidden, the reader's own lines marked, the room kept to its last lines.
 */
(function () {
  "use strict";
  // Lines arrive without a frame header (table.js), so they never touch the page's version.
  // The server sends no line of a muted player (games.chat.mutes); lines already on the page
  // are hidden here when the reader mutes their author. The viewer's own lines offer no mute
  // or report, and the room keeps its last lines.
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
    keepNewestInView(lines);
  }
  // The lines' box changes height without a new line: beside the table it shares the side
  // panel's height (static/css/table.css), so "1 spectator watching" or a seat's confirmation
  // appearing above it shortens it, and its newest line went under its lower edge. A reader
  // at the newest line stays there; one who scrolled back to read stays where they are. The
  // room is swapped whole on a change of room: its new list is watched instead.
  // Whether the reader is at the newest line is judged by the height the box had before it
  // changed (seenHeight): a frame's scroll event comes before its resize observers, and judged
  // by the new, shorter box a reader at the newest line seemed to have scrolled back.
  var watched = null, atNewest = true, seenHeight = 0;
  var resized = window.ResizeObserver && new ResizeObserver(function () {
    if (!watched) return;
    if (atNewest) watched.scrollTop = watched.scrollHeight;
    seenHeight = watched.clientHeight;
  });
  function keepNewestInView(lines) {
    if (!resized || lines === watched) return;
    if (watched) resized.unobserve(watched);
    watched = lines;
    atNewest = true;
    seenHeight = lines.clientHeight;
    resized.observe(lines);
    lines.addEventListener("scroll", function () {
      atNewest = lines.scrollTop + seenHeight >= lines.scrollHeight - 4;
    });
  }
  document.addEventListener("DOMContentLoaded", tidyChat);
  document.addEventListener("htmx:oobAfterSwap", function (evt) {
    var id = evt.detail.target && evt.detail.target.id;
    if (id === "chat-lines" || id === "chat-room") tidyChat();
  });
  // The quick phrases' button (shown beside the table during a match only: static/css/table.css)
  // opens them as a small menu over the chat's lines; a phrase sent, Escape, or a click or the
  // focus elsewhere closes it (Escape gives the focus back to the button). Tab goes from the
  // button into the phrases, which follow it.
  function phrasesOpen(open, focusBack) {
    var toggle = document.getElementById("chat-phrases-toggle");
    var form = document.getElementById("chat-form");
    if (!toggle || !form) return;
    form.classList.toggle("phrases-open", open);
    toggle.setAttribute("aria-expanded", open ? "true" : "false");
    if (focusBack) toggle.focus();
  }
  function isPhrasesOpen() {
    var form = document.getElementById("chat-form");
    return !!form && form.classList.contains("phrases-open");
  }
  document.addEventListener("click", function (evt) {
    var target = evt.target instanceof Element ? evt.target : null;
    if (target && target.closest("#chat-phrases-toggle")) { phrasesOpen(!isPhrasesOpen(), false); return; }
    if (!isPhrasesOpen()) return;
    if (target && target.closest(".chat-phrase-button")) {
      setTimeout(function () { phrasesOpen(false, false); }, 0);  // after the form is sent
    } else if (!target || !target.closest("#chat-phrases")) {
      phrasesOpen(false, false);
    }
  });
  document.addEventListener("focusin", function (evt) {
    var target = evt.target instanceof Element ? evt.target : null;
    if (isPhrasesOpen() && !(target && target.closest("#chat-phrases, #chat-phrases-toggle"))) phrasesOpen(false, false);
  });
  window.club414.table.closeOnEscape(isPhrasesOpen, function () { phrasesOpen(false, true); });
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
})();
