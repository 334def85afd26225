"""A table's pushes (DESIGN.md rule 2): load once, render once per audience, route by seat.

After a move commits, the writer already holds the old and new state, the match and the seats:
``publish_move`` renders, for each audience registered on the table (``games.live.audiences``), the
delta between the two views, and sends it to that audience's group only. A seat's frame is built
from that seat's view and reaches that seat's sockets only; spectators share one render per
(table, version, language, delay). Sockets forward frames without a query
(``games.sockets.consumers``).

``publish_table`` (seating or status changed) tells every page the seating — public — and, once
a match runs, sends every audience a full snapshot from one load. ``snapshot`` renders one page's
full frame (connect, resync, a seat change for that page). The table-wide messages that are
not frames (the spectator count, the seats shown away) are ``games.live.table_messages``'.
"""

from __future__ import annotations

import functools
import itertools
import logging
import threading
import time
from collections.abc import Callable, Sequence
from operator import attrgetter
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.utils import translation

from accounts import turns
from accounts.models import User
from games.engine.codec import events_from_json
from games.engine.events import Event
from games.engine.state import State
from games.live import (
    audiences,
    away,
    frames,
    notify,
    replay,
    spectating,
    speech,
    visibility,
)
from games.live.log import recent_moves
from games.live.presenters import table_context
from games.live.public_part import SharedParts
from games.models import Match, Move, Seat, Table

log = logging.getLogger(__name__)


def _frame_message(
    text: str, version: int, revision: int, base: int | None, seat: int | None, away_seq: int = 0
) -> dict[str, Any]:
    """A frame for the audience of ``seat`` (None: spectators): ``s`` names it, so a socket that
    left that audience while the frame was on its way drops it (``TableConsumer.table_frame``).
    ``away_seq``: the sequence number of the seats shown away it was rendered with."""
    message = {
        "type": "table.frame",
        "text": text,
        "v": version,
        "r": revision,
        "full": base is None,
        "s": seat,
        # What the table showed away when it was rendered (``games.live.away``): a page sent a
        # newer change already has it again after this frame (``TableConsumer.table_frame``).
        "a": away_seq,
    }
    if base is not None:
        message["b"] = base
    return message


# --- after a move -------------------------------------------------------------------------------


def publish_move(
    match: Match, seats: list[Seat], old: State, new: State, events: Sequence[Event]
) -> None:
    """Send each registered audience the frame from ``old`` to ``new`` (one accepted action).

    ``match.table`` must be loaded (the writer selects it with the match). On a delayed table
    the spectators are not sent this move: their view moves on its own clock
    (``games.live.delay.note_move``, which the writer calls once this returned).
    """
    table = match.table
    revision = table.revision
    delayed = visibility.is_delayed(table)
    messages = []
    renders = frames.Renders()  # the trick, the other seats… once per language
    # What this push shows is noted with the audiences' lookup (one round trip), before the
    # frames go out, as it always was: a heartbeat then finds any frame lost on the way.
    latest = (revision, new.version, None if delayed else new.version)
    live, (away_seq, away_now) = audiences.live_and_away(table.pk, latest)
    # One switch of language per run of audiences speaking it (``audiences.live`` lists the
    # seats first, then the spectators: most tables' seats share one language).
    for language, run in itertools.groupby(live, key=attrgetter("language")):
        with speech.speaking(language):
            for audience in run:
                if audience.seat is None and delayed:
                    continue
                text = frames.delta(
                    table,
                    match,
                    seats,
                    old,
                    new,
                    events,
                    audience.seat,
                    revision,
                    renders=renders,
                    away=away_now,
                )
                messages.append(
                    (
                        audiences.group(table.pk, audience),
                        _frame_message(
                            text, new.version, revision, old.version, audience.seat, away_seq
                        ),
                    )
                )
    messages.append((audiences.bot_group(table.pk), audiences.bot_message(new.version)))
    notify.send_many(messages)
    turns.notify_if_away(match.pk, seats, old, new, live)  # "your turn" for a page not open


