/* 414 Club replay page: the arrow keys step through the moves (← →, Home, End).
 * The buttons are links with hx-get, so without this file (or without JS) they still work. */
(function () {
  "use strict";

  var KEYS = { ArrowLeft: "replay-prev", ArrowRight: "replay-next", Home: "replay-first",
               End: "replay-last" };
  var busy = false;

  document.addEventListener("keydown", function (evt) {
    var id = KEYS[evt.key];
    if (!id || evt.altKey || evt.ctrlKey || evt.metaKey) return;
    var tag = evt.target && evt.target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    var link = document.getElementById(id);
    evt.preventDefault();
    if (busy || !link || link.tagName !== "A") return;
    busy = true;
    link.click();
  });

  // After a step is swapped in, keep the focus on the same control (the old one is gone).
  var focusedId = null;
  document.addEventListener("htmx:beforeSwap", function () {
    var el = document.activeElement;
    focusedId = el && el.id ? el.id : null;
  });
  // Free the keys as soon as the new step is in the page (same task as the swap), so a key
  // pressed the moment the position changes is not dropped.
  document.addEventListener("htmx:afterSwap", function () { busy = false; });
  document.addEventListener("htmx:afterSettle", function () {
    var again = focusedId && document.getElementById(focusedId);
    if (again && again.focus) again.focus({ preventScroll: true });
  });
  document.addEventListener("htmx:responseError", function () { busy = false; });
  document.addEventListener("htmx:sendError", function () { busy = false; });
})();
