/* 414 Club replay page: the arrow keys step through the moves (← →, Home, End).
 * The buttons are links with hx-get, so without this file (or without JS) they still work. */
(function () {
  "use strict";

  var KEYS = { ArrowLeft: "replay-prev", ArrowRight: "replay-next", Home: "replay-first",
               End: "replay-last" };
  // A step's request is under way until its content has settled: htmx wires the swapped-in
  // links only in its settle step, a moment after the new position shows, and a click on a
  // link it has not wired yet is a whole page load. A key pressed meanwhile waits (the last
  // one pressed), so none is dropped.
  var busy = false;
  var pending = null;

  function step(id) {
    var link = document.getElementById(id);
    if (!link || link.tagName !== "A") return;
    busy = true;
    link.click();
  }

  document.addEventListener("keydown", function (evt) {
    var id = KEYS[evt.key];
    if (!id || evt.altKey || evt.ctrlKey || evt.metaKey) return;
    var tag = evt.target && evt.target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    evt.preventDefault();
    if (busy) { pending = id; return; }
    step(id);
  });

  // After a step is swapped in, keep the focus on the same control (the old one is gone).
  var focusedId = null;
  document.addEventListener("htmx:beforeSwap", function () {
    var el = document.activeElement;
    focusedId = el && el.id ? el.id : null;
  });
  document.addEventListener("htmx:afterSettle", function (evt) {
    if (!evt.target || evt.target.id !== "replay") return;  // once a step: the board's settle
    var again = focusedId && document.getElementById(focusedId);
    if (again && again.focus) again.focus({ preventScroll: true });
    busy = false;
    var next = pending;
    pending = null;
    if (next) step(next);
  });
  function failed() { busy = false; pending = null; }
  ["htmx:responseError", "htmx:sendError", "htmx:timeout", "htmx:swapError"].forEach(
    function (name) { document.addEventListener(name, failed); });
})();