def publish_watched(match_id: int, old_version: int, new_version: int) -> tuple[int, int]:
    """The spectators' view of a delayed table moved from ``old_version`` to ``new_version``
    (``games.live.delay``): send every spectators' audience its frame — the move as a delta when
    it follows the last one shown, else a full snapshot — rendered once per language. Returns
    ``(table id, host id)``."""
    match = Match.objects.select_related("table").get(pk=match_id)
    table = match.table
    seats = list(table.seats.select_related("user"))
    sent: dict[str, tuple[str, int, int | None]] = {}
    messages = []
    live, (away_seq, away_now) = audiences.live_and_away(table.pk)
    for audience in live:
        if audience.seat is not None:
            continue
        with translation.override(audience.language):
            sent[audience.language] = _delayed_frame(
                table, match, seats, old_version, new_version, table.revision, away_now
            )
        text, version, base = sent[audience.language]
        messages.append(
            (
                audiences.group(table.pk, audience),
                _frame_message(text, version, table.revision, base, None, away_seq),
            )
        )
    audiences.set_latest_watched(table.pk, table.revision, new_version)
    notify.send_many(messages)
    return table.pk, table.host_id


def _delayed_frame(
    table: Table,
    match: Match,
    seats: list[Seat],
    old_version: int,
    new_version: int,
    revision: int,
    away_now: frozenset[int],
) -> tuple[str, int, int | None]:
    """Spectators' frame on a delayed table: the move at ``new_version`` as a delta when it
    follows the last one shown, else (a jump, or the view reaching a finished match's end,
    where the delay ends) a full snapshot of ``new_version``."""
    behind = match.version - new_version
    try:
        if new_version == old_version + 1 and behind:
            before = replay.state_at(match, old_version)
            after = replay.state_at(match, new_version)
            events = events_from_json(
                Move.objects.filter(match=match, seq=new_version)
                .values_list("events", flat=True)
                .first()
                or []
            )
            text = frames.delta(
                table, match, seats, before, after, events, None, revision, behind, away=away_now
            )
            return text, new_version, old_version
        state = replay.state_at(match, new_version)
    except replay.ReplayError:
        log.exception("match %s: the move log does not replay", match.pk)
        state = replay.initial_state(match)
    context = table_context(
        table,
        match,
        state,
        None,
        seats=seats,
        delay=match.version - state.version,
        recent_moves=recent_moves(match, state.version),
        away=away_now,
    )
    return frames.full(context, revision), state.version, None


# --- after a seating or status change -----------------------------------------------------------


def publish_table(table_id: int) -> None:
    """After a seating or status change commits: send every page the seating (public: user id
    → seat number held, the ids of those who left their seat for good, whether the table was
    stopped) and, if a match exists, every registered audience a full snapshot."""
    table = Table.objects.get(pk=table_id)
    seats = list(table.seats.select_related("user"))
    match = Match.objects.filter(table=table).first()
    # A person who left a seat for good holds it no more (``Seat.holder_id``): their pages
    # follow the spectators from now on, told why (``left``).
    seating = {str(s.holder_id): s.number for s in seats if s.holder_id}
    left = [str(s.user_id) for s in seats if s.user_id and s.holder_id is None]
    messages = [
        (
            notify.table_group(table_id),
            {
                "type": "table.seating",
                "seating": seating,
                "left": left,
                "r": table.revision,
                "has_match": match is not None,
                # Its match was stopped (e.g. by the last person's leave): nobody finishes it.
                "stopped": table.status == Table.Status.ABANDONED,
            },
        )
    ]
    if match is not None:
        match.table = table
        messages.extend(_snapshots(table, match, seats))
        messages.append((audiences.bot_group(table_id), audiences.bot_message(match.version)))
    notify.send_many(messages)


