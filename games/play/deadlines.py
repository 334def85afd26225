"""What happens when a moment comes: a deadline rings, an AI seat or an auto-passer acts, or a
sweep finds one of those lost (DESIGN.md rules 3 and 4).

Each entry point takes the ``token`` its wake-up was set for (``Match.deadline_token``) and
re-checks it under the row lock, so a wake-up that arrives twice, early or late changes
nothing. The changes themselves go through the writer (``services.apply_locked``), which also
judges the deadline: a timer applies it only once it has passed, an AI seat's decision or an
auto-pass that comes after it is not applied (the deadline's transition is made instead), and a
person's late action has already made the writer apply it, so the late timer finds nothing.
"""

from __future__ import annotations

import json
import time
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, F, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from games.engine import Pass, legal_actions
from games.engine.actions import Action
from games.engine.codec import action_from_json, action_to_json
from games.engine.rules import seats_to_act
from games.engine.state import PLAY, TRIBUTE, WINDOW, State
from games.live import redis_store
from games.live.replay import load_state
from games.models import Match, Move, Seat
from games.play import after_commit, ai_turns, services, unattended, wakeups

#: A timer that rings at most this early (seconds; clocks of two hosts a little apart) waits
#: out the rest: the deadline, not the ring, decides (DESIGN.md rule 3). Earlier, it is left to
#: the sweep.
EARLY_RING_SECONDS = 0.05


def expire(match_id: int, token: int) -> bool:
    """The timer set with ``token`` rang: apply the deadline (``services.apply_deadline_locked``:
    the timeout, or dealing the next round) if the match still waits on that very deadline and
    it has passed. Returns whether anything was applied: False when a late action already made
    the writer apply it (the token moved on), or the match moved past it otherwise."""
    for _ in range(2):
        with transaction.atomic():
            match = (
                Match.objects.select_for_update()
                .select_related("table")
                .filter(pk=match_id)
                .first()
            )
            if match is None or match.deadline_token != token or match.deadline is None:
                return False
            now = services.writer_now()
            if services.deadline_passed(match, now):
                return services.apply_deadline_locked(match, load_state(match), now).ok
            early = (match.deadline - now).total_seconds()
        if early > EARLY_RING_SECONDS:
            return False  # woke early (clock skew): the sweep or a later task will catch it
        time.sleep(early)  # outside the lock: an answer in these last moments still counts
    return False


def ai_act(match_id: int, seat: int, token: int) -> bool:
    """An AI seat's moment ``token`` came: it decides (``ai_decide``: an expert searches) and
    acts if the match is still where it was. A claim-window answer that must wait its fixed
    pause (RULES.md §6.4) is kept aside (``keep_answer``: Redis, keyed by match, seat and token)
    and its wake-up (``wakeups.ai_answer``, which carries those three numbers and never the
    action) applies it once the pause is over, rather than slept here: a sleep would hold a
    worker process for most of the expert's budget. The worker's ``ai_act`` task and the sweep
    both come here. Returns whether it acted or kept the answer for later."""
    decided = ai_decide(match_id, seat, token)
    if decided is None:
        return False
    action, pause = decided
    if pause > 0:
        keep_answer(match_id, seat, token, action, pause)
        wakeups.ai_answer(match_id, seat, token, pause)
        return True
    return ai_apply(match_id, seat, token, action)


#: How long a kept answer outlives its pause (seconds): its wake-up is a countdown task that a
#: busy worker may run late; one never run leaves nothing behind for longer than this.
ANSWER_SPARE_SECONDS = 120


def _answer_key(match_id: int, seat: int, token: int) -> str:
    return redis_store.key("ai-answer", match_id, seat, token)


