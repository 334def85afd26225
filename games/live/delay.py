"""The spectator delay's clockwork: when the spectators' view of a delayed table moves on.

A table's ``spectator_delay`` (N plays) keeps its spectators — everyone without a seat there:
its host if not seated, staff, strangers — at least N plays behind the live table, on every page
that shows the match: the table and its pushes, the lobby's rows, profiles, match lists, the
record, the replay and the export. Their view is one ``DelayedView`` row per match: the version
shown, that moment's round and levels, and the winner once the view reaches the end (a finished
match stays "live" for them until then).

The view moves at the pace the plays were made, not when live plays happen (a push on each live
move would time the live table): move k is shown at ``t_k + lag``, t_k being when it was played.
``lag`` starts at 0 and only grows: when move k could not be shown at ``t_k + lag`` because the
N plays after it were not made yet (live play slower than ever at this table), the view waits for
the N-th play and ``lag`` becomes ``LAG_HEADROOM`` times the time those N plays took. So the view
is always N plays or more behind, and once the lag has settled its pushes follow the old moves'
own rhythm; only a new slowest stretch of the live table says anything about its timing.

What the view shows to whom is ``games.live.visibility``'s; this module moves it.

Wake-ups (DESIGN.md rule 3): after a live move (``note_move``, from the writer's after-commit
step) and after each step (``advance``) the step returned says when the next one is ``due``, and
the caller arms it (``games.play.wakeups.delayed_view``, a countdown task ``tasks.advance``), at
most one at a time per match (``DelayedView.due_at``): the cost is per table, not per socket,
and only delayed tables pay it. A step re-checks everything under the row lock, so a duplicate or
early task changes nothing; the beat sweep (``sweep_overdue``) moves views whose wake-up was lost.

The result of a delayed match becomes public when the view reaches the end (docs/ACCESS.md): the
step that gets there sends ``games.signals.match_finished`` again, after its commit, and the
receivers that publish something (statistics and the site rating, league results) count it then
— they skip it while ``visibility.result_public`` is false, so the writer's own signal at the
live end counts nothing at a delayed table. A signal lost to a crash is caught up by their
beats (``games.tasks.catch_up_player_stats``, ``leagues.tasks.catch_up_results``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from games.live import notify, push, replay
from games.live.visibility import is_delayed, live, summary
from games.models import DelayedView, Match, Move
from games.signals import match_finished

log = logging.getLogger(__name__)

#: When the view had to wait for the live table, the lag becomes this many times the time the
#: N plays took, so a steady table's next steps fall between its live plays.
LAG_HEADROOM = 1.25
#: An armed wake-up this many seconds overdue counts as lost (the sweep and the next live move
#: step the view themselves).
LOST_AFTER_SECONDS = 2.0

# --- moving the view ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """What one call did: the view went from version ``old`` to ``new``; the next wake-up is
    ``due`` (None: nothing to arm); ``changed``: round, levels or result moved; ``revealed``:
    the view reached the end now (the result became public)."""

    old: int
    new: int
    due: datetime | None
    changed: bool
    revealed: bool = False


def note_move(match: Match, now: datetime | None = None) -> Step | None:
    """A move of ``match`` (its table loaded) committed: step its spectators' view if the next
    move may now be shown, and say when the next is due. None when the table has no delay or a
    wake-up is armed already. Call it after the commit; the caller arms ``Step.due``."""
    if not is_delayed(match.table):
        return None
    return _run(match.pk, now or timezone.now(), live_move=True)


def advance(match_id: int, now: datetime | None = None) -> Step | None:
    """A wake-up rang: show every move that is due by ``now``; the caller arms ``Step.due``.
    None if the match or its view is gone."""
    return _run(match_id, now or timezone.now(), live_move=False)


def sweep_overdue(
    now: datetime | None = None, arm: Callable[[int, datetime | None], object] = lambda *_: None
) -> int:
    """Step every view whose wake-up is ``LOST_AFTER_SECONDS`` overdue (a task lost to a
    crash), and ``arm(match_id, due)`` each one's next wake-up. Returns how many views moved."""
    now = now or timezone.now()
    lost = DelayedView.objects.filter(due_at__lt=now - timedelta(seconds=LOST_AFTER_SECONDS))
    moved = 0
    for match_id in lost.values_list("match_id", flat=True):
        step = advance(match_id, now)
        if step is not None:
            arm(match_id, step.due)
        moved += bool(step and step.new > step.old)
    return moved


def _run(match_id: int, now: datetime, live_move: bool) -> Step | None:
    with transaction.atomic():
        match = Match.objects.select_related("table").filter(pk=match_id).first()
        if match is None or not is_delayed(match.table):
            return None
        view = _locked_view(match)
        if view is None:
            return None
        if (
            live_move
            and view.due_at is not None
            and (view.due_at > now - timedelta(seconds=LOST_AFTER_SECONDS))
        ):
            return None  # the armed wake-up will step the view
        step = _step(view, match, now, live_move)
    if step.new > step.old:
        _publish(match_id, step)
    if step.revealed:
        _reveal(match_id)
    return step


def _locked_view(match: Match) -> DelayedView | None:
    DelayedView.objects.get_or_create(match=match)
    return DelayedView.objects.select_for_update().filter(match=match).first()


def _step(view: DelayedView, match: Match, now: datetime, live_move: bool) -> Step:
    """Move ``view`` (locked) to the last move due at ``now``; arm the next (see the module)."""
    table = match.table
    allowed = match.version if match.is_over else match.version - table.spectator_delay
    times = dict(
        Move.objects.filter(match=match, seq__gt=view.version, seq__lte=allowed)
        .order_by("seq")
        .values_list("seq", "created_at")
    )
    lag = timedelta(seconds=view.lag_seconds)
    following = times.get(view.version + 1)
    if live_move and view.due_at is None and following is not None and following + lag <= now:
        # The view waited for the live table: it grows, and shows that move a little later.
        view.lag_seconds = LAG_HEADROOM * (now - following).total_seconds()
        lag = timedelta(seconds=view.lag_seconds)
    target = view.version
    for seq in sorted(times):
        if times[seq] + lag > now:
            break
        target = seq
    old, changed, hidden = view.version, False, view.winner_team is None
    if target > old:
        # At the live version the match row says it all (and the end shows even when the log
        # does not replay: the result would otherwise never become public).
        at_end = target == match.version
        shown = live(match) if at_end else summary(match, replay.state_or_deal(match, target))
        changed = (shown.round_no, shown.levels, shown.winner_team) != (
            view.round_no,
            (view.level_team0, view.level_team1),
            view.winner_team,
        )
        view.version, view.round_no = shown.version, shown.round_no
        view.level_team0, view.level_team1 = shown.levels
        view.winner_team = shown.winner_team
    following = times.get(target + 1)
    view.due_at = following + lag if following is not None else None
    view.save()
    return Step(old, target, view.due_at, changed, hidden and view.winner_team is not None)


def _publish(match_id: int, step: Step) -> None:
    try:
        table_id, host_id = push.publish_watched(match_id, step.old, step.new)
        if step.changed:
            notify.lobby_changed([host_id])  # the lobby's rows show the view's round and levels
    except Exception:
        log.exception("match %s: push of the spectators' version %s failed", match_id, step.new)


def _reveal(match_id: int) -> None:
    """The view reached the end: the result is public now, and what follows from it is counted
    (``match_finished``: statistics, ratings, league results; their receivers never raise).
    Lost with a crash before this line, their catch-up beats count it."""
    try:
        match_finished.send(sender=Match, match_id=match_id)
    except Exception:
        log.exception("match %s: the result did not follow the spectators' view", match_id)
