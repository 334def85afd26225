"""The only writer of a match (DESIGN.md rule 1).

Every change to a running match goes through ``do_action``: lock the match row, check the action
still fits (the version a turn action was made against, the window or tribute a claim or return
answers, a client id seen before, its deadline not passed), apply it with the engine, persist
state and move, set the one running timer, commit, and only then notify the table and schedule
its wake-ups.

The writer judges deadlines, the clock only wakes it (DESIGN.md rule 3): an action that reaches
the locked row at or after ``Match.deadline`` (``deadline_passed``, by ``writer_now``) is refused
``late`` and the writer makes the deadline's own transition first (``apply_deadline_locked``:
the window closes, the seat times out…), exactly as the timer would; the timer, ringing later,
finds its token gone and does nothing.
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import User
from games.engine import NextRound, Pass, Play, Rejection, Resign, Timeout
from games.engine import apply as engine_apply
from games.engine.actions import Action
from games.engine.codec import (
    CodecError,
    action_from_json,
    action_to_json,
    events_to_json,
    state_to_json,
)
from games.engine.deal import new_match
from games.engine.events import Event, WindowOpened
from games.engine.state import PLAY, ROUND_OVER, TRIBUTE, WINDOW, State
from games.live.replay import load_state
from games.models import Match, Move, Round, Seat, Table
from games.play import after_commit, first_windows, standins, summaries, writes
from games.play.outcomes import PLAYER_ACTIONS, Result, log_action

log = logging.getLogger(__name__)


# --- starting a match -------------------------------------------------------------------------


def do_start_match(table: Table, seed: int | None = None) -> Match:
    """Deal round 1 of the table's match. Precondition: the caller holds the table row lock and
    every seat is taken."""
    seed = secrets.randbits(48) if seed is None else seed
    state = new_match(table.engine_options(), seed)
    match = Match(
        table=table,
        seed=seed,
        state=state_to_json(state),
        version=state.version,
        phase=state.phase,
        round_no=state.round_no,
    )
    match.save()
    Round.objects.create(
        match=match,
        number=1,
        level=state.level,
        levels_before=list(state.levels),
        dealer=state.dealer,
        leader=state.leader,
    )
    table.status = Table.Status.PLAYING
    table.save(update_fields=["status"])
    _set_timer(match, state, state, (), timezone.now())
    match.save()
    # The table's own notification (games.play.tables) pushes the first snapshot to every page.
    after_commit.schedule(match, state, timer_changed=True, seats=list(table.seats.all()))
    return match


#: The longest ``client_id`` a move may carry (``Move.client_id``'s column).
CLIENT_ID_MAX: int = Move._meta.get_field("client_id").max_length or 64


# --- the one writer -----------------------------------------------------------------------------


def submit(match_id: int, user: User, payload: object) -> Result:
    """A person's action from a page: ``{"action", "cards"|"card", "version", "client_id"}``.

    The seat is the user's own seat at the table, never one named in the payload. Returns a
    Result; a rejection changed nothing. ``code`` ``stale`` or ``duplicate`` asks the caller to
    resend a fresh snapshot. Logs one ``game.action`` line (``log_action``).
    """
    started = time.perf_counter()
    seat: list[int] = []  # the user's seat number, once the locked checks found it
    if not isinstance(payload, dict) or payload.get("action") not in PLAYER_ACTIONS:
        result = Result(False, "malformed", "unknown action")
    elif not isinstance(payload.get("client_id"), str | None):  # as the bot API's schema
        result = Result(False, "malformed", "the client_id is not a string")
    elif len(payload.get("client_id") or "") > CLIENT_ID_MAX:
        # Refused, not cut: two ids alike in their first characters would be one id, and the
        # second move answered "duplicate" without being applied.
        result = Result(False, "malformed", f"the client_id is over {CLIENT_ID_MAX} characters")
    else:
        client_id = payload.get("client_id") or ""
        try:
            result = _submit_locked(match_id, user, payload, client_id, seat)
        except IntegrityError:  # a move logged twice: the whole transaction rolled back
            result = Result(False, "duplicate", "already applied")
    log_action("game.action", match_id, seat[0] if seat else None, payload, result, started)
    return result


def _submit_locked(
    match_id: int, user: User, payload: dict[str, Any], client_id: str, found_seat: list[int]
) -> Result:
    with transaction.atomic():
        # With its table, both rows locked; and whether the client id was seen (one statement).
        match = writes.lock_match(match_id, client_id)
        if match.table.status == Table.Status.ABANDONED:
            return Result(False, "abandoned", "this match was stopped", match.version)
        seats = seats_of(match)
        seat = next((s for s in seats if s.user_id == user.pk), None)
        if seat is None:
            return Result(False, "not_seated", "you have no seat at this table", match.version)
        found_seat.append(seat.number)
        refused = standins.refusal(seat, payload["action"])  # the AI plays this seat now
        if refused:
            return Result(False, refused, "an AI plays this seat", match.version)
        if client_id and writes.seen_at_lock(match, client_id):
            return Result(False, "duplicate", "already applied", match.version)
        state = load_state(match)
        try:
            action = action_from_json({**_action_fields(payload), "seat": seat.number})
        except CodecError as e:
            return Result(False, "malformed", str(e), match.version)
        now = writer_now()
        if deadline_passed(match, now):
            # Whatever the worker is doing: the deadline's transition first, as its timer would.
            expired = apply_deadline_locked(match, state, now)
            if not expired.ok:  # the engine refused its own timeout: a bug, judged as before
                log.error("match %s: its deadline could not be applied: %s", match.pk, expired)
            elif not isinstance(action, Resign):
                return Result(False, "late", "its deadline had passed", match.version)
            else:  # a resignation means whatever the table did since: it goes on the new state
                state, seats = load_state(match), seats_of(match)
        stale = _stale(match, state, action, payload.get("version"))
        if stale and _resent(match, seat.number, action, payload.get("version")):
            return Result(False, "duplicate", "already applied", match.version)
        if stale:
            return Result(False, "stale", stale, match.version)
        standins.note_own_action(match, seat.number)
        result = apply_locked(match, state, action, seat.number, client_id, seats, now)
        if result.ok and state.phase == WINDOW:  # an answer: the claim help counts it
            first_windows.note_answer(user)
        return result


#: Seats read last, by (table, revision), with when and their rows' stamp
#: (``writes.seats_stamp``). A match locked by ``writes.lock_match`` comes with the stamp of its
#: seats as locked: the seats kept are reused while that stamp is theirs, however old (the rows
#: have not changed since, a person's name and preferences included). A match read otherwise
#: (the worker's ORM reads) reuses the seats kept at the table's revision for this many seconds:
#: a seat's person is then at most that old.
SEATS_REUSE_SECONDS = 2.0
_recent_seats: dict[tuple[int, int], tuple[float, str | None, list[Seat]]] = {}
_seats_lock = threading.Lock()


def seats_of(match: Match) -> list[Seat]:
    """The match's seats with their users, shared by the checks and the push: one query (a fixed
    statement, ``writes.read_seats``: 0.23 ms of CPU against the ORM's 0.86), or none when the
    seats this process kept are the rows as ``lock_match`` found them (its stamp), or, for a
    match read otherwise, were read at the table's current revision a moment ago.
    ``match.table`` must be loaded (it is, with the lock)."""
    key = (match.table_id, match.table.revision)
    stamp = writes.seats_stamp(match)
    now = time.monotonic()
    with _seats_lock:
        read_at, kept_stamp, seats = _recent_seats.get(key, (0.0, None, []))
    if stamp is not None:
        if stamp == kept_stamp:
            return seats
    elif now - read_at < SEATS_REUSE_SECONDS:
        return seats
    seats, read_stamp = writes.read_seats_stamped(match.table_id)
    with _seats_lock:
        if len(_recent_seats) > 4096:
            _recent_seats.clear()
        _recent_seats[key] = (now, read_stamp, seats)
    return seats


def _action_fields(payload: dict[str, Any]) -> dict[str, Any]:
    fields = {"type": payload["action"]}
    if payload["action"] == "resign":
        return fields
    if payload["action"] == "return":
        fields["card"] = payload.get("card")
    elif payload["action"] != "pass":
        fields["cards"] = payload.get("cards")
    return fields


def _stale(match: Match, state: State, action: Action, version: object) -> str:
    """Why an action no longer fits (DESIGN.md rule 1), or "".

    A turn action must be made against the current version. A window answer or a tribute return
    must have been made after the window (or tribute) it answers opened: answers from several
    seats to one window are all taken, whatever the version moved to meanwhile.
    """
    if type(version) is not int:
        return "the action carries no version"
    if isinstance(action, Resign):  # meant whatever the table did since, but not from the future
        return "" if version <= match.version else "the table has no such version"
    if state.phase in (WINDOW, TRIBUTE) and not isinstance(action, Play):
        return "" if version >= match.deadline_token else "that window or tribute has closed"
    if isinstance(action, (Play, Pass)) and version != match.version:
        return "the table moved on since that action"
    return ""


def _resent(match: Match, seat: int, action: Action, version: object) -> bool:
    """Whether ``action``, refused as stale, is the very move ``seat`` made at ``version``: a
    page's double click, or a message sent again, that the first send already applied. It is
    answered as a duplicate (nothing to tell the person), not as "the table moved on"."""
    return (
        type(version) is int
        and Move.objects.filter(
            match=match, seq=version + 1, seat=seat, action=action_to_json(action)
        ).exists()
    )


def writer_now() -> datetime:
    """The instant the writer judges a deadline at: this server's clock (``timezone.now()``,
    aware, UTC), read after the match row is locked.

    It is the clock every deadline is written with (``_set_timer``: the writer's now plus the
    window's or turn's seconds), so the comparison needs no other clock; an action that waited
    behind the row lock is judged when it gets the row, as the timer's own transition would be.
    Not the database's ``now()``: PostgreSQL's is the transaction's start (before the lock wait)
    and SQLite (``make run``) has none of the same kind. Hosts running writers must keep their
    clocks in step (NTP), as the clock and the sweeps already assume."""
    return timezone.now()


def deadline_passed(match: Match, now: datetime) -> bool:
    """Whether ``match``'s running deadline (``Match.deadline``) has come at ``now`` (aware): at
    the deadline itself the time is up. False when no deadline runs (match over)."""
    return match.deadline is not None and now >= match.deadline


def apply_deadline_locked(match: Match, state: State, now: datetime | None = None) -> Result:
    """Make the transition the match's running deadline makes: the claim window closes (the
    seats yet to answer pass), the seat to play times out (a follower passes, a leader plays
    its lowest card, RULES.md §10), the tribute returns still due are made (§9.4), or after a
    round the next one is dealt. The clock's timer (``deadlines.expire``) and a late action
    (``_submit_locked``, ``deadlines.ai_apply``/``auto_pass``) both come here, so it happens once:
    it moves ``deadline_token`` on, and whichever comes second finds nothing to do.

    Counts the timeout towards a stand-in (``standins.note_timeout``). ``now`` defaults to
    ``writer_now()``. Precondition: the caller holds the match row lock and the deadline
    passed (``deadline_passed``)."""
    action = NextRound() if state.phase == ROUND_OVER else Timeout()
    standins.note_timeout(match, state)  # may hand an away person's seat to the stand-in
    return apply_locked(match, state, action, None, now=now)


def apply_locked(
    match: Match,
    state: State,
    action: Action,
    seat: int | None,
    client_id: str = "",
    seats: list[Seat] | None = None,
    now: datetime | None = None,
    by_ai: bool = False,
) -> Result:
    """Apply ``action`` to the locked ``match`` (loaded with its table), log and save it, and
    push the move after commit; ``now`` (default ``writer_now()``) starts the next deadline.
    ``by_ai``: an AI policy chose it (an AI seat or a person's stand-in: ``Move.by_ai``).
    Precondition: the caller holds the match row lock."""
    outcome = engine_apply(state, action)
    if isinstance(outcome, Rejection):
        return Result(False, outcome.code, outcome.message, match.version)
    new = outcome.state
    now = writer_now() if now is None else now
    summaries.record(match, new, outcome.events, now)
    old_token = match.deadline_token
    _set_timer(match, state, new, outcome.events, now)
    match.state = state_to_json(new)
    match.version = new.version
    match.phase = new.phase
    match.round_no = new.round_no
    match.level_team0, match.level_team1 = new.levels
    move = writes.MoveRow(
        match.pk,
        new.version,
        state.round_no,
        seat,
        action_to_json(action),
        events_to_json(outcome.events),
        client_id,
        now,
        by_ai,
    )
    # The move logged and the match saved (state and the changed columns only, by primary
    # key) in one statement. No savepoint: under the match's row lock the sequence and the
    # client id are checked already; should a constraint fire all the same, the caller's
    # transaction rolls back.
    writes.save_match(match, move)
    seats = seats_of(match) if seats is None else seats
    after_commit.schedule(
        match,
        new,
        timer_changed=match.deadline_token != old_token,
        seats=seats,
        move=(state, outcome.events),
    )
    return Result(True, version=new.version)


# --- timers -------------------------------------------------------------------------------------


def _set_timer(
    match: Match, old: State, new: State, events: tuple[Event, ...], now: datetime
) -> None:
    """Set the one running deadline for the new state (DESIGN.md rule 3).

    Answers inside a window and returns inside a tribute do not move its deadline; everything
    else that changes the state starts a fresh one, identified by the new version.
    """
    options = new.options
    kind, seconds = "", 0.0
    if new.phase == WINDOW:
        if any(isinstance(e, WindowOpened) for e in events) or old.phase != WINDOW:
            kind, seconds = Match.Deadline.WINDOW, options.claim_window_seconds
        else:
            return
    elif new.phase == TRIBUTE:
        if old.phase == TRIBUTE and old.round_no == new.round_no and match.deadline_kind:
            return
        kind, seconds = Match.Deadline.TRIBUTE, options.turn_seconds
    elif new.phase == PLAY:
        kind, seconds = Match.Deadline.TURN, options.turn_seconds
    elif new.phase == ROUND_OVER:
        kind, seconds = Match.Deadline.NEXT_ROUND, settings.GAMES_NEXT_ROUND_SECONDS
    if kind:
        match.deadline = now + timedelta(seconds=seconds)
        match.deadline_kind = kind
        match.deadline_token = new.version
    else:
        match.deadline = None
        match.deadline_kind = ""
        match.deadline_token = new.version
