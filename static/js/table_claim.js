/* 414 Club table page: the claim help's box says when its text goes on below it. No build step.
 *
 * On a phone the help ("What is a hook?") scrolls in a small box above Hook and Pass. While it
 * has more below, the box carries data-more and its lower edge fades (static/css/table_claim.css):
 * a line cut there reads "scroll", not "the end". Scrolled to its end, or fitting, no fade.
 */
(function () {
  "use strict";

  function mark() {
    var help = document.getElementById("claim-help");
    if (!help) return;
    var more = help.scrollHeight - help.clientHeight - help.scrollTop > 1;
    if (more) help.setAttribute("data-more", "");
    else help.removeAttribute("data-more");
  }

  document.addEventListener("DOMContentLoaded", mark);
  document.addEventListener("htmx:oobAfterSwap", mark);
  document.addEventListener("htmx:afterSwap", mark);
  window.addEventListener("resize", mark);
  // Scroll events do not bubble: caught on their way down, for the help's box only.
  document.addEventListener("scroll", function (evt) {
    if (evt.target && evt.target.id === "claim-help") mark();
  }, true);
  window.club414 = window.club414 || { beeps: 0, alerts: 0 };
  window.club414.markClaimHelp = mark;
})();
