"""The only writer of a match (DESIGN.md rule 1).

Every change to a running match goes through ``do_action``: lock the match row, check the action
still fits (the version a turn action was made against, the window or tribute a claim or return
answers, a client id seen before), apply it with the engine, persist state and move, set the one
running timer, commit, and only then notify the table and schedule its wake-ups.
"""

from __future__ import annotations

import logging
import random
import secrets
import threading
import time
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Exists, F, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from games import ai_players, notify, push, standins, timers
from games.engine import NextRound, Pass, Play, Rejection, Resign, Timeout, legal_actions
from games.engine import apply as engine_apply
from games.engine.cards import parse_face
from games.engine.codec import (
    CodecError,
    action_from_json,
    action_to_json,
    state_from_json,
    state_to_json,
)
from games.engine.deal import new_match
from games.engine.rules import seats_to_act
from games.engine.state import MATCH_OVER, PLAY, ROUND_OVER, TRIBUTE, WINDOW, State
from games.models import Match, Move, Round, Seat, Table, TributeRecord
from games.signals import match_finished

log = logging.getLogger(__name__)

#: Actions a person may send; the clock's actions (timeout, next round) are the server's own.
#: (A seat's hand-overs to and from its AI stand-in are requests of ``standins.control``.)
PLAYER_ACTIONS = ("play", "pass", "hook", "unhook", "return", "resign")


@dataclass(frozen=True)
class Result:
    """What became of a submitted action: ``ok``, or a rejection ``code`` and ``message``."""

    ok: bool
    code: str = ""
    message: str = ""
    version: int = 0


def load_state(match: Match) -> State:
    """The engine state stored on ``match``."""
    return state_from_json(match.state)


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
    # The table's own notification (games.tables) pushes the first snapshot to every page.
    _after_commit(match, state, timer_changed=True, seats=list(table.seats.all()))
    return match


# --- the one writer -----------------------------------------------------------------------------


def submit(match_id: int, user, payload: dict) -> Result:
    """A person's action from a page: ``{"action", "cards"|"card", "version", "client_id"}``.

    The seat is the user's own seat at the table, never one named in the payload. Returns a
    Result; a rejection changed nothing. ``code`` ``stale`` or ``duplicate`` asks the caller to
    resend a fresh snapshot. Logs one ``game.action`` line (``log_action``).
    """
    started = time.perf_counter()
    seat: list[int] = []  # the user's seat number, once the locked checks found it
    if not isinstance(payload, dict) or payload.get("action") not in PLAYER_ACTIONS:
        result = Result(False, "malformed", "unknown action")
    else:
        client_id = str(payload.get("client_id") or "")[:64]
        try:
            result = _submit_locked(match_id, user, payload, client_id, seat)
        except IntegrityError:  # a move logged twice: the whole transaction rolled back
            result = Result(False, "duplicate", "already applied")
    log_action("game.action", match_id, seat[0] if seat else None, payload, result, started)
    return result


def action_kind(payload: object) -> str:
    """The action a client message names when it is one a person may send, else "unknown":
    a log line never repeats what a client wrote."""
    if isinstance(payload, dict) and payload.get("action") in (
        *PLAYER_ACTIONS,
        *standins.CONTROLS,
    ):
        return payload["action"]
    return "unknown"


def log_action(
    event: str,
    match_id: int | None,
    seat: int | None,
    payload: object,
    result: Result | str,
    started: float,
    **fields: object,
) -> None:
    """Log one line for an action: ``event`` (e.g. ``"game.action"``) with the match id, the
    version the action made (or the match was at when refused), the seat number, the action
    kind (``action_kind``), the outcome (``"ok"`` or the rejection code; or ``result`` itself
    when it is a code) and the milliseconds since ``started`` (a ``time.perf_counter()``),
    plus ``fields``. Never the cards, a hand, the seed or the state (DESIGN.md rule 2)."""
    if isinstance(result, str):
        outcome, version = result, None
    else:
        outcome, version = ("ok" if result.ok else result.code), result.version
    log.info(
        event,
        extra={
            "match": match_id,
            "version": version,
            "seat": seat,
            "action": action_kind(payload),
            "outcome": outcome,
            "ms": round((time.perf_counter() - started) * 1000, 1),
            **fields,
        },
    )


