/* 414 Club table page: a push never undoes what the viewer chose in a form control (a select, a text
 * box, a disclosure) of a region it swaps in.
 */
(function () {
  "use strict";

  // --- form controls: a push never undoes what the viewer chose --------------------------------
  // A full frame swaps whole regions in: the first one right after the page loads (its socket's
  // snapshot), then one at every seating change before the start. A select, a text box or a
  // disclosure in such a region came back as rendered, so a difficulty picked under "AI players"
  // just after the page loaded read "Casual" again and the fill used that. A control the viewer
  // changed keeps their value through the swap as long as the server rendered it as before (the
  // same default, the value still offered); one the server now renders otherwise shows the
  // server's. The hand's cards have their own rule (table_hand.js).
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
})();
