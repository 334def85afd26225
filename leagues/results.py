"""Finished matches feed fixtures, tournament pairings, standings and ratings — once.

``games.signals.match_finished`` arrives after the commit that ended a match, possibly more
than once. ``do_record_match`` locks the fixture (or the pairing, after its round) row, returns
at once if its ``processed_at`` marker is set, and otherwise copies the result, rates the match
and sets the marker in the same transaction; ``RatingHistory``'s unique (league, user, match)
is the second guard. ``leagues_catch_up`` (a management command, and the beat's
``leagues.tasks.catch_up_results``) replays missed signals.

A result is recorded only once it is public (``games.live.visibility.result_public``): at a
table with a spectator delay, when the spectators' view reaches the end (the delay's step that
gets there sends ``match_finished`` again). Until then the fixture or pairing reads as still
being played — standings, ratings, the next round and the notices wait with it — so nothing here
tells what the table's spectators have not seen yet (docs/ACCESS.md).

What a result holds (``leagues.standings`` scores it):
- winner team (§0: team 0 = even seats = the fixture's team 0 / the pairing's team A);
- levels gained per team: the final level minus 2 (§8: teams start at 2, never move down);
  pages show the final levels again (``Fixture.final_levels``, ``Pairing.final_levels``), as
  the table and its record do — "levels 1–1" beside a table's 3–3 read as a different result;
- players caught per team: opponents still holding cards in the rounds that team won (§7).

The result counts for the people seated when the match ended. A match is rated only if its
table is rated, it belongs to a league, and every seat is a person playing for themselves (an
AI, or an organiser's AI stand-in playing for someone, makes it unrated). A seat its own player
handed to the AI while away (``games.play.standins``: timed out, or asked) stays theirs and rated:
dropping out of a rated match never saves its rating. A resignation is a loss like any other.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.db.models import Q
from django.dispatch import receiver
from django.utils import timezone

from games.live import visibility
from games.models import Match, Seat
from games.records.player_stats import seated_teams
from games.signals import match_finished
from leagues import ratings, standings
from leagues.models import (
    Fixture,
    FixturePlayer,
    League,
    Membership,
    Pairing,
    Season,
    Tournament,
    TournamentRound,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import _User as User  # (the leagues import no accounts)

logger = logging.getLogger(__name__)


def match_summary(match: Match) -> tuple[tuple[int, int], tuple[int, int]]:
    """Levels gained and players caught by team 0 and team 1 over a match."""
    caught = [0, 0]
    for rnd in match.rounds.all():
        if rnd.winner_team is not None:
            caught[rnd.winner_team] += len(rnd.caught or [])
    return (match.level_team0 - 2, match.level_team1 - 2), (caught[0], caught[1])


@receiver(match_finished, dispatch_uid="leagues.results.on_match_finished")
def on_match_finished(sender: object, match_id: int, **kwargs: Any) -> None:
    """Record a finished match for its fixture or pairing. Never raises into the sender (the
    games service's after-commit step): a failure is logged and left to ``leagues_catch_up``."""
    try:
        do_record_match(match_id)
    except Exception:
        logger.exception("could not record the result of match %s", match_id)


def do_record_match(match_id: int) -> str:
    """Record match ``match_id``'s result where it belongs, once its result is public. Returns
    "fixture", "pairing", or "" when there was nothing (more) to do yet."""
    match = Match.objects.select_related("table", "delayed").filter(pk=match_id).first()
    # (a public result has a winner: the second test says so to mypy)
    if match is None or match.winner_team is None or not visibility.result_public(match):
        return ""
    winner = match.winner_team
    with transaction.atomic():
        fixture = Fixture.objects.select_for_update().filter(table_id=match.table_id).first()
        if fixture is not None:
            return "fixture" if _record_fixture(fixture, match, winner) else ""
    with transaction.atomic():
        pairing_row = (
            Pairing.objects.filter(table_id=match.table_id).values("pk", "round_id").first()
        )
        if pairing_row is None:
            return ""
        # Lock the round first (as forfeits do), so the last result of a round sees the others.
        rnd = TournamentRound.objects.select_for_update().get(pk=pairing_row["round_id"])
        pairing = Pairing.objects.select_for_update().get(pk=pairing_row["pk"])
        return "pairing" if _record_pairing(pairing, rnd, match, winner) else ""


def _record_fixture(fixture: Fixture, match: Match, winner: int) -> bool:
    """Precondition: the fixture row is locked; ``winner`` is the match's winning team."""
    if fixture.processed_at is not None:
        return False
    (fixture.levels_team0, fixture.levels_team1), (fixture.caught_team0, fixture.caught_team1) = (
        match_summary(match)
    )
    fixture.winner_team = winner
    fixture.match = match
    fixture.processed_at = timezone.now()
    fixture.save()
    team0, team1, all_people = seated_teams(match.table_id)
    # The result counts for who was seated at the end (a seat may have changed hands).
    FixturePlayer.objects.filter(fixture=fixture).delete()
    FixturePlayer.objects.bulk_create(
        FixturePlayer(fixture=fixture, user_id=s.user_id, team=s.team, seat=s.number)
        for s in Seat.objects.filter(table_id=match.table_id, user__isnull=False)
        if s.user_id is not None  # (the filter's already: says so to mypy)
    )
    league = fixture.season.league
    if match.table.rated and all_people and team0 and team1:
        ratings.do_rate_match(league, match, team0, team1, winner)
    return True


def _record_pairing(pairing: Pairing, rnd: TournamentRound, match: Match, winner: int) -> bool:
    """Precondition: the round row, then the pairing row, are locked; ``winner`` is the
    match's winning team."""
    if pairing.processed_at is not None:
        return False
    (pairing.levels_a, pairing.levels_b), (pairing.caught_a, pairing.caught_b) = match_summary(
        match
    )
    pairing.winner_team = winner
    pairing.match = match
    pairing.processed_at = timezone.now()
    pairing.save()
    tournament = rnd.tournament
    team0, team1, all_people = seated_teams(match.table_id)
    league = tournament.league  # (None, and no query, without a league)
    if league is not None and match.table.rated and all_people and team0 and team1:
        ratings.do_rate_match(league, match, team0, team1, winner)
    close_round_if_done(rnd)
    return True


def close_round_if_done(rnd: TournamentRound) -> bool:
    """Mark a round finished once every pairing has its result. Precondition: the round row
    is locked."""
    if rnd.pairings.filter(processed_at__isnull=True).exists():
        return False
    rnd.status = TournamentRound.Status.FINISHED
    rnd.save(update_fields=["status"])
    return True


def do_catch_up() -> int:
    """Record every finished match at a fixture or pairing table still without its result
    (a signal lost to a crash), once public. Returns how many were recorded."""
    done = 0
    for model in (Fixture, Pairing):
        waiting = model.objects.filter(
            visibility.revealed_q("table__"),
            processed_at__isnull=True,
            table__isnull=False,
            table__match__winner_team__isnull=False,
        )
        for match_id in waiting.values_list("table__match__id", flat=True):
            done += bool(do_record_match(match_id))
    return done


# --- reading results back as standings ----------------------------------------------------------


def fixture_result(fixture: Fixture) -> standings.Result[int]:
    """A recorded fixture as a ``standings.Result``; ValueError for one without a winner."""
    if fixture.winner_team is None:
        raise ValueError(f"fixture {fixture.pk} has no result yet")
    sides: tuple[list[int], list[int]] = ([], [])
    for p in fixture.players.all():
        sides[p.team].append(p.user_id)
    return standings.Result(
        (tuple(sides[0]), tuple(sides[1])),
        fixture.winner_team,
        (fixture.levels_team0, fixture.levels_team1),
        (fixture.caught_team0, fixture.caught_team1),
    )


def season_standings(season: Season) -> list[standings.Row[int]]:
    """Per-player table of a season: every active member (an organiser only once they play in
    it), ranked (``leagues.standings``)."""
    fixtures = season.fixtures.filter(processed_at__isnull=False).prefetch_related("players__user")
    results = [fixture_result(f) for f in fixtures]
    names = {p.user_id: p.user.username for f in fixtures for p in f.players.all()}
    # An organiser is in the standings once they play in the season, not for organising it.
    playing = FixturePlayer.objects.filter(fixture__season=season).values("user_id")
    members = (
        season.league.memberships.filter(status=Membership.Status.ACTIVE)
        .filter(~Q(role=Membership.Role.ORGANISER) | Q(user_id__in=playing))
        .select_related("user")
    )
    names.update({m.user_id: m.user.username for m in members})
    bots = {p.user_id for f in fixtures for p in f.players.all() if p.user.is_bot}
    bots |= {m.user_id for m in members if m.user.is_bot}
    rows = standings.standings(results, [m.user_id for m in members], names)
    for row in rows:
        row.bot = row.entrant in bots  # a bot account (the bot API): marked in the table
    return rows


def league_partner_stats(league: League, user: User) -> list[standings.Partnership[int]]:
    """How ``user`` did beside each partner over every season of ``league``."""
    fixtures = Fixture.objects.filter(
        season__league=league, processed_at__isnull=False, players__user=user
    ).prefetch_related("players")
    stats = standings.partner_stats(fixture_result(f) for f in fixtures)
    return stats.get(user.pk, [])


def pairing_result(pairing: Pairing) -> standings.Result[int] | None:
    if pairing.processed_at is None:
        return None
    if pairing.team_b_id is None:
        return standings.Result(((pairing.team_a_id,), ()), 0, kind=standings.BYE)
    if pairing.winner_team is None:
        raise ValueError(f"pairing {pairing.pk} has no winner")
    return standings.Result(
        ((pairing.team_a_id,), (pairing.team_b_id,)),
        pairing.winner_team,
        (pairing.levels_a, pairing.levels_b),
        (pairing.caught_a, pairing.caught_b),
        kind=standings.FORFEIT if pairing.forfeit else standings.PLAYED,
    )


def tournament_standings(tournament: Tournament) -> list[standings.Row[int]]:
    """Per-team table of a tournament (withdrawn teams keep their row)."""
    teams = list(tournament.teams.all())
    pairings = Pairing.objects.filter(round__tournament=tournament, processed_at__isnull=False)
    results = [r for r in map(pairing_result, pairings) if r is not None]
    return standings.standings(results, [t.pk for t in teams], {t.pk: t.name for t in teams})