def _submit_locked(
    match_id: int, user, payload: dict, client_id: str, found_seat: list[int]
) -> Result:
    with transaction.atomic():
        match = Match.objects.select_for_update().select_related("table").get(pk=match_id)
        if match.table.status == Table.Status.ABANDONED:
            return Result(False, "abandoned", "this match was stopped", match.version)
        seats = _seats(match)
        seat = next((s for s in seats if s.user_id == user.pk), None)
        if seat is None:
            return Result(False, "not_seated", "you have no seat at this table", match.version)
        found_seat.append(seat.number)
        refused = standins.refusal(seat, payload["action"])  # the AI plays this seat now
        if refused:
            return Result(False, refused, "an AI plays this seat", match.version)
        if client_id and Move.objects.filter(match=match, client_id=client_id).exists():
            return Result(False, "duplicate", "already applied", match.version)
        state = load_state(match)
        try:
            action = action_from_json({**_action_fields(payload), "seat": seat.number})
        except CodecError as e:
            return Result(False, "malformed", str(e), match.version)
        stale = _stale(match, state, action, payload.get("version"))
        if stale:
            return Result(False, "stale", stale, match.version)
        standins.note_own_action(match, seat.number)
        return _apply_and_save(match, state, action, seat.number, client_id, seats)


#: Seats read in the last moments, by (table, revision): the seating changes only with the
#: table's revision (bumped under its lock), so a push needs no query for it. A seat's person
#: (preferences, name) is at most this many seconds old.
SEATS_REUSE_SECONDS = 2.0
_recent_seats: dict[tuple[int, int], tuple[float, list[Seat]]] = {}
_seats_lock = threading.Lock()


def _seats(match: Match) -> list[Seat]:
    """The match's seats with their users, shared by the checks and the push: one query, or
    none when this process read them at the table's current revision a moment ago.
    ``match.table`` must be loaded (it is, with the lock)."""
    key = (match.table_id, match.table.revision)
    now = time.monotonic()
    with _seats_lock:
        read_at, seats = _recent_seats.get(key, (0.0, []))
    if now - read_at < SEATS_REUSE_SECONDS:
        return seats
    seats = list(Seat.objects.filter(table_id=match.table_id).select_related("user"))
    with _seats_lock:
        if len(_recent_seats) > 4096:
            _recent_seats.clear()
        _recent_seats[key] = (now, seats)
    return seats


def _action_fields(payload: dict) -> dict:
    fields = {"type": payload["action"]}
    if payload["action"] == "resign":
        return fields
    if payload["action"] == "return":
        fields["card"] = payload.get("card")
    elif payload["action"] != "pass":
        fields["cards"] = payload.get("cards")
    return fields


def _stale(match: Match, state: State, action, version) -> str:
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


def _apply_and_save(
    match: Match,
    state: State,
    action,
    seat: int | None,
    client_id: str = "",
    seats: list[Seat] | None = None,
) -> Result:
    """Apply ``action`` to the locked ``match`` (loaded with its table), log and save it, and
    push the move after commit. Precondition: the caller holds the match row lock."""
    outcome = engine_apply(state, action)
    if isinstance(outcome, Rejection):
        return Result(False, outcome.code, outcome.message, match.version)
    new = outcome.state
    now = timezone.now()
    # No savepoint: under the match's row lock the sequence and the client id are checked
    # already; should the constraint fire all the same, the caller's transaction rolls back.
    Move.objects.create(
        match=match,
        seq=new.version,
        round_no=state.round_no,
        seat=seat,
        action=action_to_json(action),
        events=list(outcome.events),
        client_id=client_id,
    )
    _record(match, new, outcome.events, now)
    old_token = match.deadline_token
    _set_timer(match, state, new, outcome.events, now)
    match.state = state_to_json(new)
    match.version = new.version
    match.phase = new.phase
    match.round_no = new.round_no
    match.level_team0, match.level_team1 = new.levels
    match.save()
    seats = _seats(match) if seats is None else seats
    _after_commit(
        match,
        new,
        timer_changed=match.deadline_token != old_token,
        seats=seats,
        move=(state, list(outcome.events)),
    )
    return Result(True, version=new.version)


