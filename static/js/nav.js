/* 414 Club: the site header's menu button. On a narrow screen (see .nav.foldable in site.css)
 * the header's links fold behind #nav-toggle; the button opens and closes them, and Escape or
 * a click elsewhere closes them. Without this script the links simply wrap onto more lines.
 */
(function () {
  "use strict";

  // The lobby's "Open tables" is one list for everyone (rendered once per language); the
  // viewer's own tables are under "Your tables" above it, so here they are not listed twice,
  // and the list says it has none when only the viewer's own wait.
  function hideOwnOpenTables() {
    var open = document.querySelectorAll("#open-tables .table-row");
    var none = document.getElementById("open-tables-none");
    if (!none) return;
    var mine = {};
    document.querySelectorAll("#my-tables .table-row").forEach(function (row) {
      mine[row.dataset.table] = true;
    });
    var shown = 0;
    open.forEach(function (row) {
      row.hidden = mine[row.dataset.table] === true;
      if (!row.hidden) shown += 1;
    });
    none.hidden = shown > 0;
  }
  document.addEventListener("DOMContentLoaded", hideOwnOpenTables);
  document.addEventListener("htmx:oobAfterSwap", hideOwnOpenTables);

  // Another tab of this browser signed in or out (body[data-session]: the person's id, "" when
  // signed out): every page writes whose it is to localStorage as it loads, and the other open
  // pages hear it (the storage event). A page of the old session would send its old CSRF token
  // and keep its old socket: it says so and offers a reload rather than reloading under the
  // person's hands (a half-written chat line).
  var SESSION_KEY = "club414.session";
  document.addEventListener("DOMContentLoaded", function () {
    var mine = document.body.dataset.session;
    if (mine === undefined) return;
    try {
      window.localStorage.setItem(SESSION_KEY, mine);
    } catch (e) {
      return;  // no storage (a private window's settings): nothing to compare with
    }
    var notice = document.getElementById("session-changed");
    var reload = document.getElementById("session-reload");
    if (!notice || !reload) return;
    reload.addEventListener("click", function () { window.location.reload(); });
    window.addEventListener("storage", function (evt) {
      if (evt.key === SESSION_KEY && evt.newValue !== null && evt.newValue !== mine) {
        notice.hidden = false;
      }
    });
  });

  function setOpen(nav, button, open) {
    nav.classList.toggle("open", open);
    button.setAttribute("aria-expanded", open ? "true" : "false");
  }

  document.addEventListener("DOMContentLoaded", function () {
    var nav = document.getElementById("main-nav");
    var button = document.getElementById("nav-toggle");
    if (!nav || !button) return;
    // Unseen notices: the folded menu's button shows their count too.
    var badge = document.querySelector("#notices-link .badge");
    if (badge) {
      var copy = document.createElement("span");
      copy.className = "badge";
      copy.textContent = badge.textContent;
      button.appendChild(document.createTextNode(" "));
      button.appendChild(copy);
    }
    nav.classList.add("foldable");
    button.hidden = false;
    button.addEventListener("click", function () {
      setOpen(nav, button, !nav.classList.contains("open"));
    });
    document.addEventListener("keydown", function (evt) {
      if (evt.key === "Escape" && nav.classList.contains("open")) {
        setOpen(nav, button, false);
        button.focus();
      }
    });
    document.addEventListener("click", function (evt) {
      if (nav.classList.contains("open") && !nav.contains(evt.target)) setOpen(nav, button, false);
    });
    // The player's menu (details#account-menu) closes like the folded links: Escape, or a
    // click anywhere else.
    var account = document.getElementById("account-menu");
    if (account) {
      document.addEventListener("keydown", function (evt) {
        if (evt.key === "Escape" && account.open) {
          account.open = false;
          account.querySelector("summary").focus();
        }
      });
      document.addEventListener("click", function (evt) {
        if (account.open && !account.contains(evt.target)) account.open = false;
      });
    }
  });
})();