def _snapshots(table: Table, match: Match, seats: list[Seat]) -> list[tuple[str, dict[str, Any]]]:
    live = replay.load_state(match)
    watched_version = visibility.watched(table, match).version
    watched = (
        live if watched_version == live.version else replay.state_or_deal(match, watched_version)
    )
    moves = recent_moves(match, live.version)
    watched_moves = moves if watched is live else recent_moves(match, watched.version)
    count = spectating.count(table.pk)
    messages = []
    shared = SharedParts()  # what every audience of one state sees alike, built once
    live_audiences, (away_seq, away_now) = audiences.live_and_away(table.pk)
    for audience in live_audiences:
        state = watched if audience.seat is None else live
        with speech.speaking(audience.language):
            context = table_context(
                table,
                match,
                state,
                audience.seat,
                seats=seats,
                recent_moves=moves if state is live else watched_moves,
                spectators=count,
                delay=live.version - state.version,
                shared=shared,
                away=away_now,
            )
            text = frames.full(context, table.revision)
        messages.append(
            (
                audiences.group(table.pk, audience),
                _frame_message(text, state.version, table.revision, None, audience.seat, away_seq),
            )
        )
    audiences.set_latest(table.pk, table.revision, live.version, watched.version)
    return messages


# --- one page -----------------------------------------------------------------------------------

#: A spectators' snapshot is reused this long (seconds) by the sockets of one process, so a
#: crowd arriving costs one render; its countdown is at most this much off.
SNAPSHOT_REUSE_SECONDS = 1.0
_spectator_snapshots: dict[tuple[object, ...], tuple[float, str]] = {}
_snapshots_lock = threading.Lock()
# Spectators of one table and language asking at the same moment take turns (one lock of these
# per table and language, striped): the first renders, the others then find its render
# instead of rendering it too — a crowd of 50 arriving at once had up to one render per
# socket thread.
_crowd_locks = [threading.Lock() for _ in range(64)]


type _Snapshot = Callable[[int, int | None, User | AnonymousUser | None, str], tuple[str, int, int]]


def _one_crowd_at_a_time(function: _Snapshot) -> _Snapshot:
    @functools.wraps(function)
    def take_turns(
        table_id: int, seat: int | None, user: User | AnonymousUser | None, language: str
    ) -> tuple[str, int, int]:
        if seat is not None:
            return function(table_id, seat, user, language)
        with _crowd_locks[hash((table_id, language)) % len(_crowd_locks)]:
            return function(table_id, seat, user, language)

    return take_turns


@_one_crowd_at_a_time
def snapshot(
    table_id: int, seat: int | None, user: User | AnonymousUser | None, language: str
) -> tuple[str, int, int]:
    """One page's full frame now, as ``(text, version, revision)``: what a connect, a resync or
    the page's own seat change sends. A spectator of a delayed table sees the delayed state;
    spectators of a running match in one language share a render for a second."""
    table = Table.objects.get(pk=table_id)
    match = Match.objects.filter(table=table).first()
    key = None
    away_now = away.shown_away(table_id)
    if match is not None and seat is None:
        version = visibility.watched(table, match).version
        key = (table_id, language, table.revision, version, away_now)
        text = _reused(key)
        if text is not None:
            return text, version, table.revision
    seats = list(table.seats.select_related("user"))
    state = None
    behind = 0
    if match is not None:
        match.table = table
        state = visibility.visible_state(table, match, seat)
        behind = match.version - state.version
    with speech.speaking(language):
        context = table_context(
            table,
            match,
            state,
            seat,
            user,
            seats=seats,
            delay=behind,
            spectators=spectating.count(table_id),
            away=away_now,
            recent_moves=(
                recent_moves(match, state.version)
                if match is not None and state is not None
                else None
            ),
        )
        text = frames.full(context, table.revision)
    if key is not None:
        with _snapshots_lock:
            if len(_spectator_snapshots) > 512:
                _spectator_snapshots.clear()
            _spectator_snapshots[key] = (time.monotonic(), text)
    return text, context.version or 0, table.revision


def _reused(key: tuple[object, ...]) -> str | None:
    with _snapshots_lock:
        made, text = _spectator_snapshots.get(key, (0.0, None))
    return text if time.monotonic() - made < SNAPSHOT_REUSE_SECONDS else None
