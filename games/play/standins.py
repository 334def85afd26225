"""An AI stand-in for a person who is away, and leaving a running match (issue #10 item 1).

A person's seat is played by an AI — its *stand-in* — while they are away: once the clock has
made ``threshold()`` of their decisions in a row (turns and tribute returns; a claim window is not
counted: answering one is optional, and letting it close is the pass anyone may make, §6.3), or
when they ask for it ("Let the AI play for me"). They take the seat back in one click ("I'm
back"). Leaving for good hands the seat to the stand-in for the rest of the match; only at a
casual table (at a rated one the seat stays its player's: they may resign instead, which is the
engine's ``Resign`` through ``services.submit``). The last person to leave stops the match
instead, in the same transaction, unless an organiser schedules the table; and stand-ins that
have played with nobody there for a while stop it too (both: ``games.play.unattended``).

The seat keeps its person: ``Seat.stand_in`` says why the AI plays and ``Seat.ai_policy`` holds
the stand-in's policy (``policy_name``), so the worker plays the seat as it plays any AI seat,
from that seat's ``View`` only (``games.play.ai_turns``). A change of hands is a seating change: it
bumps the table's revision under the row lock the writer holds (its ``select_for_update`` joins
the table) and, after commit, every page gets a full snapshot (``seating.changed``): the
seat's marker for everyone, the banner on the person's own page. ``Seat.stand_in_seq`` counts
the changes; a request names the one it answers, so a resent or outdated request changes
nothing (DESIGN.md rule 1).

Requests: ``{"action": "stand_in"|"back"|"leave", "stand_in_seq": n, "client_id"}`` from the
table socket (``games.sockets.consumers``) or a form (``games.views``), both through ``control``.
"""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from games.engine.ai import RATED_STAND_IN, STAND_IN
from games.engine.rules import seats_to_act
from games.engine.state import PLAY, TRIBUTE, State
from games.live.replay import load_state
from games.models import Match, Seat, Table
from games.play import seating, unattended, wakeups
from games.play.outcomes import CONTROLS, Result, form_number, log_action


def threshold() -> int:
    """Decisions in a row the clock makes for a person before the stand-in takes their seat
    (``GAMES_STAND_IN_AFTER_TIMEOUTS``, default 2; 0 or less: never)."""
    return settings.GAMES_STAND_IN_AFTER_TIMEOUTS


def policy_name(rated: bool = False) -> str:
    """The stand-in's AI difficulty, from the engine's registry: ``STAND_IN`` (the strongest);
    at a ``rated`` table ``RATED_STAND_IN`` (the casual one): handing a seat to the AI (asked, or
    by timing out on purpose) must never be a way to a better rating."""
    return RATED_STAND_IN if rated else STAND_IN


# --- inside the writer's transaction (games.play.services) ----------------------------------------


def note_timeout(match: Match, state: State) -> list[int]:
    """The clock is about to decide for the seats ``state`` waits on: count one more timeout
    in a row for the seat to play, or for each tribute receiver still to return (nothing for
    a claim window or a round's end), and hand every person's seat that reaches
    ``threshold()`` to the stand-in. Returns the seat numbers handed over.

    Precondition: the caller holds the match row lock (its table's too) and saves the match
    (``timeouts_in_row`` changed on it).
    """
    if state.phase == PLAY:
        timed = [state.turn] if state.turn is not None else []  # (in play it always is)
    elif state.phase == TRIBUTE:
        timed = seats_to_act(state)
    else:
        return []
    counts = counts_of(match, state.players)
    for number in timed:
        counts[number] += 1
    match.timeouts_in_row = counts
    limit = threshold()
    due = [number for number in timed if counts[number] >= limit] if limit > 0 else []
    if not due:
        return []
    seats = list(
        Seat.objects.select_for_update().filter(
            table_id=match.table_id, number__in=due, user__isnull=False, ai_policy=""
        )
    )
    for seat in seats:
        _hand_over(seat, Seat.StandIn.AWAY, match.table.rated)
    if seats:
        seating.changed(match.table)
    return [seat.number for seat in seats]


def note_own_action(match: Match, number: int) -> None:
    """The person at seat ``number`` acted themselves: their timeouts in a row start again
    from 0 (saved with the match, if the action is taken)."""
    counts = match.timeouts_in_row or []
    if number < len(counts) and counts[number]:
        counts = list(counts)
        counts[number] = 0
        match.timeouts_in_row = counts


def refusal(seat: Seat, action: str) -> str:
    """Why the seat's person may not send ``action`` now, as a refusal code, or "": a seat
    its person left takes nothing more from them; while the stand-in plays, only a
    resignation (``I'm back`` comes first, through ``control``)."""
    if seat.stand_in == Seat.StandIn.LEFT:
        return "left"
    if seat.stand_in and action != "resign":
        return "stand_in"
    return ""


