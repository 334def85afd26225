/* 414 Club table page: the countdown bars (a turn, a claim window, a tribute return, the next
 * round) shrink to their deadline and say their seconds. No build step.
 */
(function () {
  "use strict";

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
})();
