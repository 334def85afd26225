"""The spectator delay: what anyone not seated at a delayed table sees of its match, and when
that view moves on.

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

Wake-ups (DESIGN.md rule 3): after a live move (``note_move``, from ``games.push``) and after each
step (``advance``) the next step's time is armed as a Celery countdown task (``tasks.advance``),
at most one at a time per match (``DelayedView.due_at``): the cost is per table, not per socket,
and only delayed tables pay it. A step re-checks everything under the row lock, so a duplicate or
early task changes nothing; the beat sweep (``sweep_overdue``) moves views whose wake-up was lost.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from games import replay
from games.engine.state import State
from games.models import DelayedView, Match, Move, Table

log = logging.getLogger(__name__)

#: When the view had to wait for the live table, the lag becomes this many times the time the
#: N plays took, so a steady table's next steps fall between its live plays.
LAG_HEADROOM = 1.25
#: An armed wake-up this many seconds overdue counts as lost (the sweep and the next live move
#: step the view themselves).
LOST_AFTER_SECONDS = 2.0

_START_LEVELS = (2, 2)  # every match starts with both teams at 2 (§8)


@dataclass(frozen=True)
class Watched:
    """A match as a viewer sees it: the version shown, its round (1-based) and team levels
    (2–14), and the winning team (0/1) once the view shows the end, else None."""

    version: int
    round_no: int
    levels: tuple[int, int]
    winner_team: int | None

    @property
    def over(self) -> bool:
        return self.winner_team is not None


def is_delayed(table: Table) -> bool:
    return table.spectator_delay > 0


def live(match: Match) -> Watched:
    """The match as its seated players see it."""
    return Watched(
        match.version, match.round_no, (match.level_team0, match.level_team1), match.winner_team
    )


def _row(match: Match) -> DelayedView | None:
    """The match's view (cached on ``match``; select_related("delayed") saves the query)."""
    try:
        return match.delayed
    except DelayedView.DoesNotExist:
        return None


def watched(table: Table, match: Match) -> Watched:
    """The match as anyone not seated at ``table`` sees it now (the live match when the table
    has no delay). At most one query (none with ``delayed`` selected)."""
    if not is_delayed(table):
        return live(match)
    row = _row(match)
    if row is not None:
        return Watched(
            row.version, row.round_no, (row.level_team0, row.level_team1), row.winner_team
        )
    if match.version <= table.spectator_delay:
        return Watched(0, 1, _START_LEVELS, None)  # nothing may be shown past the deal yet
    # No view yet (a match older than this rule, or its first step failed): N plays back.
    return _summary(match, _state_at(match, match.version - table.spectator_delay))


def view_over(table: Table, match: Match) -> bool:
    """Whether a finished ``match`` is finished for its spectators too: the table has no delay,
    or their view reached the end (a match without a view counts as reached). No query with
    ``delayed`` selected."""
    if not is_delayed(table):
        return True
    row = _row(match)
    return row is None or row.winner_team is not None


def seen_by(table: Table, match: Match, seated: bool) -> Watched:
    """``live(match)`` for someone seated at the table, else ``watched``."""
    return live(match) if seated else watched(table, match)


def delay_for(table: Table, match: Match | None, seat: int | None) -> int:
    """How many moves behind the live match this viewer is (0 for a seat, or no match)."""
    if seat is not None or match is None:
        return 0
    return match.version - watched(table, match).version


def _summary(match: Match, state: State) -> Watched:
    over = state.version == match.version and match.winner_team is not None
    return Watched(
        state.version, state.round_no, tuple(state.levels), match.winner_team if over else None
    )


def _state_at(match: Match, version: int) -> State:
    """The state at ``version`` from the log; the deal if the log does not replay (a bug)."""
    try:
        return replay.state_at(match, version)
    except replay.ReplayError:
        log.exception("match %s: the move log does not replay", match.pk)
        return replay.initial_state(match)


# --- moving the view ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """What one call did: the view went from version ``old`` to ``new``; the next wake-up is
    ``due`` (None: none armed by this call); ``changed``: round, levels or result moved."""

    old: int
    new: int
    due: datetime | None
    changed: bool


def note_move(match: Match, now: datetime | None = None) -> Step | None:
    """A move of ``match`` (its table loaded) committed: step its spectators' view if the next
    move may now be shown, and arm the next wake-up. None when the table has no delay or a
    wake-up is armed already. Call it after the commit (``games.push.publish_move`` does)."""
    if not is_delayed(match.table):
        return None
    return _run(match.pk, now or timezone.now(), live_move=True)


def advance(match_id: int, now: datetime | None = None) -> Step | None:
    """A wake-up rang: show every move that is due by ``now``, then arm the next wake-up.
    None if the match or its view is gone."""
    return _run(match_id, now or timezone.now(), live_move=False)


def sweep_overdue(now: datetime | None = None) -> int:
    """Step every view whose wake-up is ``LOST_AFTER_SECONDS`` overdue (a task lost to a
    crash). Returns how many views moved."""
    now = now or timezone.now()
    lost = DelayedView.objects.filter(due_at__lt=now - timedelta(seconds=LOST_AFTER_SECONDS))
    moved = 0
    for match_id in lost.values_list("match_id", flat=True):
        step = advance(match_id, now)
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
    if step.due is not None:
        _arm(match_id, step.due, now)
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
    old, changed = view.version, False
    if target > old:
        shown = _summary(match, _state_at(match, target))
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
    return Step(old, target, view.due_at, changed)


def _arm(match_id: int, due: datetime, now: datetime) -> None:
    from games import tasks

    try:
        tasks.advance.apply_async((match_id,), countdown=max(0.0, (due - now).total_seconds()))
    except Exception:  # the broker is away: the sweep steps the view once it is overdue
        log.warning("match %s: could not arm the spectators' view", match_id, exc_info=True)


def _publish(match_id: int, step: Step) -> None:
    from games import notify, push

    try:
        table_id, host_id = push.publish_watched(match_id, step.old, step.new)
        if step.changed:
            notify.lobby_changed([host_id])  # the lobby's rows show the view's round and levels
    except Exception:
        log.exception("match %s: push of the spectators' version %s failed", match_id, step.new)
