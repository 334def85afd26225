"""A model of a table page in the browser: frames applied as htmx and table.js apply them.

``Page.apply(frame)`` follows static/js/table.js: a versioned frame is dropped when older than
what the page shows, a delta that does not follow it is a gap (``Page.gaps``), and the frame's
top-level elements are swapped out of band by id (``hx-swap-oob="true"`` replaces,
``"beforeend"`` appends children, ``"innerHTML"`` replaces them, ``"delete"`` removes the
target). ``regions()`` gives what a person would see, normalised for comparison with a fresh
render (countdowns' remaining seconds depend on when they were rendered; the log is compared
by its last lines).
"""

from __future__ import annotations

import json
import re

from bs4 import BeautifulSoup

HEADER = re.compile(r"^<!--frame (\{[^>]*\})-->")
#: The regions a person sees, by id (the spectator count and flash are pushed on their own).
REGION_IDS = (
    "status",
    "seats",
    "trick",
    "claim-bar",
    "tribute",
    "result",
    "seat-menu",
    "tracker",
    "hand",
    "log",
)
#: What table.js keeps of the log; a fresh render shows the last LOG_LENGTH moves' lines.
LOG_KEEP = 40
#: What table.js keeps of the trick: the last eight entries, as a fresh render shows.
TRICK_KEEP = 8


def header(frame: str) -> dict | None:
    """The frame's header ({"v", "r", "full", "b"}), or None for an unversioned frame."""
    match = HEADER.match(frame)
    return json.loads(match.group(1)) if match else None


class Page:
    """One page: the DOM it shows and the (revision, version) of its last applied frame."""

    def __init__(self) -> None:
        self.soup = BeautifulSoup("<main></main>", "html.parser")
        self.version, self.revision = -1, -1
        self.gaps = 0
        self.applied = 0
        #: Ids a frame swapped out of band after the first one built the page, but the page
        #: lacks: the browser logs ``htmx:oobErrorNoTarget`` for each.
        self.no_target: list[str] = []

    def apply(self, frame: str) -> bool:
        """Apply one frame as the browser would; returns whether it was applied."""
        meta = header(frame)
        if meta is not None:
            key, shown = (meta["r"], meta["v"]), (self.revision, self.version)
            if meta["full"]:
                if key < shown:
                    return False
            elif key <= shown:
                return False
            elif meta["b"] != self.version or meta["r"] != self.revision:
                self.gaps += 1
                return False
            self.revision, self.version = meta["r"], meta["v"]
        fragment = BeautifulSoup(HEADER.sub("", frame), "html.parser")
        for element in [e for e in fragment.children if getattr(e, "name", None)]:
            self._swap(element)
        self.applied += 1
        return True

    def _swap(self, element) -> None:
        how = element.get("hx-swap-oob", "true")
        target = self.soup.find(id=element["id"])
        if target is None:
            if self.applied:
                self.no_target.append(element["id"])
            if how == "true":
                self.soup.main.append(element)
            return
        if how == "beforeend":
            for child in list(element.children):
                target.append(child)
            if target.get("id") == "trick-list":  # table.js keeps the last eight
                while len(target.find_all("li", recursive=False)) > TRICK_KEEP:
                    target.find("li").decompose()
            if target.get("id") == "log-lines":
                for muted in target.find_all("li", class_="muted"):
                    muted.decompose()
                while len(target.find_all("li", recursive=False)) > LOG_KEEP:
                    target.find("li").decompose()
        elif how == "delete":
            target.decompose()
        elif how == "innerHTML":
            target.clear()
            for child in list(element.children):
                target.append(child)
        else:
            target.replace_with(element)

    def region(self, region_id: str) -> str:
        element = self.soup.find(id=region_id)
        return "" if element is None else str(element)

    def log(self) -> list[str]:
        return [li.get_text() for li in self.soup.select("#log-lines li:not(.muted)")]

    def regions(self) -> dict[str, str]:
        """Every region as normalised HTML, the log lines left out (see ``log``)."""
        return {region_id: normalise(self.region(region_id)) for region_id in REGION_IDS}


COUNTDOWN_LEFT = re.compile(r' data-remaining="[^"]*"|(?<=class="countdown-seconds">)[^<]*')
LOG_LINES = re.compile(r'(<ol[^>]* id="log-lines"[^>]*>).*?(</ol>)', re.S)


def normalise(html: str) -> str:
    """``html`` without what differs between two renders of one state: the countdown's
    seconds left (it depends on when it was rendered), swap attributes, the log's lines and
    whitespace between tags (removed cards leave some behind)."""
    html = COUNTDOWN_LEFT.sub("", html)
    html = html.replace(' hx-swap-oob="true"', "")
    html = LOG_LINES.sub(r"\1\2", html)
    return re.sub(r">\s+<", "><", html).strip()
