"""Rounds: pair the next round, open and seat its tables, start them, and re-pair a round
whose matches have not started.

A round: pair (``leagues.pairing``: Swiss or round robin), open one table per pairing with the
tournament's options — team A at the even seats (team 0), team B at the odd seats — seat the
teams, start the matches (unless asked not to: a round that has not started can be re-paired),
and leave each player a notice with the table link. A bye is recorded at once as a win with no
levels. A round robin opponent who withdrew gives a bye too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import Seat, Table
from games.play import stewarding
from games.play.tables import TableError
from leagues import pairing, results
from leagues.models import Notice, Pairing, Tournament, TournamentRound
from leagues.notices import do_notify
from leagues.tournaments.base import Status, TournamentError, _check_status, _locked, _log

if TYPE_CHECKING:
    from django.contrib.auth.models import _User as User  # (the leagues import no accounts)


def planned_rounds(tournament: Tournament) -> int:
    """The rounds it plays: those planned (else as many as its format needs), never more than
    an all-play-all of its teams (a Swiss too: more would repeat meetings, issue 18). Before two
    teams have registered, the rounds planned as they were set (0: as its format will need)."""
    teams = tournament.teams.count()
    if teams < 2:
        return tournament.planned_rounds
    planned = tournament.planned_rounds or pairing.rounds_needed(tournament.format, teams)
    return min(planned, pairing.rounds_needed(Tournament.Format.ROUND_ROBIN, teams))


def do_generate_round(
    tournament: Tournament, by: User, *, start: bool = True, stand_in: str = ""
) -> TournamentRound:
    """Pair the next round, open and seat its tables, start them (unless ``start`` is False)
    and notify the players. ``stand_in`` (an AI policy) seats an AI stand-in playing for every
    player (exhibitions, tests): each seat keeps its person and gets ``ai_policy``."""
    with transaction.atomic():
        tournament = _locked(tournament)
        _check_status(tournament, Status.RUNNING)
        last = tournament.rounds.order_by("-number").first()
        if last is not None and last.status != TournamentRound.Status.FINISHED:
            raise TournamentError(_("Round %(n)d is not finished yet.") % {"n": last.number})
        number = last.number + 1 if last else 1
        if number > planned_rounds(tournament):
            raise TournamentError(_("Every planned round has been played."))
        rnd = TournamentRound.objects.create(tournament=tournament, number=number)
        _pair_round(tournament, rnd, by, start=start, stand_in=stand_in)
        _log(
            tournament,
            by,
            "generate_round",
            _describe(rnd),
            round=rnd.number,
            pairings=_pairs(rnd),
        )
    return rnd


def _describe(rnd: TournamentRound) -> str:
    return f"round {rnd.number}: " + "; ".join(str(p).split(": ", 1)[1] for p in rnd.pairings.all())


def _pairs(rnd: TournamentRound) -> list[list[str | None]]:
    """The round's pairings for the log's data: [team A, team B] by board, team B None for a
    bye."""
    pairings = rnd.pairings.select_related("team_a", "team_b")
    return [[p.team_a.name, p.team_b.name if p.team_b else None] for p in pairings]


def _pair_round(
    tournament: Tournament,
    rnd: TournamentRound,
    by: User,
    *,
    start: bool,
    stand_in: str,
    avoid: Sequence[tuple[int, int]] = (),
) -> None:
    """Pair ``rnd`` and open its tables. Precondition: the tournament row is locked."""
    if stand_in and stand_in not in Seat.Policy.values:
        raise TournamentError(_("Unknown AI player."))
    teams = {t.pk: t for t in tournament.teams.prefetch_related("members__user")}
    active = [pk for pk, t in teams.items() if not t.withdrawn]
    earlier = list(
        Pairing.objects.filter(round__tournament=tournament)
        .exclude(round=rnd)
        .values_list("team_a_id", "team_b_id")
    )
    if tournament.format == Tournament.Format.ROUND_ROBIN:
        schedule = pairing.round_robin(sorted(teams, key=lambda pk: (teams[pk].registered_at, pk)))
        planned = schedule[rnd.number - 1]
        pairs, byes = [], [planned.bye] if planned.bye in active else []
        for a, b in planned.pairs:
            if a in active and b in active:
                pairs.append((a, b))
            else:  # an opponent who withdrew gives a bye
                byes += [t for t in (a, b) if t in active]
    else:
        standing = results.tournament_standings(tournament)
        ranked = [row.entrant for row in standing if row.entrant in active]
        scores = {row.entrant: row.points for row in standing}
        met = [(a, b) for a, b in earlier if b is not None] + list(avoid)
        had_bye = [a for a, b in earlier if b is None]
        paired = pairing.swiss_round(ranked, scores, met, had_bye)
        pairs, byes = list(paired.pairs), [paired.bye] if paired.bye is not None else []

    now = timezone.now()
    host = tournament.created_by or by
    board = 0
    for a, b in pairs:
        board += 1
        team_a, team_b = teams[a], teams[b]
        # team A at the even seats, team B at the odd ones; a team is full (team_size members)
        by_seat = {2 * i: member.user for i, member in enumerate(team_a.members.all())}
        by_seat |= {2 * i + 1: member.user for i, member in enumerate(team_b.members.all())}
        people = [by_seat[n] for n in range(tournament.seats)]
        seats: list[tuple[User | None, str]] = [(user, stand_in) for user in people]
        try:
            table = stewarding.open_table(
                host,
                name=f"{tournament.name} · R{rnd.number} · {board}",
                options=tournament.table_options,
                seats=seats,
                rated=tournament.rated and tournament.league_id is not None,
                start=start,
            )
        except TableError as e:
            raise TournamentError(str(e)) from None
        Pairing.objects.create(round=rnd, board=board, team_a=team_a, team_b=team_b, table=table)
        do_notify(people, Notice.Kind.TABLE_READY, tournament=tournament, table=table)
    for team in byes:
        board += 1
        Pairing.objects.create(
            round=rnd, board=board, team_a=teams[team], winner_team=0, processed_at=now
        )
    rnd.status = TournamentRound.Status.PLAYING if start else TournamentRound.Status.PAIRED
    rnd.save(update_fields=["status"])
    results.close_round_if_done(rnd)


def do_start_round(rnd: TournamentRound, by: User) -> TournamentRound:
    """Deal every match of a round that was paired without starting."""
    with transaction.atomic():
        tournament = _locked(rnd.tournament)
        _check_status(tournament, Status.RUNNING)
        rnd = TournamentRound.objects.select_for_update().get(pk=rnd.pk)
        if rnd.status != TournamentRound.Status.PAIRED:
            raise TournamentError(_("This round has already started."))
        for table_id in rnd.pairings.values_list("table_id", flat=True):
            if table_id is None:  # a bye: no table to start
                continue
            try:
                stewarding.start_table(table_id)
            except TableError as e:
                raise TournamentError(str(e)) from None
        rnd.status = TournamentRound.Status.PLAYING
        rnd.save(update_fields=["status"])
        _log(tournament, by, "start_round", f"round {rnd.number}", round=rnd.number)
    return rnd


def do_repair_round(
    rnd: TournamentRound, by: User, *, start: bool = False, stand_in: str = ""
) -> TournamentRound:
    """Pair a round again, before its matches started: its tables are removed and new ones
    opened. For Swiss, the discarded pairs count as met, so a different pairing is found
    wherever one exists (a round robin round is rebuilt, e.g. after a withdrawal)."""
    with transaction.atomic():
        tournament = _locked(rnd.tournament)
        _check_status(tournament, Status.RUNNING, Status.PAUSED)
        rnd = TournamentRound.objects.select_for_update().get(pk=rnd.pk)
        if rnd.status != TournamentRound.Status.PAIRED:
            raise TournamentError(
                _("Only a round whose matches have not started can be re-paired.")
            )
        if tournament.rounds.filter(number__gt=rnd.number).exists():
            raise TournamentError(_("Only the latest round can be re-paired."))
        old = list(rnd.pairings.values_list("team_a_id", "team_b_id"))
        before, pairs_before = _describe(rnd), _pairs(rnd)
        table_ids = [t for t in rnd.pairings.values_list("table_id", flat=True) if t]
        rnd.pairings.all().delete()
        Notice.objects.filter(table_id__in=table_ids).delete()
        Table.objects.filter(pk__in=table_ids, status=Table.Status.OPEN).delete()
        _pair_round(
            tournament,
            rnd,
            by,
            start=start,
            stand_in=stand_in,
            avoid=[(a, b) for a, b in old if b is not None],
        )
        _log(
            tournament,
            by,
            "repair_round",
            f"{before} → {_describe(rnd)}",
            round=rnd.number,
            before=pairs_before,
            pairings=_pairs(rnd),
        )
    return rnd
