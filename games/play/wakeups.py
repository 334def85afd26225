"""Every piece of later work the games app asks Celery for, in one place (DESIGN.md rule 3).

A wake-up is a Celery task sent by name, after the commit that made it due: an AI seat's
decision (``ai_act``), a person's auto-pass (``auto_pass``), an AI's decided window answer after
its fixed pause (``ai_answer``: the answer waits in Redis, the task names only its moment), a
rematch's answer time (``rematch_expire``), a delayed table's spectators' view moving on
(``advance``), and the clock's ring and re-arm (``expire``, ``rearm``). A task's arguments are
ints (ids, tokens, versions): never a card, a hand or an action (DESIGN.md rule 2). Sending by
name keeps the rooms one-way: the tasks (``games.tasks``) call into ``games.play`` and
``games.live``; nothing there imports the tasks back.

Each task re-checks under the row lock that its moment is still the match's (a token, a
version), so a wake-up that arrives twice, early or late changes nothing; one lost with a worker
or a broker is made by the beat's sweeps (``games.tasks.sweep``, ``sweep_ai``, ``sweep_delayed``).

Routing (which queue takes which task) is ``settings.CELERY_TASK_ROUTES``'s: ``ai_act`` and
``sweep_ai`` go to the AI worker, ``review_round`` and ``sweep_reviews`` to the review worker,
the rest to the main worker.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Iterable
from datetime import datetime

from celery import current_app
from django.conf import settings
from django.utils import timezone

from games.engine.state import WINDOW, State

log = logging.getLogger(__name__)

#: The Celery names of the tasks in ``games.tasks`` (their module's path and function name).
AI_ACT = "games.tasks.ai_act"
AI_ANSWER = "games.tasks.ai_answer"
AUTO_PASS = "games.tasks.auto_pass"
EXPIRE = "games.tasks.expire"
REARM = "games.tasks.rearm"
REMATCH_EXPIRE = "games.tasks.rematch_expire"
ADVANCE = "games.tasks.advance"
REVIEW_ROUND = "games.tasks.review_round"


def _send(name: str, args: tuple[int, ...], countdown: float = 0.0) -> None:
    """Send task ``name`` with ``args`` to run ``countdown`` seconds from now (>= 0).

    A task's arguments are ids, tokens and versions, never a card, a hand or an action: Celery
    writes them into the broker and, at INFO, into every "received" and "succeeded" line (and
    ``config.celery`` keeps them out of those lines too). Raises TypeError for anything else."""
    if not all(type(arg) is int for arg in args):
        raise TypeError(f"{name}: a wake-up's arguments are ints (ids, tokens, versions)")
    current_app.send_task(name, args=args, countdown=max(0.0, countdown))


def ai_pause(state: State, deadline_in: float) -> float:
    """A short, card-independent pause before an AI seat (or an auto-pass) acts, in seconds
    (DESIGN.md rule 4): ``GAMES_AI_DELAY_SECONDS`` ±30%, at most half of a claim window's
    remaining ``deadline_in`` seconds and at most all of a turn's."""
    base = settings.GAMES_AI_DELAY_SECONDS * random.uniform(0.7, 1.3)
    if state.phase == WINDOW:
        return min(base, deadline_in * 0.5)
    return min(base, deadline_in)


def ai_seat(match_id: int, seat: int, token: int, countdown: float) -> None:
    """Seat ``seat`` (an AI, or a person's stand-in) decides at the match's moment ``token``."""
    _send(AI_ACT, (match_id, seat, token), countdown)


def ai_answer(match_id: int, seat: int, token: int, countdown: float) -> None:
    """An AI's decided claim-window answer, kept aside (``deadlines.keep_answer``), is applied
    once its fixed pause (RULES.md §6.4) of ``countdown`` seconds is over. The task names the
    moment, not the answer: its cards are not public until it is played."""
    _send(AI_ANSWER, (match_id, seat, token), countdown)


def auto_pass(match_id: int, seat: int, token: int, countdown: float) -> None:
    """A person who passes every claim window (their preference) passes this one."""
    _send(AUTO_PASS, (match_id, seat, token), countdown)


def seats_acting_for_themselves(
    match_id: int,
    token: int,
    deadline: datetime,
    state: State,
    ai_seats: Iterable[int],
    auto_passers: Iterable[int],
) -> None:
    """Wake each AI seat and each auto-passer of ``match_id`` at its moment ``token``, after
    ``ai_pause`` (the running deadline ``deadline`` bounds it)."""
    deadline_in = max(0.0, (deadline - timezone.now()).total_seconds())
    for seat in ai_seats:
        ai_seat(match_id, seat, token, ai_pause(state, deadline_in))
    for seat in auto_passers:
        auto_pass(match_id, seat, token, ai_pause(state, deadline_in))


def expire(match_id: int, token: int) -> None:
    """The clock rang the deadline armed with ``token``: apply it in the worker's pool."""
    _send(EXPIRE, (match_id, token))


def rearm() -> None:
    """Arm the clock again from the database (a clock started, or Redis lost the set)."""
    _send(REARM, ())


def rematch_expire(rematch_id: int, countdown: float) -> None:
    """A rematch's answer time ends in ``countdown`` seconds."""
    _send(REMATCH_EXPIRE, (rematch_id,), countdown)


def delayed_view(match_id: int, due: datetime | None) -> None:
    """A delayed table's spectators' view (``games.live.delay``) is due to move on at ``due``
    (None: nothing to arm). A broker that is away is logged, not raised: the sweep moves the
    view once it is overdue."""
    if due is None:
        return
    try:
        _send(ADVANCE, (match_id,), (due - timezone.now()).total_seconds())
    except Exception:
        log.warning("match %s: could not arm the spectators' view", match_id, exc_info=True)


def review_round(match_id: int, round_no: int) -> None:
    """Round ``round_no`` of ``match_id`` is over: the review worker reviews its people's seats
    (issue 20). A broker that is away is logged, not raised: the review sweep makes it."""
    try:
        _send(REVIEW_ROUND, (match_id, round_no))
    except Exception:
        log.warning("match %s: could not ask for round %s's review", match_id, round_no,
                    exc_info=True)  # fmt: skip
