"""Every finished match is counted once: its players' statistics and, for a rated table, the
site rating (``games.signals.rated_match_counted``, which leagues rate).

``games.signals.match_finished`` arrives after the commit that ended a match — in the writer's
after-commit step, as for the leagues' results — possibly more than once. ``do_record_match``
locks the match row, returns at once if its ``MatchTally`` exists, and otherwise writes one
``PlayerMatch`` per person seated at the end, rates the match if it counts, and creates the
tally, all in one transaction: counted exactly once. ``do_catch_up`` (the beat's
``games.tasks.catch_up_player_stats`` for the last day, and the ``stats_catch_up`` command for
all time) counts the finished matches a lost signal left out, oldest first, so ratings follow
the order the matches ended in.

A match is counted only once its result is public (``games.live.visibility.result_public``): at
a table with a spectator delay, when the spectators' view reaches the end — the delay's step
that gets there sends ``match_finished`` again (``games.live.delay``), and the catch-up finds
one whose signal was lost. So profiles, the leaderboard and league ratings never show a result
the table's spectators have not seen (docs/ACCESS.md); the seated players see it on the table.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.db import transaction
from django.dispatch import receiver
from django.utils import timezone

from accounts.models import User
from games.engine.codec import event_from_json
from games.live import visibility
from games.models import Match, MatchTally, Move, PlayerMatch, Seat, ai_plays_a_seat
from games.records.player_tally import tally
from games.signals import match_finished, rated_match_counted

logger = logging.getLogger(__name__)


@receiver(match_finished, dispatch_uid="games.records.player_stats.on_match_finished")
def on_match_finished(sender: object, match_id: int, **kwargs: object) -> None:
    """Count a finished match. Never raises into the sender (the games writer's after-commit
    step): a failure is logged and left to ``do_catch_up``."""
    try:
        do_record_match(match_id)
    except Exception:
        logger.exception("could not count the statistics of match %s", match_id)


def do_record_match(match_id: int) -> bool:
    """Count match ``match_id`` if it is finished, its result public and not counted yet.
    Returns whether it was counted now. A fixed number of statements (14 for four rated
    players), whatever the length of the match: its moves are read in one statement."""
    with transaction.atomic():
        match = (
            Match.objects.select_for_update(of=("self", "table"))
            .select_related("table", "delayed")
            .defer("state")
            .filter(pk=match_id)
            .first()
        )
        # (a public result has a winner: the second test says so to mypy)
        if match is None or match.winner_team is None or not visibility.result_public(match):
            return False
        if MatchTally.objects.filter(match=match).exists():
            return False
        table = match.table
        rounds = match.rounds.order_by("number").values_list("winner_team", "finish_order")
        events = (
            event_from_json(event)
            for move_events in Move.objects.filter(match=match)
            .order_by("seq")
            .values_list("events", flat=True)
            .iterator(chunk_size=500)
            for event in move_events
        )
        seats = tally(
            table.players,
            match.winner_team,
            (match.level_team0, match.level_team1),
            rounds,
            events,
        )
        team0, team1, all_people = seated_teams(table.pk)
        rated = table.rated and all_people and bool(team0) and bool(team1)
        people = Seat.objects.filter(table=table, user__isnull=False).values_list(
            "number", "user_id"
        )
        PlayerMatch.objects.bulk_create(
            PlayerMatch(
                match=match,
                user_id=user_id,
                seat=number,
                team=seats[number].team,
                won=seats[number].won,
                rated=rated,
                resigned=seats[number].resigned,
                rounds_played=seats[number].rounds_played,
                rounds_won=seats[number].rounds_won,
                first_out=seats[number].first_out,
                levels_gained=seats[number].levels_gained,
                hooks=seats[number].hooks,
                unhooks=seats[number].unhooks,
                bombs=seats[number].bombs,
                finished_at=match.finished_at or timezone.now(),
            )
            for number, user_id in people
        )
        if rated:
            rated_match_counted.send(
                sender=Match, match=match, team0=team0, team1=team1, winner=match.winner_team
            )
        MatchTally.objects.create(match=match, rated=rated)
    return True


def seated_teams(table_id: int) -> tuple[list[User], list[User], bool]:
    """The people at team 0's and team 1's seats (``User`` lists), and whether every seat is a
    person playing for themselves (no AI seat; a stand-in counts as its person): the rule for
    a match to be rated, here and in leagues (one statement)."""
    seats = list(Seat.objects.filter(table_id=table_id).select_related("user"))
    teams: tuple[list[User], list[User]] = ([], [])
    for seat in seats:
        if seat.user is not None:
            teams[seat.team].append(seat.user)
    all_people = all(s.user_id is not None for s in seats) and not ai_plays_a_seat(seats)
    return teams[0], teams[1], all_people


def do_catch_up(since: timedelta | None = None) -> int:
    """Count every finished match whose result is public and not counted yet (a signal lost to
    a crash), oldest first;
    with ``since``, only those that ended within it. Returns how many were counted."""
    waiting = Match.objects.filter(
        visibility.revealed_q("table__"),
        winner_team__isnull=False,
        finished_at__isnull=False,
        tally__isnull=True,
    )
    if since is not None:
        waiting = waiting.filter(finished_at__gte=timezone.now() - since)
    done = 0
    for match_id in waiting.order_by("finished_at").values_list("pk", flat=True):
        done += do_record_match(match_id)
    return done
