"""What a viewer may see of a match, and at which version: the one place that decides it.

A person seated at the table sees the live match, projected for their seat (``engine.views``:
their own hand, nobody else's). Everyone else — spectators, the host when not seated, staff,
strangers, the lobby's rows, profiles, records and replays of a running match — sees what the
spectators see: on a table with a ``spectator_delay`` of N plays, the spectators' view kept by
``games.live.delay`` (at least N plays behind, one ``DelayedView`` row per match), else the live
match. A finished match is finished for them only once their view reached its end.

Every page, push and record asks here: ``seen_by``/``watched`` for the summary (version, round,
levels, winner), ``delay_for`` for how far behind, ``visible_state`` for the state to project.

What follows from a delayed match's result waits for the same moment (docs/ACCESS.md): its
statistics, site and league ratings, fixture and pairing results are counted only once
``result_public`` (``games.records.player_stats``, ``leagues.results``; the delay's step that
reaches the end sends ``match_finished`` again), and a rematch table stays hidden from anyone
without a seat there until then (``games.access``). ``revealed_q`` is the same rule for querysets.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet

from games.engine.state import State
from games.live import replay
from games.models import DelayedView, Match, RoundReview, Table

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
    """Whether ``table`` shows its spectators a delayed view (``spectator_delay`` > 0)."""
    return table.spectator_delay > 0


def live(match: Match) -> Watched:
    """The match as its seated players see it."""
    return Watched(
        match.version, match.round_no, (match.level_team0, match.level_team1), match.winner_team
    )


def summary(match: Match, state: State) -> Watched:
    """What ``state`` (a state of ``match``) shows: the winner only at the match's last version."""
    over = state.version == match.version and match.winner_team is not None
    return Watched(
        state.version,
        state.round_no,
        (state.levels[0], state.levels[1]),
        match.winner_team if over else None,
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
    return summary(match, replay.state_or_deal(match, match.version - table.spectator_delay))


def view_over(table: Table, match: Match) -> bool:
    """Whether a finished ``match`` is finished for its spectators too: the table has no delay,
    or their view reached the end (a match without a view counts as reached). No query with
    ``delayed`` selected."""
    if not is_delayed(table):
        return True
    row = _row(match)
    return row is None or row.winner_team is not None


def result_public(match: Match) -> bool:
    """Whether ``match`` is over for everyone: it has a winner and ``view_over`` (its table loaded;
    no query with ``delayed`` selected). Until then nothing public may follow from its result."""
    return match.winner_team is not None and view_over(match.table, match)


#: The ``Q`` of ``view_over`` for querysets, on the table reached by its argument (``""`` for
#: ``Table``, ``"table__"`` from a match, seat or rematch): see ``DelayedView.revealed_q``.
revealed_q = DelayedView.revealed_q


def finished_for(match: Match, seat: int | None = None) -> bool:
    """Over with a winner: the only matches whose hands are public (a stopped one is not) —
    for a viewer without a seat (``seat`` None) of a delayed table, only once the spectators'
    view has reached the end (``games.live.delay``)."""
    if match.winner_team is None:
        return False
    return seat is not None or watched(match.table, match).over


def readable_reviews(
    match: Match, user: Any, seat: int | None, round_no: int | None = None
) -> list[RoundReview]:
    """The expert's round reviews of ``match`` (issue 20; of round ``round_no`` only, when
    given) that ``user``, at ``seat`` (None: no seat), may read: their own seat's (a review
    exists once its round is over), and everyone's once the match is ``finished_for`` them. The
    caller checked that ``user`` may watch the table (``games.access.can_watch``;
    docs/ACCESS.md). The record page and the bot API both read through here, so the two can
    never show different things."""
    reviews = readable_reviews_query(match, user, seat).select_related("user")
    if round_no is not None:
        reviews = reviews.filter(round_no=round_no)
    return list(reviews)


def readable_reviews_query(match: Match, user: Any, seat: int | None) -> QuerySet[RoundReview]:
    """``readable_reviews``'s rows as a query not yet run, in round and seat order: for a page
    that reads only some columns of them (the record page's accuracy table) or some rounds."""
    reviews = RoundReview.objects.filter(match=match).order_by("round_no", "seat")
    if finished_for(match, seat):
        return reviews
    if seat is None or not getattr(user, "is_authenticated", False):
        return reviews.none()
    return reviews.filter(seat=seat, user=user)


def seen_by(table: Table, match: Match, seated: bool) -> Watched:
    """``live(match)`` for someone seated at the table, else ``watched``."""
    return live(match) if seated else watched(table, match)


def delay_for(table: Table, match: Match | None, seat: int | None) -> int:
    """How many moves behind the live match this viewer is (0 for a seat, or no match)."""
    if seat is not None or match is None:
        return 0
    return match.version - watched(table, match).version


def visible_state(table: Table, match: Match, seat: int | None) -> State:
    """The state this viewer's page is rendered from (then projected for ``seat``, None for a
    spectator): the live state for a seat or an undelayed table, else the spectators' view's
    state from the log (the deal if the log does not replay)."""
    behind = delay_for(table, match, seat)
    if behind == 0:
        return replay.load_state(match)
    return replay.state_or_deal(match, match.version - behind)
