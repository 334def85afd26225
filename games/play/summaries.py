"""The summaries of a match beside its move log: ``Round`` and ``TributeRecord`` rows, and the
match's winner, kept in step with the events of each move (RULES.md §7–§9) by the writer
(``games.play.services``), in the move's transaction. History pages read them."""

from __future__ import annotations

from datetime import datetime

from games.engine.events import Dealt, Event, MatchOver, Resigned, Returned, RoundOver, TributePaid
from games.engine.state import State
from games.models import Match, Round, Table, TributeRecord


def record(match: Match, state: State, events: tuple[Event, ...], now: datetime) -> None:
    """Keep the round and tribute summaries of ``match`` in step with ``events``, the events of
    the move that made ``state`` (RULES.md §7–§9), at ``now``: a round's result, the match's
    winner, a resignation, a new deal, a tribute paid and returned. Sets ``winner_team`` and
    ``finished_at`` on ``match`` (the caller saves it). Precondition: the writer holds the
    match row lock (``services.apply_locked`` calls it)."""
    for event in events:
        if isinstance(event, RoundOver):
            Round.objects.filter(match=match, number=state.round_no).update(
                levels_after=list(event.levels),
                finish_order=list(state.finished),
                caught=list(event.caught),
                winner_team=event.team,
                ended_at=now,
            )
        elif isinstance(event, MatchOver):
            match.winner_team = event.winner
            match.finished_at = now
            Table.objects.filter(pk=match.table_id).update(status=Table.Status.FINISHED)
        elif isinstance(event, Resigned):
            # The round ends with the match: the other team takes it, nobody caught. A round
            # already over (a resignation in the pause before the next deal) keeps its result.
            Round.objects.filter(match=match, number=state.round_no, ended_at__isnull=True).update(
                levels_after=list(state.levels),
                finish_order=list(state.finished),
                caught=[],
                winner_team=1 - event.team,
                ended_at=now,
            )
        elif isinstance(event, Dealt):
            Round.objects.create(
                match=match,
                number=event.round,
                level=event.level,
                levels_before=list(state.levels),
                dealer=event.dealer,
                leader=state.leader,
            )
        elif isinstance(event, TributePaid):
            TributeRecord.objects.create(
                match=match,
                round_no=state.round_no,
                payer=event.payer,
                receiver=event.receiver,
                card=event.card,
            )
        elif isinstance(event, Returned):
            TributeRecord.objects.filter(
                match=match,
                round_no=state.round_no,
                receiver=event.seat,
            ).update(returned_card=event.card, returned_at=now)