def _record(match: Match, state: State, events, now) -> None:
    """Keep the round and tribute summaries in step with the events (§7–§9)."""
    for event in events:
        kind = event["type"]
        if kind == "round_over":
            Round.objects.filter(match=match, number=state.round_no).update(
                levels_after=[parse_face(x) for x in event["levels"]],
                finish_order=list(state.finished),
                caught=event["caught"],
                winner_team=event["team"],
                ended_at=now,
            )
        elif kind == "match_over":
            match.winner_team = event["winner"]
            match.finished_at = now
            Table.objects.filter(pk=match.table_id).update(status=Table.Status.FINISHED)
        elif kind == "resign":
            # The round ends with the match: the other team takes it, nobody caught. A round
            # already over (a resignation in the pause before the next deal) keeps its result.
            Round.objects.filter(match=match, number=state.round_no, ended_at__isnull=True).update(
                levels_after=list(state.levels),
                finish_order=list(state.finished),
                caught=[],
                winner_team=1 - event["team"],
                ended_at=now,
            )
        elif kind == "deal":
            Round.objects.create(
                match=match,
                number=event["round"],
                level=event["level"],
                levels_before=list(state.levels),
                dealer=event["dealer"],
                leader=state.leader,
            )
        elif kind == "tribute":
            TributeRecord.objects.create(
                match=match,
                round_no=state.round_no,
                payer=event["payer"],
                receiver=event["receiver"],
                card=event["card"],
            )
        elif kind == "return":
            TributeRecord.objects.filter(
                match=match,
                round_no=state.round_no,
                receiver=event["seat"],
            ).update(returned_card=event["card"], returned_at=now)


# --- timers -------------------------------------------------------------------------------------


def _set_timer(match: Match, old: State, new: State, events, now) -> None:
    """Set the one running deadline for the new state (DESIGN.md rule 3).

    Answers inside a window and returns inside a tribute do not move its deadline; everything
    else that changes the state starts a fresh one, identified by the new version.
    """
    options = new.options
    kind, seconds = "", 0.0
    if new.phase == WINDOW:
        if any(e["type"] == "window" for e in events) or old.phase != WINDOW:
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


def _after_commit(
    match: Match,
    state: State,
    timer_changed: bool,
    seats: list[Seat],
    move: tuple[State, list[dict]] | None = None,
) -> None:
    """After commit: push the move to every audience (``move`` = the state before it and its
    events), then schedule the wake-ups (rules 2, 3). A failed push is logged, never raised:
    the move stands, and pages catch up at their next heartbeat."""
    match_id, host_id = match.pk, match.table.host_id
    token, deadline = match.deadline_token, match.deadline

    def send() -> None:
        if move is not None:
            try:
                push.publish_move(match, seats, move[0], state, move[1])
            except Exception:
                log.exception("match %s: push of version %s failed", match_id, state.version)
        if state.phase == MATCH_OVER:
            match_finished.send(sender=Match, match_id=match_id)
        if state.phase == MATCH_OVER or state.phase == ROUND_OVER:
            notify.lobby_changed([host_id, *(s.user_id for s in seats)])
        if not timer_changed or deadline is None:
            return
        from games import tasks

        timers.arm(match_id, token, deadline)  # a superseded deadline costs one ZADD, no task
        delay = max(0.0, (deadline - timezone.now()).total_seconds())
        ai_seats, auto_passers = _seats_acting_for_themselves(seats, state)
        for seat in ai_seats:
            tasks.ai_act.apply_async((match_id, seat, token), countdown=_ai_delay(state, delay))
        for seat in auto_passers:
            tasks.auto_pass.apply_async((match_id, seat, token), countdown=_ai_delay(state, delay))

    transaction.on_commit(send)


