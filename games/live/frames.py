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
changed (``region_keys``): the seats' counts and markers (an AI stand-in's too), the trick, the
claim bar, the tribute, the result, the rematch offer, the hand (only when the seat's cards changed)
and its buttons and hints, the own seat's stand-in controls, the cards the seat has not seen yet
(the tracker), plus the new log lines appended. A seat's row holds its place at the table and its
last step of the trick (``presenters._around_the_table``), so both are in its key. Every render here
is for one audience — a seat, or the spectators — in the language active when it is called, from
that audience's view only (``games.live.presenters``).
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from typing import NamedTuple

from django.template.loader import render_to_string
from django.utils.translation import get_language

from games.live.log import log_lines, seat_names
from games.live.presenters import table_context

#: The regions a delta may carry beside the status, in page order, with their templates.
DELTA_REGIONS = {
    "seats": "games/partials/seats.html",
    "trick": "games/partials/trick.html",
    "claim_bar": "games/partials/claim_bar.html",
    "tribute": "games/partials/tribute.html",
    "result": "games/partials/result.html",
    "rematch": "games/partials/rematch.html",
    "hand": "games/partials/hand.html",
    "hand_actions": "games/partials/hand_actions.html",
    "seat_menu": "games/partials/seat_menu.html",
    "tracker": "games/partials/tracker.html",
}
STATUS_TEMPLATE = "games/partials/status.html"
SEAT_TEMPLATE = "games/partials/seat.html"
ALL_REGIONS_TEMPLATE = "games/partials/regions.html"
LOG_LINES_TEMPLATE = "games/partials/log_lines.html"
REMOVALS_TEMPLATE = "games/partials/removals.html"
TRICK_APPEND_TEMPLATE = "games/partials/trick_append.html"


class Renders:
    """Renders shared by the audiences of one push: a region whose inputs (its key) are equal
    for two audiences in one language is rendered once — the trick, the other seats, a
    spectator's claim bar. Keys hold everything the template reads (``region_keys``), which
    ``tests/games/live/test_frames.py`` checks by comparing every page with a fresh render."""

    def __init__(self) -> None:
        self._done: dict[tuple, str] = {}
        self.rendered = 0

    def render(self, template: str, key: object, context: dict) -> str:
        slot = (template, get_language(), repr(key))  # keys hold lists and dicts
        text = self._done.get(slot)
        if text is None:
            text = self._done[slot] = render_to_string(template, context)
            self.rendered += 1
        return text


def header(version: int, revision: int, base: int | None = None) -> str:
    """The frame's header comment: ``full`` when ``base`` is None."""
    fields = {"v": version, "r": revision, "full": base is None}
    if base is not None:
        fields["b"] = base
    return f"<!--frame {json.dumps(fields, separators=(',', ':'))}-->"


def region_keys(context: dict) -> dict[str, object]:
    """What each delta region shows, as comparable values: a region whose key is equal at two
    versions (or for two audiences of one push) renders the same. Countdowns are left out: they
    live in the status, which every delta carries, and a claim bar's or result's countdown
    restarts only with a new window or result.
    """
    window = context.get("window")
    phase = context.get("phase")
    return {
        "seats": (context["is_open"], context["invite_path"], context["table"].players),
        "trick": (
            context.get("trick"),
            not context.get("trick") and phase == "play" and context.get("turn_name"),
        ),
        # The bar reads the viewer only as "is it my card?": seats in the same place share it.
        "claim_bar": (
            window,
            context.get("claim"),
            bool(window) and context["me"] == window["owner"],
        ),
        "tribute": (phase == "tribute", context.get("tributes"), context.get("returns")),
        "result": (context.get("result"), context.get("match_over"), context.get("levels")),
        # The rematch offer and answers (games.play.rematches), without its running countdown.
        "rematch": (context["me"], _without_countdown(context.get("rematch"))),
        "hand": (context["me"], context.get("hand")),
        "hand_actions": (
            context.get("hand_size"),
            phase in ("play", "window"),
            context.get("hints"),
            context.get("can_pass"),
        ),
        # The own seat's stand-in state and its hand-over count (games.play.standins).
        "seat_menu": (context["me"], context.get("seat_menu")),
        # The cards this seat has not seen yet (presenters.unseen_cards).
        "tracker": (context["me"], context.get("tracker")),
    }


def _without_countdown(region: dict | None) -> dict | None:
    if region is None:
        return None
    return {key: value for key, value in region.items() if key != "countdown"}


def seat_keys(context: dict) -> list[object]:
    """Each seat's inputs (its row, and whether a window is open for the answered marks)."""
    window = bool(context.get("window"))
    return [(row, window) for row in context["seats"]]


def full(context: dict, revision: int) -> str:
    """Every region for one viewer (first connect, reconnect, resync, seat changes)."""
    version = context.get("version") or 0
    return header(version, revision) + render_to_string(
        ALL_REGIONS_TEMPLATE, {**context, "oob": True}
    )


def delta(
    table,
    match,
    seats,
    old,
    new,
    events,
    seat: int | None,
    revision: int,
    delay: int = 0,
    renders: Renders | None = None,
) -> str:
    """The frame that takes one audience's page from ``old`` to ``new`` (consecutive versions).

    ``events`` are the engine's events of the move between them, shown through
    ``engine.views.event_for`` (a pending claim's cards only to its seat). Regions whose key did
    not change are left out; a seat whose row changed is sent alone; a hand that only lost
    cards loses just those cards (and emptied ranks). ``renders`` shares renders between the
    audiences of one push.
    """
    renders = renders or Renders()
    before = _summary_at(table, match, seats, old, seat, delay)
    after = table_context(table, match, new, seat, seats=seats, recent_moves=[], delay=delay)
    now = summarize(after)
    _remember(_summary_key(table, match, new, seat, delay), now)
    old_keys, new_keys = dict(before.regions), dict(now.regions)
    context = {**after, "oob": True}
    parts = [
        header(new.version, revision, base=old.version),
        renders.render(STATUS_TEMPLATE, (new.version, delay, after["my_turn"]), context),
    ]
    whole_hand = False  # the hand region, which holds its buttons, went out whole
    for name, template in DELTA_REGIONS.items():
        if name == "seats":
            parts.extend(
                _seat_changes(
                    before, now, old_keys[name] != new_keys[name], after, context, renders
                )
            )
        elif name == "hand" and old_keys[name] != new_keys[name]:
            text, whole_hand = _hand_change(before, now, after, context, renders)
            parts.append(text)
        elif name == "trick" and old_keys[name] != new_keys[name]:
            parts.append(_trick_change(before, now, after, context, renders))
        elif name == "hand_actions":
            # A spectator's page has no seat buttons (hand.html renders them for a seat only):
            # a swap there would have no target (htmx:oobErrorNoTarget).
            if seat is not None and old_keys[name] != new_keys[name] and not whole_hand:
                parts.append(renders.render(template, (seat, new_keys[name]), context))
        elif old_keys[name] != new_keys[name]:
            parts.append(renders.render(template, new_keys[name], context))
    lines = log_lines(events, seat, seat_names(seats))
    if lines:
        parts.append(renders.render(LOG_LINES_TEMPLATE, tuple(lines), {"lines": lines}))
    return "".join(parts)


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


def summarize(context: dict) -> Summary:
    """The ``Summary`` of one view (a ``table_context``)."""
    return Summary(
        regions=tuple((name, repr(key)) for name, key in region_keys(context).items()),
        seats=tuple(repr(key) for key in seat_keys(context)),
        trick=tuple(repr(entry) for entry in context.get("trick") or ()),
        slots=tuple(_slots(context.get("hand"))),
        me=context["me"],
        round_level=context.get("round_level"),
    )


#: The views' summaries this process built lately, by (match, state, seat, language, delay,
#: revision): the "after" of one push is the "before" of the next one (when this process sends
#: it too); a miss costs one more view.
_recent: OrderedDict[tuple, tuple] = OrderedDict()
_recent_lock = threading.Lock()
RECENT_SUMMARIES = 4000


def _summary_key(table, match, state, seat: int | None, delay: int) -> tuple:
    return (match.pk, state.version, hash(state), seat, get_language(), delay, table.revision)


def _remember(key: tuple, summary: Summary) -> None:
    with _recent_lock:
        _recent[key] = tuple(summary)  # a plain tuple: CPython untracks only exact tuples
        while len(_recent) > RECENT_SUMMARIES:
            _recent.popitem(last=False)


def _summary_at(table, match, seats, state, seat: int | None, delay: int) -> Summary:
    key = _summary_key(table, match, state, seat, delay)
    with _recent_lock:
        kept = _recent.get(key)
    if kept is not None:
        return Summary._make(kept)
    summary = summarize(
        table_context(table, match, state, seat, seats=seats, recent_moves=[], delay=delay)
    )
    _remember(key, summary)
    return summary


def _seat_changes(
    before: Summary, now: Summary, whole: bool, after: dict, context: dict, renders: Renders
) -> list[str]:
    """The seats region when its frame changed, else each seat whose row changed."""
    if whole or len(before.seats) != len(now.seats):
        key = (region_keys(after)["seats"], now.seats)
        return [renders.render(DELTA_REGIONS["seats"], key, context)]
    changed = []
    for old_key, new_key, row in zip(before.seats, now.seats, after["seats"], strict=True):
        if old_key == new_key:
            continue
        if row["is_me"]:
            changed.append(
                renders.render(SEAT_TEMPLATE, new_key, {**context, "s": row, "seat_oob": True})
            )
        else:
            changed.append(_placed_seat(row, context, renders))
    return changed


#: Stands for a seat's place (``pos``) in a row rendered for every viewer but its own seat.
POS_MARK = "{pos}"


def _placed_seat(row: dict, context: dict, renders: Renders) -> str:
    """Another seat's row: it reads the same from every viewer but for its place around the
    table (``pos``, the root's last class), so it is rendered once per push and language with
    ``POS_MARK`` there, and each viewer's place put in. The root tag comes first and holds
    only fixed words before it, so the first match is the class."""
    anywhere = {**row, "pos": POS_MARK}
    text = renders.render(
        SEAT_TEMPLATE,
        ("anywhere", repr(anywhere), bool(context.get("window"))),
        {**context, "s": anywhere, "seat_oob": True},
    )
    return text.replace(f' pos-{POS_MARK}"', f' pos-{row["pos"]}"', 1)


def _trick_change(
    before: Summary, now: Summary, after: dict, context: dict, renders: Renders
) -> str:
    """The trick region, or — when the trick only grew — its new entries appended."""
    old = before.trick
    if old and len(now.trick) > len(old) and now.trick[: len(old)] == old:
        entries = after["trick"][len(old) :]
        return renders.render(
            TRICK_APPEND_TEMPLATE, now.trick[len(old) :], {**context, "entries": entries}
        )
    return renders.render(DELTA_REGIONS["trick"], dict(now.regions)["trick"], context)


def _hand_change(
    before: Summary, now: Summary, after: dict, context: dict, renders: Renders
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
        return renders.render(
            DELTA_REGIONS["hand"], (now.me, dict(now.regions)["hand"]), context
        ), True
    gone_ranks = {face for face, _slot in old} - {face for face, _slot in new}
    ids = [f"rank-{face}" for face in sorted(gone_ranks)]
    for face, slot in sorted(set(old) - set(new)):
        if face not in gone_ranks:
            ids += [f"card-{slot}", f"label-{slot}"]
    return render_to_string(REMOVALS_TEMPLATE, {"ids": ids}), False


def _slots(groups) -> list[tuple[int, str]]:
    return [(group["face"], slot) for group in groups or () for _card, slot in group["entries"]]
