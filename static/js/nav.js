/* 414 Club: the site header's menu button. On a narrow screen (see .nav.foldable in site.css)
 * the header's links fold behind #nav-toggle; the button opens and closes them, and Escape or
 * a click elsewhere closes them. Without this script the links simply wrap onto more lines.
 */
(function () {
  "use strict";

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
