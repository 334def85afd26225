"""The frames a table's pages receive: a full snapshot, or a delta of the regions that changed.

A frame is text: a header comment, then htmx out-of-band swaps of regions by id::

    <!--frame {"v": 42, "b": 41, "r": 3, "full": false}-->
    <section id="status" hx-swap-oob="true" ...>…</section>
    <section id="trick" hx-swap-oob="true" ...>…</section>
    <ol id="log-lines" hx-swap-oob="beforeend"><li>ana played 9♥ 9♣</li></ol>

``v`` is the match version the frame shows (for a delayed spectator, the delayed version), ``b``
the version a delta applies on (deltas only), ``r`` the table's revision (seating and status,
``Table.revision``). A page applies a full frame whose ``(r, v)`` is not older than its own and a
delta whose ``b`` and ``r`` are exactly its own; anything else is old (dropped) or a gap (the page
asks for a snapshot). htmx ignores the comment; ``static/js/table.js`` reads it.

A delta always holds the status (it carries the version) and only the other regions whose inputs
changed (``regions.region_keys``: the fields each region declares in ``games.live.regions``, the
only ones its template is rendered with): the seats' counts and markers (an AI stand-in's too),
the trick, the claim bar, the tribute, the result, the rematch offer, the hand (only when the
seat's cards changed) and its buttons and hints, the own seat's stand-in controls, the cards the
seat has not seen yet (the tracker), plus the new log lines appended. A seat's row holds its
place at the table and its last step of the trick (``presenters._around_the_table``), so both
are in its key. Every render here is for one audience — a seat, or the spectators — in the
language active when it is called, from that audience's view only (``games.live.presenters``).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from typing import Any, NamedTuple

from django.utils.html import escape

from games.engine.events import Event
from games.engine.state import State
from games.engine.views import event_for
from games.live import regions, seat_frames
from games.live.cards import HandGroups
from games.live.context import TableContext
from games.live.log import log_lines, seat_names
from games.live.presenters import table_context
from games.live.public_part import SharedParts, row_text
from games.live.regions import Region
from games.live.speech import get_language
from games.models import Match, Seat, Table

LOG_LINES_TEMPLATE = "games/partials/log_lines.jinja"
#: Elements that left the page (cards played from the hand): htmx deletes each by id (the
#: removals end with a newline, as the template that wrote them did). Written
#: here, not by a template (a Django render cost ~20 µs for these few tags).
REMOVAL = '<i id="{id}" hx-swap-oob="delete"></i>'
TRICK_APPEND_TEMPLATE = "games/partials/trick_append.jinja"


class Renders:
    """Renders shared by the audiences of one push: a region whose inputs (its key) are equal
    for two audiences in one language is rendered once — the trick, the other seats, a
    spectator's claim bar. A region's template sees only the inputs its key is made of
    (``games.live.regions``)."""

    def __init__(self) -> None:
        self._done: dict[tuple[str, str | None, str], str] = {}
        self.rendered = 0
        #: The part of the views every audience of one state sees alike (``public_part``).
        self.views = SharedParts()
        #: The language of the audience being rendered for: read once per audience
        #: (``delta``), not at every render (Django keeps it in an ``asgiref`` ``Local``).
        self.language: str | None = None
        #: A move's new log lines and their render, by language and the events as shown.
        self._lines: dict[tuple[str | None, tuple[Event | None, ...]], str] = {}
        #: Other seats' rows as every viewer but their own gets them (``seat_frames.placed_seat``).
        self.placed: dict[tuple[object, ...], tuple[object, object, str]] = {}

    def speak(self, language: str | None) -> None:
        """The renders that follow are for an audience in ``language`` (the active one)."""
        self.language = language

    def region(
        self, region: Region, context: TableContext, known: str | None = None, **extra: Any
    ) -> str:
        """``region`` for this view (its render key: its inputs and those it holds; ``known``:
        that key as the view's summary wrote it, ``summary_key``)."""
        if known is None:
            slot = (region.template, self.language, repr((region.render_key(context), extra)))
        else:
            slot = (region.template, self.language, f"={known}{extra!r}")
        text = self._done.get(slot)
        if text is None:
            text = self._done[slot] = region.render(context, **extra)
            self.rendered += 1
        return text

    def render(
        self,
        template: str,
        key: object,
        inputs: dict[str, Any] | Callable[[], dict[str, Any]],
        name: str = "",
    ) -> str:
        """``template`` with ``inputs`` (or what it returns, built only for a render), which
        ``key`` determines."""
        slot = (template, self.language, repr(key))  # keys hold lists and dicts
        text = self._done.get(slot)
        if text is None:
            values = inputs() if callable(inputs) else inputs
            text = self._done[slot] = regions.render(template, values, name)
            self.rendered += 1
        return text

    def log_lines(self, events: Sequence[Event], seat: int | None, seats: list[Seat]) -> str:
        """The move's log lines for ``seat``'s audience, rendered ("" for none): made once per
        language and events as shown (``event_for``: most moves read alike for every audience,
        a window answer's cards only for its seat)."""
        key = (self.language, tuple(event_for(event, seat) for event in events))
        text = self._lines.get(key)
        if text is None:
            lines = log_lines(events, seat, seat_names(seats))
            text = self._lines[key] = (
                self.render(LOG_LINES_TEMPLATE, tuple(lines), {"lines": lines}) if lines else ""
            )
        return text


def header(version: int, revision: int, base: int | None = None) -> str:
    """The frame's header comment: ``full`` when ``base`` is None. Its JSON written by hand,
    the bytes ``json.dumps(…, separators=(",", ":"))`` writes (which builds an encoder at
    every call: ~4 µs, four headers a push)."""
    if base is None:
        return f'<!--frame {{"v":{int(version)},"r":{int(revision)},"full":true}}-->'
    return f'<!--frame {{"v":{int(version)},"r":{int(revision)},"full":false,"b":{int(base)}}}-->'


def full(context: TableContext, revision: int) -> str:
    """Every region for one viewer (first connect, reconnect, resync, seat changes)."""
    version = context.version or 0
    parts = [region.render(context, oob=True) for region in regions.FULL]
    return header(version, revision) + "\n" + "".join(part + "\n" for part in parts)


def delta(
    table: Table,
    match: Match,
    seats: list[Seat],
    old: State,
    new: State,
    events: Sequence[Event],
    seat: int | None,
    revision: int,
    delay: int = 0,
    renders: Renders | None = None,
    away: frozenset[int] | None = None,
) -> str:
    """The frame that takes one audience's page from ``old`` to ``new`` (consecutive versions).

    ``events`` are the engine's events of the move between them, shown through
    ``engine.views.event_for`` (a pending claim's cards only to its seat). Regions whose key did
    not change are left out; a seat whose row changed is sent alone; a hand that only lost
    cards loses just those cards (and emptied ranks). ``renders`` shares renders between the
    audiences of one push. ``away``: the seats the table shows away (``games.live.away``).
    """
    renders = renders or Renders()
    language = get_language()
    renders.speak(language)
    before = _summary_at(table, match, seats, old, seat, delay, language, renders.views, away)
    after = table_context(
        table,
        match,
        new,
        seat,
        seats=seats,
        recent_moves=[],
        delay=delay,
        shared=renders.views,
        away=away,
    )
    now = summarize(after, renders.views)
    _remember(_summary_key(table, match, new, seat, delay, language, renders.views), now)
    old_keys, new_keys = dict(before.regions), dict(now.regions)
    parts = [
        header(new.version, revision, base=old.version),
        # the status's key is the same objects for most seats of a push: written once
        renders.region(
            regions.STATUS, after, renders.views.key_text(regions.STATUS.key(after)), oob=True
        ),
    ]
    whole_hand = False  # the hand region, which holds its buttons, went out whole
    for region in regions.DELTA:
        name = region.name
        changed = old_keys[name] != new_keys[name]
        if region is regions.SEATS:
            parts.extend(_seat_changes(before, now, changed, after, renders))
        elif region is regions.HAND and changed:
            text, whole_hand = _hand_change(before, now, after, renders)
            parts.append(text)
        elif region is regions.TRICK and changed:
            parts.append(_trick_change(before, now, after, renders))
        elif region is regions.HAND_ACTIONS:
            # A spectator's page has no seat buttons (hand.jinja renders them for a seat only):
            # a swap there would have no target (htmx:oobErrorNoTarget).
            if seat is not None and changed and not whole_hand:
                parts.append(renders.region(region, after, summary_key(region, now), oob=True))
        elif changed:
            parts.append(renders.region(region, after, summary_key(region, now), oob=True))
    parts.append(renders.log_lines(events, seat, seats))
    return "".join(parts)


def summary_key(region: Region, summary: Summary) -> str:
    """``region``'s render key (``Region.render_key``: its own key and those of the regions it
    holds) as ``summary`` wrote it already: its key's text and each held region's (a seat's:
    every row's)."""
    texts = dict(summary.regions)
    parts = [texts[region.name]]
    for held in region.holds:
        parts.append("\x1f".join(summary.seats) if held is regions.SEAT else texts[held.name])
    return "\x1e".join(parts)


if any(held.holds for region in regions.DELTA for held in region.holds):
    raise ImportError("summary_key reads one level of held regions")


class Summary(NamedTuple):
    """What the next delta needs of a view, as text and numbers only: each region's key and
    each seat's key (``repr``, compared as strings), the trick's entries, the hand's card
    slots. The cache keeps them as plain tuples of strings and numbers, which the garbage
    collector stops tracking after its first passes over them (``config.heap``)."""

    regions: tuple[tuple[str, str], ...]
    seats: tuple[str, ...]
    trick: tuple[str, ...]
    slots: tuple[tuple[int, str], ...]
    me: int | None
    round_level: str | None


def summarize(context: TableContext, shared: SharedParts | None = None) -> Summary:
    """The ``Summary`` of one view (a ``table_context``). The trick's entries, which every view
    of one state shares (``public_part``), are written once per push (``shared``) and stand
    for the trick in its region's key."""
    trick = _trick_texts(context.trick, shared)
    frame = repr(regions.SEAT.key(context))  # each seat's key: its row and this
    keys = []
    for region in regions.DELTA:
        key = region.key(context)
        if region is regions.TRICK:
            key = (trick, *key[1:])
        keys.append((region.name, repr(key)))
    return Summary(
        regions=tuple(keys),
        seats=tuple([row_text(row, shared) + frame for row in context.seats]),
        trick=trick,
        slots=_slots(context.hand),
        me=context.me,
        round_level=context.round_level,
    )


if regions.STATUS.holds:  # delta keys the status's render by its own key's text
    raise ImportError("the status region holds no other region")
if regions.TRICK.reads[0] != "trick":  # summarize puts the entries' texts in its place
    raise ImportError("the trick region's key must start with the trick")


def _trick_texts(trick: list[dict[str, Any]] | None, shared: SharedParts | None) -> tuple[str, ...]:
    """Each entry of the trick as text (``repr``), once per push for a shared trick."""
    if not trick:
        return ()
    kept = shared.texts.get(id(trick)) if shared is not None else None
    if kept is not None and kept[0] is trick:
        return kept[1]
    texts = tuple([repr(entry) for entry in trick])
    if shared is not None:
        shared.texts[id(trick)] = (trick, texts)
    return texts


#: The views' summaries this process built lately, by (match, state, seat, language, delay,
#: revision): the "after" of one push is the "before" of the next one (when this process sends
#: it too); a miss costs one more view.
_recent: OrderedDict[tuple[object, ...], tuple[Any, ...]] = OrderedDict()
_recent_lock = threading.Lock()
RECENT_SUMMARIES = 4000


def _summary_key(
    table: Table,
    match: Match,
    state: State,
    seat: int | None,
    delay: int,
    language: str | None,
    shared: SharedParts,
) -> tuple[object, ...]:
    return (match.pk, state.version, shared.hash(state), seat, language, delay, table.revision)


def _remember(key: tuple[object, ...], summary: Summary) -> None:
    with _recent_lock:
        _recent[key] = tuple(summary)  # a plain tuple: CPython untracks only exact tuples
        while len(_recent) > RECENT_SUMMARIES:
            _recent.popitem(last=False)


def _summary_at(
    table: Table,
    match: Match,
    seats: list[Seat],
    state: State,
    seat: int | None,
    delay: int,
    language: str | None,
    shared: SharedParts,
    away: frozenset[int] | None = None,
) -> Summary:
    key = _summary_key(table, match, state, seat, delay, language, shared)
    with _recent_lock:
        kept = _recent.get(key)
    if kept is not None:
        return Summary._make(kept)
    summary = summarize(
        table_context(
            table,
            match,
            state,
            seat,
            seats=seats,
            recent_moves=[],
            delay=delay,
            shared=shared,
            away=away,
        ),
        shared,
    )
    _remember(key, summary)
    return summary


def _seat_changes(
    before: Summary, now: Summary, whole: bool, after: TableContext, renders: Renders
) -> list[str]:
    """The seats region when its frame changed, else each seat whose row changed."""
    if whole or len(before.seats) != len(now.seats):
        return [renders.region(regions.SEATS, after, summary_key(regions.SEATS, now), oob=True)]
    changed = []
    for old_key, new_key, row in zip(before.seats, now.seats, after.seats, strict=True):
        if old_key == new_key:
            continue
        if row["is_me"]:
            changed.append(seat_frames.own_seat_row(row, after, renders))
        else:
            changed.append(seat_frames.placed_seat(row, after, renders))
    return changed


def _trick_change(before: Summary, now: Summary, after: TableContext, renders: Renders) -> str:
    """The trick region, or — when the trick only grew — its new entries appended."""
    old = before.trick
    if old and len(now.trick) > len(old) and now.trick[: len(old)] == old:
        entries = (after.trick or [])[len(old) :]
        return renders.render(TRICK_APPEND_TEMPLATE, now.trick[len(old) :], {"entries": entries})
    return renders.region(regions.TRICK, after, summary_key(regions.TRICK, now), oob=True)


def _hand_change(
    before: Summary, now: Summary, after: TableContext, renders: Renders
) -> tuple[str, bool]:
    """The hand region (and True), or — when the seat only lost cards within a round — the
    removal of those cards' inputs and labels (the copies with the highest numbers, as a fresh
    render numbers the ones left) and of the ranks left empty (and False)."""
    old, new = before.slots, now.slots
    if (
        before.me is None
        or not new
        or not set(new) < set(old)
        or before.round_level != now.round_level
    ):
        return renders.region(regions.HAND, after, summary_key(regions.HAND, now), oob=True), True
    gone_ranks = {face for face, _slot in old} - {face for face, _slot in new}
    ids = [f"rank-{face}" for face in sorted(gone_ranks)]
    for face, slot in sorted(set(old) - set(new)):
        if face not in gone_ranks:
            ids += [f"card-{slot}", f"label-{slot}"]
    return "".join([REMOVAL.format(id=escape(id_)) for id_ in ids]) + "\n", False


def _slots(groups: Iterable[dict[str, Any]] | None) -> tuple[tuple[int, str], ...]:
    """The hand's ``(face, slot)`` pairs: worked out once per kept hand (``HandGroups``)."""
    if isinstance(groups, HandGroups):
        return groups.slots
    return tuple(
        (group["face"], slot) for group in groups or () for _card, slot in group["entries"]
    )
