/* 414 Club: the table page's side panel (moves, chat, card tracker, seat menu) as a drawer on
 * narrow screens (static/css/table.css: below 60rem; wider, it sits beside the table and the
 * button is not shown). #panel-toggle opens and closes it (aria-expanded); opening moves the
 * focus into it, Escape or its Close button closes it and gives the focus back to the button,
 * and a click or the focus going elsewhere closes it. The panel is never swapped by the socket
 * (its regions are, inside it), so its state survives every push.
 */
(function () {
  "use strict";

  document.addEventListener("DOMContentLoaded", function () {
    var toggle = document.getElementById("panel-toggle");
    var panel = document.getElementById("table-panel");
    var close = document.getElementById("panel-close");
    if (!toggle || !panel) return;
    toggle.hidden = false;
    if (close) close.hidden = false;

    function isOpen() { return panel.classList.contains("open"); }
    function setOpen(open, giveFocusBack) {
      panel.classList.toggle("open", open);
      toggle.setAttribute("aria-expanded", open ? "true" : "false");
      if (open) (close || panel).focus();
      else if (giveFocusBack) toggle.focus();
    }

    toggle.addEventListener("click", function () { setOpen(!isOpen(), isOpen()); });
    if (close) close.addEventListener("click", function () { setOpen(false, true); });
    window.club414.table.closeOnEscape(isOpen, function () { setOpen(false, true); });
    document.addEventListener("click", function (evt) {
      if (isOpen() && !panel.contains(evt.target) && !toggle.contains(evt.target)) setOpen(false, false);
    });
    document.addEventListener("focusin", function (evt) {
      if (isOpen() && !panel.contains(evt.target) && evt.target !== toggle) setOpen(false, false);
    });
  });
})();