def counts_of(match: Match, players: int) -> list[int]:
    """``Match.timeouts_in_row`` as a list of one count per seat."""
    counts = list(match.timeouts_in_row or [])
    return (counts + [0] * players)[:players]


# --- a person's requests ------------------------------------------------------------------------


def control(match_id: int, user: User, payload: object) -> Result:
    """A seated person's request: ``stand_in`` (the AI plays for me), ``back`` (I'm back),
    ``leave`` (for good; casual tables only). ``payload["stand_in_seq"]`` is the seat's
    ``stand_in_seq`` the page showed (an int, or a string of digits from a form).

    Returns an ``outcomes.Result``: refusal codes ``malformed``, ``not_seated``, ``abandoned``,
    ``match_over``, ``stale`` (the seat changed hands since: answer with a snapshot),
    ``stand_in`` (the AI already plays), ``not_stood_in``, ``left`` (the person left; no way
    back), ``leave_rated``. A refusal changed nothing. A ``leave`` that leaves nobody holding a
    seat at a casual table also stops the match (``unattended.stop_if_everyone_left``): it is
    answered as any leave, and every page gets the stopped table. Logs one ``game.control``
    line.
    """
    started = time.perf_counter()
    found: list[int] = []
    kind = payload.get("action") if isinstance(payload, dict) else None
    if kind not in CONTROLS or not isinstance(payload, dict):  # (the second: for mypy)
        result = Result(False, "malformed", "unknown request")
    else:
        result = _control_locked(match_id, user, payload, kind, found)
    log_action("game.control", match_id, found[0] if found else None, payload, result, started)
    return result


def _control_locked(
    match_id: int, user: User, payload: dict[str, Any], kind: str, found: list[int]
) -> Result:
    seq = payload.get("stand_in_seq")
    if isinstance(seq, str):
        seq = form_number(seq)
    with transaction.atomic():
        match = (
            Match.objects.select_for_update().select_related("table").filter(pk=match_id).first()
        )
        if match is None:
            return Result(False, "malformed", "no such match")
        if match.table.status == Table.Status.ABANDONED:
            return Result(False, "abandoned", "this match was stopped", match.version)
        if match.is_over:
            return Result(False, "match_over", "the match is over", match.version)
        seat = (
            Seat.objects.select_for_update()
            .filter(table_id=match.table_id, user_id=user.pk)
            .first()
        )
        if seat is None:
            return Result(False, "not_seated", "you have no seat at this table", match.version)
        found.append(seat.number)
        if type(seq) is not int:
            return Result(False, "malformed", "the request names no stand_in_seq", match.version)
        if seq != seat.stand_in_seq:
            return Result(False, "stale", "the seat changed hands since", match.version)
        if seat.stand_in == Seat.StandIn.LEFT:
            return Result(False, "left", "you left this match", match.version)
        if kind == "back":
            if not seat.stand_in:
                return Result(False, "not_stood_in", "you play your seat", match.version)
            _take_back(seat)
            note_own_action(match, seat.number)
            match.save(update_fields=["timeouts_in_row"])
        elif kind == "stand_in":
            if seat.stand_in:
                return Result(False, "stand_in", "the AI already plays for you", match.version)
            _hand_over(seat, Seat.StandIn.ASKED, match.table.rated)
        else:
            if match.table.rated:
                return Result(
                    False, "leave_rated", "a rated table's seat stays yours", match.version
                )
            _hand_over(seat, Seat.StandIn.LEFT, match.table.rated)
            if unattended.stop_if_everyone_left(match):  # the last person: nobody to play for
                return Result(True, version=match.version)
        seating.changed(match.table)
        if seat.ai_policy:
            _wake(match, seat.number)
    return Result(True, version=match.version)


# --- changing hands -----------------------------------------------------------------------------


def _hand_over(seat: Seat, reason: str, rated: bool) -> None:
    seat.stand_in = reason
    seat.ai_policy = policy_name(rated)
    seat.stand_in_seq += 1
    seat.save(update_fields=["stand_in", "ai_policy", "stand_in_seq"])


def _take_back(seat: Seat) -> None:
    seat.stand_in = ""
    seat.ai_policy = ""
    seat.stand_in_seq += 1
    seat.save(update_fields=["stand_in", "ai_policy", "stand_in_seq"])


def _wake(match: Match, number: int) -> None:
    """The stand-in now holds a seat that may have to act at once: ask it, after commit, with
    the running timer's token, after the usual AI pause (the token guards it, DESIGN.md rule 3)."""
    state = load_state(match)
    if number not in seats_to_act(state) or match.deadline is None:
        return
    match_id, token = match.pk, match.deadline_token
    left = max(0.0, (match.deadline - timezone.now()).total_seconds())
    pause = min(settings.GAMES_AI_DELAY_SECONDS, left * 0.5)

    transaction.on_commit(lambda: wakeups.ai_seat(match_id, number, token, pause))