def _seats_acting_for_themselves(seats: list[Seat], state: State) -> tuple[list[int], list[int]]:
    """AI seats that may act now, and people who asked to pass every claim window."""
    acting = set(seats_to_act(state))
    ai = [s.number for s in seats if s.number in acting and s.ai_policy]
    passers = []
    if state.phase == WINDOW:
        passers = [
            s.number
            for s in seats
            if s.number in acting and not s.ai_policy and s.user_id and s.user.auto_pass_hooks
        ]
    return ai, passers


def _ai_delay(state: State, deadline_in: float) -> float:
    """A short, card-independent pause before an AI seat acts (DESIGN.md rule 4)."""
    base = settings.GAMES_AI_DELAY_SECONDS * random.uniform(0.7, 1.3)
    if state.phase == WINDOW:
        return min(base, deadline_in * 0.5)
    return min(base, deadline_in)


def expire(match_id: int, token: int) -> bool:
    """The timer set with ``token`` rang: apply the timeout (or deal the next round) if the
    match is still waiting on that very deadline. Returns whether anything was applied."""
    with transaction.atomic():
        match = (
            Match.objects.select_for_update().select_related("table").filter(pk=match_id).first()
        )
        if match is None or match.deadline_token != token or match.deadline is None:
            return False
        if match.deadline > timezone.now() + timedelta(milliseconds=50):
            return False  # woke early (clock skew): the sweep or a later task will catch it
        state = load_state(match)
        action = NextRound() if state.phase == ROUND_OVER else Timeout()
        standins.note_timeout(match, state)  # may hand an away person's seat to the stand-in
        return _apply_and_save(match, state, action, None).ok


def ai_act(match_id: int, seat: int, token: int) -> bool:
    """An AI seat acts, if the match is still at the moment (token) it was asked to act in:
    ``ai_decide``, then, after its ``ai_players.answer_pause`` (slept here), ``ai_apply``.
    Returns whether the action was applied. The worker's task does the same without sleeping
    (``games.tasks.ai_act``: the answer is a countdown task of its own)."""
    decided = ai_decide(match_id, seat, token)
    if decided is None:
        return False
    action, pause = decided
    if pause:
        time.sleep(pause)
    return ai_apply(match_id, seat, token, action)


def ai_decide(match_id: int, seat: int, token: int) -> tuple[object, float] | None:
    """What AI seat ``seat`` plays at the moment ``token``, and the pause (seconds) before it
    may be applied (``ai_players.answer_pause``: in a claim window the expert answers a fixed
    time after it started thinking, whatever it holds, RULES.md §6.4). None when the match has
    moved on, the seat may not act, or no AI plays it.

    It decides outside the row lock: the expert searches for up to its time budget, and
    nobody's move should wait behind that."""
    match = Match.objects.select_related("table").filter(pk=match_id).first()
    if match is None or match.deadline_token != token:
        return None
    state = load_state(match)
    if seat not in seats_to_act(state):
        return None
    ai = next((s for s in _seats(match) if s.number == seat), None)
    if ai is None or not ai.ai_policy:
        return None
    left = (match.deadline - timezone.now()).total_seconds() if match.deadline else None
    return ai_players.decide(state, seat, ai.ai_policy, match.seed, left)


def ai_apply(match_id: int, seat: int, token: int, action) -> bool:
    """Apply AI seat ``seat``'s decided ``action`` under the row lock, only if the token still
    holds, the action is still legal for the seat (other seats' answers to the same window may
    have come meanwhile) and an AI still plays the seat (its person may have taken it back).
    Returns whether it was applied."""
    with transaction.atomic():
        match = (
            Match.objects.select_for_update().select_related("table").filter(pk=match_id).first()
        )
        if match is None or match.deadline_token != token:
            return False
        state = load_state(match)
        if seat not in seats_to_act(state) or action not in legal_actions(state, seat):
            return False
        seats = _seats(match)  # at the locked revision: its person may have taken it back
        if not any(s.number == seat and s.ai_policy for s in seats):
            return False
        return _apply_and_save(match, state, action, seat, seats=seats).ok


