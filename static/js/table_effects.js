/* 414 Club table page: short sounds for a play, a hook (or unhook) and a bomb.
 *
 * Made with the Web Audio API (no audio files), on the context table.js makes or resumes at
 * the player's first click or key, and only then: this file never makes or resumes one (made
 * outside a gesture, the browser refuses to start it and warns). A sound is played only when
 * - the player's "table sounds" preference is on (data-effect-sounds);
 * - the tab is in view (a tab in the background stays quiet);
 * - the browser lets this tab make sound now (the context is running): a tab it keeps muted
 *   until a gesture never queues sounds that would all burst out later.
 * A step of the trick is new when the trick's last entry changed with a delta; snapshots
 * (first connect, reconnect, resync) show the table again and make no sound.
 * window.club414.sounds counts what was played, and what was noticed but kept quiet.
 * The matching animations are CSS (felt.css), off with the "animations" preference or
 * prefers-reduced-motion.
 */
(function () {
  "use strict";

  window.club414 = window.club414 || { beeps: 0, alerts: 0 };
  var counts = window.club414.sounds = { play: 0, hook: 0, bomb: 0, quiet: 0 };

  var KINDS = { play: "play", unhook: "hook", hook: "hook", bomb: "bomb" };

  function lastStep() {
    var entry = document.querySelector("#trick-list > li:last-child");
    if (!entry) return null;
    var kind = (/\bkind-(\w+)/.exec(entry.className) || [])[1];
    return { key: entry.id + "|" + entry.textContent, kind: kind };
  }

  var before = null;
  var full = false;
  document.addEventListener("htmx:wsBeforeMessage", function (evt) {
    var message = evt.detail.message || "";
    if (!/^<!--frame /.test(message)) return;
    full = /^<!--frame \{[^>]*"full":true/.test(message);
    var step = lastStep();
    before = step ? step.key : "";
  });
  document.addEventListener("htmx:wsAfterMessage", function () {
    if (before === null) return;
    var was = before;
    before = null;
    if (full) return;
    var step = lastStep();
    if (!step || step.key === was || !KINDS[step.kind]) return;
    sound(KINDS[step.kind]);
  });

  function wanted() {
    var page = document.getElementById("table-page");
    return !!page && page.dataset.effectSounds !== "off" && document.visibilityState === "visible";
  }

  function sound(kind) {
    var ctx = wanted() && window.club414.runningAudio ? window.club414.runningAudio() : null;
    if (!ctx) { counts.quiet += 1; return; }
    var out = ctx.createGain();
    out.gain.value = 0.6;
    out.connect(ctx.destination);
    var t = ctx.currentTime + 0.01;
    if (kind === "play") snap(ctx, out, t, 2600, 0.05, 0.5);
    else if (kind === "hook") { tone(ctx, out, t, 660, 0.07, 0.22); tone(ctx, out, t + 0.08, 990, 0.1, 0.22); }
    else { thud(ctx, out, t); snap(ctx, out, t, 900, 0.25, 0.45); }
    counts[kind] += 1;
  }

  // A card slapped on the felt: a short burst of noise through a band-pass filter.
  function snap(ctx, out, t, frequency, length, level) {
    var frames = Math.ceil(ctx.sampleRate * length);
    var buffer = ctx.createBuffer(1, frames, ctx.sampleRate);
    var data = buffer.getChannelData(0);
    for (var i = 0; i < frames; i++) data[i] = (Math.random() * 2 - 1) * Math.pow(1 - i / frames, 3);
    var noise = ctx.createBufferSource();
    noise.buffer = buffer;
    var filter = ctx.createBiquadFilter();
    filter.type = "bandpass";
    filter.frequency.value = frequency;
    filter.Q.value = 0.9;
    var gain = ctx.createGain();
    gain.gain.value = level;
    noise.connect(filter);
    filter.connect(gain);
    gain.connect(out);
    noise.start(t);
    noise.stop(t + length);
  }

  function tone(ctx, out, t, frequency, length, level) {
    var osc = ctx.createOscillator();
    var gain = ctx.createGain();
    osc.type = "triangle";
    osc.frequency.setValueAtTime(frequency, t);
    gain.gain.setValueAtTime(0.0001, t);
    gain.gain.exponentialRampToValueAtTime(level, t + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, t + length);
    osc.connect(gain);
    gain.connect(out);
    osc.start(t);
    osc.stop(t + length + 0.02);
  }

  // A bomb: a low boom falling in pitch.
  function thud(ctx, out, t) {
    var osc = ctx.createOscillator();
    var gain = ctx.createGain();
    osc.type = "sine";
    osc.frequency.setValueAtTime(150, t);
    osc.frequency.exponentialRampToValueAtTime(40, t + 0.4);
    gain.gain.setValueAtTime(0.0001, t);
    gain.gain.exponentialRampToValueAtTime(0.7, t + 0.015);
    gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.45);
    osc.connect(gain);
    gain.connect(out);
    osc.start(t);
    osc.stop(t + 0.5);
  }
})();
