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
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import User
from games.engine import NextRound, Rejection, Resign, Timeout
from games.engine import apply as engine_apply
from games.engine.actions import Action
from games.engine.codec import (
    action_to_json,
    events_to_json,
    state_to_json,
)
from games.engine.deal import new_match
from games.engine.events import Event, WindowOpened
from games.engine.state import PLAY, ROUND_OVER, TRIBUTE, WINDOW, State
from games.live.replay import load_state
from games.models import Match, Move, Round, Seat, Table
from games.play import after_commit, checks, first_windows, standins, summaries, writes
from games.play.outcomes import Result, log_action

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


# --- the one writer -----------------------------------------------------------------------------


def submit(match_id: int, user: User, payload: object) -> Result:
    """A person's action from a page: ``{"action", "cards"|"card", "version", "client_id"}``.

    The seat is the user's own seat at the table, never one named in the payload. Returns a
    Result; a rejection changed nothing. ``code`` ``stale`` or ``duplicate`` asks the caller to
    resend a fresh snapshot. Logs one ``game.action`` line (``log_action``).
    """
    started = time.perf_counter()
    seat: list[int] = []  # the user's seat number, once the locked checks found it
    result = checks.payload_refusal(payload)
    if result is None:
        assert isinstance(payload, dict)  # (payload_refusal refuses anything else)
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
        seats = seats_of(match)
        judged = checks.judge(
            match,
            seats,
            user,
            payload,
            lambda: writes.seen_at_lock(match, client_id),
            lambda: writes.client_id_move(match.pk, client_id),
        )
        if judged.seat is not None:
            found_seat.append(judged.seat.number)
        if judged.refused is not None:
            return judged.refused
        assert judged.seat is not None and judged.action and judged.state  # (judge's promise)
        seat, action, state = judged.seat, judged.action, judged.state
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
        stale = checks.stale(match, state, action, payload.get("version"))
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
    now = writer_now() if now is None else now
    move = prepare_move(match, state, action, seat, client_id, now, by_ai)
    if isinstance(move, Result):
        return move
    summaries.record(match, move.state, move.events, now)
    # The move logged and the match saved (state and the changed columns only, by primary
    # key) in one statement. No savepoint: under the match's row lock the sequence and the
    # client id are checked already; should a constraint fire all the same, the caller's
    # transaction rolls back.
    writes.save_match(match, move.row)
    seats = seats_of(match) if seats is None else seats
    after_commit.schedule(
        match, move.state, move.timer_changed, seats=seats, move=(state, move.events)
    )
    return Result(True, version=move.state.version)


@dataclass(frozen=True)
class Prepared:
    """A move the engine accepted, not saved yet: the new ``state``, its ``events``, the
    ``row`` to log and whether the running deadline changed (``timer_changed``)."""

    state: State
    events: tuple[Event, ...]
    row: writes.MoveRow
    timer_changed: bool


def prepare_move(
    match: Match,
    state: State,
    action: Action,
    seat: int | None,
    client_id: str,
    now: datetime,
    by_ai: bool = False,
) -> Prepared | Result:
    """The engine's answer to ``action`` on ``state`` (RULES.md), and ``match`` brought to it
    in memory — state, version, phase, round, levels and the next deadline (``_set_timer``) —
    with the move's row to log; or the engine's refusal as a Result (``match`` unchanged).
    Reads and writes nothing: ``apply_locked`` records and saves it."""
    outcome = engine_apply(state, action)
    if isinstance(outcome, Rejection):
        return Result(False, outcome.code, outcome.message, match.version)
    new = outcome.state
    old_token = match.deadline_token
    _set_timer(match, state, new, outcome.events, now)
    match.state = state_to_json(new)
    match.version = new.version
    match.phase = new.phase
    match.round_no = new.round_no
    match.level_team0, match.level_team1 = new.levels
    row = writes.MoveRow(
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
    return Prepared(new, outcome.events, row, match.deadline_token != old_token)


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
