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

from lxml import etree
from lxml import html as lxml_html
from lxml.html import HtmlElement

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
#: An element by id, compiled once: the page's own index (``Page.find``) falls back on it for an
#: id that two elements carry.
BY_ID = etree.XPath("//*[@id=$id]")
#: What table.js keeps of the log; a fresh render shows the last LOG_LENGTH moves' lines.
LOG_KEEP = 40
#: What table.js keeps of the trick: the last eight entries, as a fresh render shows.
TRICK_KEEP = 8


def header(frame: str) -> dict | None:
    """The frame's header ({"v", "r", "full", "b"}), or None for an unversioned frame."""
    match = HEADER.match(frame)
    return json.loads(match.group(1)) if match else None


class Page:
    """One page: the DOM it shows and the (revision, version) of its last applied frame.

    The DOM is lxml's (C): the frame tests apply thousands of frames and compare hundreds of
    fresh renders, and a pure-Python parser made them the slowest tests of the suite."""

    def __init__(self) -> None:
        self.root: HtmlElement = lxml_html.fragment_fromstring("<main></main>")
        self.version, self.revision = -1, -1
        self.gaps = 0
        self.applied = 0
        #: Ids a frame swapped out of band after the first one built the page, but the page
        #: lacks: the browser logs ``htmx:oobErrorNoTarget`` for each.
        self.no_target: list[str] = []
        #: Elements by id, as they were swapped in (``find``): the frame tests look ids up tens
        #: of thousands of times, and a search of the whole tree for each was a quarter of
        #: their CPU. Entries for removed elements stay, and ``find`` checks them.
        self._by_id: dict[str, HtmlElement] = {}
        #: Ids two attached elements carried at once: ``find`` searches the tree for these, so
        #: it finds the first in document order, as the browser's getElementById does.
        self._shared_ids: set[str] = set()

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
        body = HEADER.sub("", frame)
        if body.strip():
            for element in lxml_html.fragments_fromstring(body):
                if isinstance(element, HtmlElement):
                    self._swap(element)
        self.applied += 1
        return True

    def find(self, element_id: str) -> HtmlElement | None:
        """The page's element with this id (the first in document order), or None."""
        if element_id in self._shared_ids:
            found = BY_ID(self.root, id=element_id)
            return found[0] if found else None
        element = self._by_id.get(element_id)
        if element is None or not self._attached(element) or element.get("id") != element_id:
            return None
        return element

    def _attached(self, element: HtmlElement) -> bool:
        """Whether ``element`` is still in the page (not swapped out or dropped)."""
        node: HtmlElement | None = element
        while node is not None:
            if node is self.root:
                return True
            node = node.getparent()
        return False

    def _index(self, element: HtmlElement) -> None:
        """Note the ids of ``element`` and its descendants, just swapped into the page. Every
        element enters the page through here, so an id ``find`` misses is on no element."""
        for node in element.iter(etree.Element):
            element_id = node.get("id")
            if element_id is None:
                continue
            known = self._by_id.get(element_id)
            if known is not None and known is not node and self._attached(known):
                self._shared_ids.add(element_id)
            self._by_id[element_id] = node

    def _swap(self, element: HtmlElement) -> None:
        how = element.get("hx-swap-oob", "true")
        target = self.find(element.get("id"))
        if target is None:
            if self.applied:
                self.no_target.append(element.get("id"))
            if how == "true":
                self.root.append(element)
                self._index(element)
            return
        if how == "beforeend":
            for child in list(element):
                target.append(child)
                self._index(child)
            if target.get("id") == "trick-list":  # table.js keeps the last eight
                keep_last(target, TRICK_KEEP)
            if target.get("id") == "log-lines":
                for muted in target.xpath(f".//li[{has_class('muted')}]"):
                    muted.drop_tree()
                keep_last(target, LOG_KEEP)
        elif how == "delete":
            target.drop_tree()
        elif how == "innerHTML":
            for child in list(target):
                target.remove(child)
            target.text = element.text
            for child in list(element):
                target.append(child)
                self._index(child)
        else:
            element.tail = target.tail
            target.getparent().replace(target, element)
            self._index(element)

    def region(self, region_id: str) -> str:
        element = self.find(region_id)
        return "" if element is None else serialise(element)

    def html(self) -> str:
        """The whole page, as HTML."""
        return serialise(self.root)

    def log(self) -> list[str]:
        lines = self.root.xpath(f'//*[@id="log-lines"]//li[not({has_class("muted")})]')
        return [li.text_content() for li in lines]

    def regions(self) -> dict[str, str]:
        """Every region as normalised HTML, the log lines left out (see ``log``)."""
        return {region_id: normalise(self.region(region_id)) for region_id in REGION_IDS}


def has_class(name: str) -> str:
    """An XPath test: the element's class attribute holds ``name``."""
    return f'contains(concat(" ", normalize-space(@class), " "), " {name} ")'


def keep_last(parent: HtmlElement, count: int) -> None:
    """Drop ``parent``'s first ``li`` children until ``count`` are left."""
    items = parent.findall("li")
    for item in items[: max(0, len(items) - count)]:
        item.drop_tree()


def serialise(element: HtmlElement) -> str:
    return lxml_html.tostring(element, encoding="unicode", with_tail=False)


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
