"""What follows a committed move, in order: the push, the delayed view's step, the deadline and
the seats that act for themselves, then a round's or the match's end told to the lobby, the
leagues and the review (DESIGN.md rules 2, 3).

All of it runs after the commit (``transaction.on_commit``) and raises nothing: the move stands
whatever fails after it. The timer comes before the announcements, so a lobby that cannot be told
never leaves a match without its next deadline.

May import what ``games.play`` may; the writer (``services``) and the clock's work
(``deadlines``) call it.
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.db import transaction

from games.engine.events import Event
from games.engine.rules import seats_to_act
from games.engine.state import MATCH_OVER, ROUND_OVER, WINDOW, State
from games.live import delay, notify, push, visibility
from games.models import Match, Seat
from games.play import clock, wakeups
from games.signals import match_finished

log = logging.getLogger(__name__)


def schedule(
    match: Match,
    state: State,
    timer_changed: bool,
    seats: list[Seat],
    move: tuple[State, tuple[Event, ...]] | None = None,
) -> None:
    """After commit: push the move to every audience (``move`` = the state before it and its
    events), arm the match's deadline and wake the seats that act for themselves (rules 2, 3),
    then tell the lobby, the leagues and the review of a round's or the match's end.

    Nothing here is raised: the move stands whatever fails after its commit. A failed push is
    logged (pages catch up at their next heartbeat); the timer comes before the announcements,
    so a lobby that cannot be told never leaves a match without its next deadline (a lost timer
    waits for the beat's sweep)."""
    match_id, host_id = match.pk, match.table.host_id
    token, deadline = match.deadline_token, match.deadline

    def send() -> None:
        if move is not None:
            try:
                push.publish_move(match, seats, move[0], state, move[1])
            except Exception:
                log.exception("match %s: push of version %s failed", match_id, state.version)
            _step_delayed_view(match)
        if timer_changed and deadline is not None:
            _arm(match_id, token, deadline, state, seats)
        if state.phase in (MATCH_OVER, ROUND_OVER):
            try:
                _announce_end(match_id, host_id, state, seats, move)
            except Exception:
                log.exception("match %s: the end of version %s was not announced", match_id,
                              state.version)  # fmt: skip

    transaction.on_commit(send)


def _arm(match_id: int, token: int, deadline: datetime, state: State, seats: list[Seat]) -> None:
    """Arm the match's one deadline (``clock.arm``: a superseded one costs one ZADD, no task)
    and wake its AI seats and auto-passers at ``token``. A broker that cannot be reached is
    logged: the beat's sweeps (``sweep``, ``sweep_ai``) make what it lost."""
    clock.arm(match_id, token, deadline)
    ai_seats, auto_passers = seats_acting_for_themselves(seats, state)
    try:
        wakeups.seats_acting_for_themselves(
            match_id, token, deadline, state, ai_seats, auto_passers
        )
    except Exception:
        log.exception("match %s: seats acting at %s not woken; the sweep will", match_id, token)


def _announce_end(
    match_id: int,
    host_id: int,
    state: State,
    seats: list[Seat],
    move: tuple[State, tuple[Event, ...]] | None,
) -> None:
    """A round or the match ended (``state``): the leagues hear of a finished match
    (``match_finished``), the lobby lists of the host and the seated people refresh, and a
    round that just ended is reviewed for its people's seats (issue 20). Raises what those
    raise (the caller logs it)."""
    if state.phase == MATCH_OVER:
        match_finished.send(sender=Match, match_id=match_id)
    notify.lobby_changed([host_id, *(s.user_id for s in seats)])
    if move is not None and move[0].phase not in (MATCH_OVER, ROUND_OVER):
        if any(s.user_id is not None for s in seats):
            wakeups.review_round(match_id, state.round_no)


def _step_delayed_view(match: Match) -> None:
    """A delayed table's spectators' view may move on with this move: step it and arm its
    next wake-up (``games.live.delay``). A failure is logged: the sweep steps the view."""
    if not visibility.is_delayed(match.table):
        return
    try:
        step = delay.note_move(match)
    except Exception:
        log.exception("match %s: the spectators' view did not step", match.pk)
        return
    if step is not None:
        wakeups.delayed_view(match.pk, step.due)


def seats_acting_for_themselves(seats: list[Seat], state: State) -> tuple[list[int], list[int]]:
    """AI seats that may act now, and people who asked to pass every claim window."""
    acting = set(seats_to_act(state))
    ai = [s.number for s in seats if s.number in acting and s.ai_policy]
    passers = []
    if state.phase == WINDOW:
        passers = [
            s.number
            for s in seats
            if s.number in acting and not s.ai_policy and s.user and s.user.auto_pass_hooks
        ]
    return ai, passers