def auto_pass(match_id: int, seat: int, token: int) -> bool:
    """Pass the open window for a person who asked for it (``auto_pass_hooks``). It runs after
    the same pause as an AI's answer and never looks at the hand (DESIGN.md rule 4)."""
    with transaction.atomic():
        match = (
            Match.objects.select_for_update().select_related("table").filter(pk=match_id).first()
        )
        if match is None or match.deadline_token != token:
            return False
        state = load_state(match)
        if state.phase != WINDOW or seat not in seats_to_act(state):
            return False
        return _apply_and_save(match, state, Pass(seat), seat).ok


def sweep_overdue(grace_seconds: float = 2.0) -> int:
    """Apply every deadline overdue by more than ``grace_seconds`` (timers lost to a crash).

    Returns how many matches moved.
    """
    cutoff = timezone.now() - timedelta(seconds=grace_seconds)
    moved = 0
    overdue = Match.objects.filter(deadline__lt=cutoff, winner_team__isnull=True)
    for match_id, token in overdue.values_list("pk", "deadline_token"):
        moved += expire(match_id, token)
    return moved


#: Who ``sweep_lost_decisions`` acts for: AI seats (run on the AI queue: an expert searches) or
#: people's auto-passes (on the main queue: no search).
LOST_DECISIONS = ("ai", "auto_pass")


def sweep_lost_decisions(grace_seconds: float = 2.0, who: str = "ai") -> int:
    """Make the AI moves (``who="ai"``) or the auto-passes (``who="auto_pass"``) whose
    ``ai_act``/``auto_pass`` task was lost. Raises ValueError for another ``who``.

    Those are countdown tasks held by the worker until they are due: a worker killed meanwhile
    (or a broker restart) loses them, and the seat would wait for its deadline and be timed out
    instead of deciding. A decision counts as lost once the moment that asked for it (the move
    that set the running token, or the match's start) is older than the longest AI pause
    (``GAMES_AI_DELAY_SECONDS`` + 30%) plus ``grace_seconds``. Each such seat acts through
    ``ai_act``/``auto_pass``, which re-check the token and that the seat is still to act under
    the row lock: a decision the lost task (or another sweep) made meanwhile is never made twice.

    The two are swept apart so that the AI's catch-up runs in the AI worker (``tasks.sweep_ai``)
    and never holds the main worker's deadlines back; a person's auto-pass is made by the main
    worker (``tasks.sweep``) even when the AI worker is down.

    Returns how many seats acted.
    """
    if who not in LOST_DECISIONS:
        raise ValueError(f"who must be one of {LOST_DECISIONS}, not {who!r}")
    pause = settings.GAMES_AI_DELAY_SECONDS * 1.3
    cutoff = timezone.now() - timedelta(seconds=pause + grace_seconds)
    asked_at = Coalesce(
        Subquery(
            Move.objects.filter(match=OuterRef("pk"), seq=OuterRef("deadline_token")).values(
                "created_at"
            )[:1]
        ),
        F("started_at"),
    )
    acting_for_themselves = Seat.objects.filter(table=OuterRef("table_id")).filter(
        Q(ai_policy__gt="") if who == "ai" else Q(user__auto_pass_hooks=True)
    )
    waiting = (
        Match.objects.filter(
            winner_team__isnull=True, deadline__isnull=False, phase__in=(PLAY, WINDOW, TRIBUTE)
        )
        .filter(Exists(acting_for_themselves))
        .annotate(asked_at=asked_at)
        .filter(asked_at__lt=cutoff)
        .only("pk", "table_id", "deadline_token", "state")
    )
    acted = 0
    for match in waiting.iterator(chunk_size=200):
        state = load_state(match)  # unlocked: only to skip a person's turn without a lock
        seats = list(Seat.objects.filter(table_id=match.table_id).select_related("user"))
        ai_seats, auto_passers = _seats_acting_for_themselves(seats, state)
        token = match.deadline_token
        if who == "ai":
            acted += sum(ai_act(match.pk, seat, token) for seat in ai_seats)
        else:
            acted += sum(auto_pass(match.pk, seat, token) for seat in auto_passers)
    return acted