def keep_answer(match_id: int, seat: int, token: int, action: Action, pause: float) -> None:
    """Keep AI seat ``seat``'s decided window ``action`` for the moment ``token`` until its
    ``ai_answer`` wake-up takes it (``take_answer``), ``pause`` seconds from now. The action
    (its cards, not public until it is played) stays in Redis, where no log line, task argument
    or error report reads it (DESIGN.md rule 2; issue 17 item 4)."""
    ttl = max(1, round(pause + ANSWER_SPARE_SECONDS))
    redis_store.client().set(
        _answer_key(match_id, seat, token), json.dumps(action_to_json(action)), ex=ttl
    )


def take_answer(match_id: int, seat: int, token: int) -> Action | None:
    """The answer ``keep_answer`` kept for AI seat ``seat`` at the moment ``token``, removed
    (a wake-up delivered twice finds it once), or None when there is none (taken already, or
    lost with Redis: the AI sweep then decides the seat again while the window is open)."""
    raw = redis_store.client().getdel(_answer_key(match_id, seat, token))
    return None if raw is None else action_from_json(json.loads(raw))


def ai_answer(match_id: int, seat: int, token: int) -> bool:
    """The pause of AI seat ``seat``'s window answer at the moment ``token`` is over: apply the
    answer kept for it (``take_answer``, ``ai_apply``). Returns whether it was applied."""
    action = take_answer(match_id, seat, token)
    if action is None:
        return False
    return ai_apply(match_id, seat, token, action)


def ai_decide(match_id: int, seat: int, token: int) -> tuple[Action, float] | None:
    """What AI seat ``seat`` plays at the moment ``token``, and the pause (seconds) before it
    may be applied (``ai_turns.answer_pause``: in a claim window the expert answers a fixed
    time after it started thinking, whatever it holds, RULES.md §6.4). None when the match has
    moved on, the seat may not act, no AI plays it, or the match was stopped instead: nobody
    has been at its casual table for a while (``unattended.stop_if_due``).

    It decides outside the row lock: the expert searches for up to its time budget, and
    nobody's move should wait behind that."""
    match = Match.objects.select_related("table").filter(pk=match_id).first()
    if match is None or match.deadline_token != token:
        return None
    state = load_state(match)
    if seat not in seats_to_act(state):
        return None
    seats = services.seats_of(match)
    ai = next((s for s in seats if s.number == seat), None)
    if ai is None or not ai.ai_policy:
        return None
    if unattended.stop_if_due(match, seats, token):
        return None
    left = (match.deadline - timezone.now()).total_seconds() if match.deadline else None
    return ai_turns.decide(state, seat, ai.ai_policy, match.seed, left)


def ai_apply(match_id: int, seat: int, token: int, action: Action) -> bool:
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
        if _late(match, state):
            return False  # decided too late: the deadline's own transition was made instead
        if seat not in seats_to_act(state) or action not in legal_actions(state, seat):
            return False
        seats = services.seats_of(
            match
        )  # at the locked revision: its person may have taken it back
        if not any(s.number == seat and s.ai_policy for s in seats):
            return False
        return services.apply_locked(match, state, action, seat, seats=seats, by_ai=True).ok


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
        if _late(match, state):
            return False  # the window's deadline passed first: it was closed instead
        if state.phase != WINDOW or seat not in seats_to_act(state):
            return False
        return services.apply_locked(match, state, Pass(seat), seat).ok


def _late(match: Match, state: State) -> bool:
    """Whether the locked ``match``'s deadline has passed; if so, its transition is made now
    (``services.apply_deadline_locked``), as for a person's late action: an AI seat's or a
    stand-in's decision, or an auto-pass, that comes after the deadline is not applied."""
    now = services.writer_now()
    if not services.deadline_passed(match, now):
        return False
    services.apply_deadline_locked(match, state, now)
    return True


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
        ai_seats, auto_passers = after_commit.seats_acting_for_themselves(seats, state)
        token = match.deadline_token
        if who == "ai":
            acted += sum(ai_act(match.pk, seat, token) for seat in ai_seats)
        else:
            acted += sum(auto_pass(match.pk, seat, token) for seat in auto_passers)
    return acted
