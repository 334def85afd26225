// The expert review's charts (issue 20): the advantage chart of a reviewed round on the match
// record and the accuracy trend on the profile, drawn with uPlot (static/vendor/uplot) from the
// JSON a json_script element holds (games.records.review_detail.chart_data,
// accounts.review_trend). No inline script or style (SECURE_CSP): colours come from CSS custom
// properties on the chart's element (static/css/history.css). The table beside each chart holds
// the same figures for screen readers and for pages without JavaScript; a click on a point jumps
// to its row there.
(function () {
  "use strict";

  var MARK_SIZE = { inaccuracy: 4, mistake: 5, blunder: 6 };

  function cssVar(el, name, fallback) {
    var value = getComputedStyle(el).getPropertyValue(name).trim();
    return value || fallback;
  }

  function jump(id) {
    var row = id && document.getElementById(id);
    if (!row) return;
    // The hash makes the row :target (highlighted) and scrolls to it; focus lets a keyboard or
    // screen reader user go on from there.
    if (location.hash !== "#" + id) location.hash = id;
    else row.scrollIntoView({ block: "center" });
    row.focus({ preventScroll: true });
  }

  // The marked decisions drawn over the line of the move played: a filled dot per mark, bigger
  // for worse marks, in the mark's colour.
  function drawMarks(data, colors) {
    return function (u) {
      var ctx = u.ctx;
      var values = data.lines[0].values;
      ctx.save();
      data.marks.forEach(function (mark, i) {
        if (!mark || values[i] === null) return;
        var x = u.valToPos(data.x[i], "x", true);
        var y = u.valToPos(values[i], "y", true);
        var r = (MARK_SIZE[mark] || 4) * uPlot.pxRatio;
        ctx.beginPath();
        ctx.arc(x, y, r, 0, 2 * Math.PI);
        ctx.fillStyle = colors[mark];
        ctx.fill();
        ctx.lineWidth = uPlot.pxRatio;
        ctx.strokeStyle = colors.surface;
        ctx.stroke();
      });
      ctx.restore();
    };
  }

  // A table row as one line: its cells but the hand (the row's "review-hand" cell), joined.
  function summary(row) {
    var parts = [];
    row.querySelectorAll("td").forEach(function (cell) {
      if (cell.classList.contains("review-hand")) return;
      var text = cell.textContent.replace(/\s+/g, " ").trim();
      if (text) parts.push(text);
    });
    return parts.join(" · ");
  }

  // The keyboard along the chart: it takes the focus (drawn, it is no longer hidden from
  // assistive technology: an image with its label), and the arrow keys, Home and End move
  // between its decision points, on the chart and from one focused row of the table to the
  // next; each move puts the chart's cursor on the point and focuses its row.
  var KEYS = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 };

  function keyboard(el, plot, data) {
    var last = data.x.length - 1;
    var at = -1;
    function go(i) {
      at = Math.max(0, Math.min(last, i));
      var value = data.lines[0].values[at];
      plot.setCursor({
        left: plot.valToPos(data.x[at], "x"),
        top: value === null ? plot.over.clientHeight / 2 : plot.valToPos(value, "y"),
      });
      var row = document.getElementById(data.targets[at]);
      if (row) row.focus();
    }
    function onKey(event, from) {
      var i = from;
      if (event.key in KEYS) i = from < 0 ? 0 : from + KEYS[event.key];
      else if (event.key === "Home") i = 0;
      else if (event.key === "End") i = last;
      else return;
      event.preventDefault();
      go(i);
    }
    el.removeAttribute("aria-hidden");
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", data.keys_label);
    el.tabIndex = 0;
    el.addEventListener("keydown", function (event) { onKey(event, at); });
    data.targets.forEach(function (id, i) {
      var row = document.getElementById(id);
      if (row) row.addEventListener("keydown", function (event) { onKey(event, i); });
    });
  }

  function draw(el) {
    var source = document.getElementById(el.dataset.source);
    if (!source || typeof uPlot === "undefined") return;
    var data = JSON.parse(source.textContent);
    var colors = {
      ink: cssVar(el, "--chart-ink", "#1d1d1f"),
      grid: cssVar(el, "--chart-grid", "#e2e2e2"),
      surface: cssVar(el, "--chart-surface", "#ffffff"),
      lines: [cssVar(el, "--chart-line", "#1f6b45"), cssVar(el, "--chart-second", "#66635c")],
      inaccuracy: cssVar(el, "--chart-inaccuracy", "#c99a06"),
      mistake: cssVar(el, "--chart-mistake", "#c2410c"),
      blunder: cssVar(el, "--chart-blunder", "#b3261e"),
    };
    var height = parseInt(el.dataset.height || "220", 10);
    var series = [{ label: data.x_label }];
    data.lines.forEach(function (line, i) {
      series.push({
        label: line.label,
        stroke: colors.lines[i % colors.lines.length],
        width: line.dash ? 1.5 : 2,
        dash: line.dash ? [6, 4] : undefined,
        spanGaps: true,
        points: { show: true, size: line.dash ? 3 : 5, fill: colors.surface },
      });
    });
    var axis = { stroke: colors.ink, grid: { stroke: colors.grid, width: 1 }, ticks: { show: false } };
    var y = data.y_range ? { range: data.y_range } : {};
    var x = data.x_range ? { time: false, range: data.x_range } : { time: false };
    var opts = {
      width: Math.max(200, el.clientWidth),
      height: height,
      legend: { show: false },
      cursor: { drag: { x: false, y: false }, points: { show: false } },
      scales: { x: x, y: y },
      axes: [
        Object.assign({ label: data.x_label, incrs: [1, 2, 5, 10, 20, 50], size: 28, labelSize: 18, labelGap: 0 }, axis),
        Object.assign({ label: data.y_label, size: 44, labelSize: 18, labelGap: 0 }, axis),
      ],
      series: series,
      hooks: { draw: [drawMarks(data, colors)] },
    };
    // Under the pointer: the decision's row as a line of text (read from the table, so the
    // chart's JSON needs no card), as lichess shows the move under its chart's cursor.
    var readout = document.createElement("p");
    readout.className = "review-readout muted";
    readout.setAttribute("aria-hidden", "true");
    opts.hooks.setCursor = [function (u) {
      var row = u.cursor.idx === null || u.cursor.idx === undefined
        ? null : document.getElementById(data.targets[u.cursor.idx]);
      readout.textContent = row ? summary(row) : "\u00a0";
    }];
    var plot = new uPlot(opts, [data.x].concat(data.lines.map(function (l) { return l.values; })), el);
    readout.textContent = "\u00a0";
    el.after(readout);
    el.classList.add("drawn");
    plot.over.addEventListener("click", function () {
      var i = plot.cursor.idx;
      if (i !== null && i !== undefined) jump(data.targets[i]);
    });
    if (data.keys_label) keyboard(el, plot, data);
    if (typeof ResizeObserver !== "undefined") {
      new ResizeObserver(function () {
        var width = Math.max(200, el.clientWidth);
        if (width !== plot.width) plot.setSize({ width: width, height: height });
      }).observe(el);
    }
  }

  function start() {
    document.querySelectorAll(".review-chart[data-source]").forEach(draw);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
