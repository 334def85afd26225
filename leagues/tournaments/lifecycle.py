"""A tournament's life: create it, set its table options, open registration, start, pause,
resume and close (naming the winner and telling every player).

Lifecycle: draft → registration → running ⇄ paused → closed. Pausing stops new rounds and
registration; matches already running play on (a live match has no pause, §5 timers run).
Closing names the winner (the first team of the standings) and tells every player.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils.translation import gettext as _

from leagues import results
from leagues.models import Notice, Pairing, TeamMember, Tournament, TournamentTeam
from leagues.models.options import options_problem
from leagues.notices import do_notify
from leagues.tournaments.base import Status, TournamentError, _check_status, _locked, _log

if TYPE_CHECKING:
    from django.contrib.auth.models import _User as User  # (the leagues import no accounts)


def check_table_options(options: dict[str, Any], team_size: int) -> None:
    """Raise TournamentError unless ``options`` could open a table of ``team_size * 2`` seats
    (``leagues.models.options.options_problem``)."""
    problem = options_problem(options, team_size * 2)
    if problem is not None:
        raise TournamentError(problem)


def do_set_table_options(tournament: Tournament, by: User, options: dict[str, Any]) -> Tournament:
    """Staff set the tournament's table options (§10 names) for the rounds paired from now on
    (tables already open keep theirs). Not once it is closed. Raises TournamentError."""
    with transaction.atomic():
        tournament = _locked(tournament)
        _check_status(tournament, Status.DRAFT, Status.REGISTRATION, Status.RUNNING, Status.PAUSED)
        check_table_options(options, tournament.team_size)
        tournament.table_options = dict(options)
        tournament.save(update_fields=["table_options"])
        _log(
            tournament,
            by,
            "table_options",
            ", ".join(f"{k}={v}" for k, v in options.items()),
            options=dict(options),
        )
    return tournament


def do_create_tournament(
    by: User, *, name: str, format: str = Tournament.Format.SWISS, team_size: int = 2, **fields: Any
) -> Tournament:
    """Create a draft tournament (fields as on the model)."""
    if team_size not in (2, 3):
        raise TournamentError(_("Teams are pairs or trios."))
    check_table_options(fields.get("table_options") or {}, team_size)
    tournament = Tournament(name=name, format=format, team_size=team_size, created_by=by, **fields)
    problems = tournament.settings_problems()
    if problems:
        raise TournamentError(" ".join(problems.values()))
    with transaction.atomic():
        tournament.save()
        _log(
            tournament,
            by,
            "create",
            f"{format}, teams of {team_size}",
            format=str(format),
            team_size=team_size,
        )
    return tournament


def do_open_registration(tournament: Tournament, by: User) -> Tournament:
    with transaction.atomic():
        tournament = _locked(tournament)
        _check_status(tournament, Status.DRAFT)
        tournament.status = Status.REGISTRATION
        tournament.save(update_fields=["status"])
        _log(tournament, by, "open_registration")
    return tournament


def do_start(tournament: Tournament, by: User) -> Tournament:
    """Close registration and start: from now on rounds can be generated. Teams whose
    partners have not all accepted are dropped (and logged)."""
    with transaction.atomic():
        tournament = _locked(tournament)
        _check_status(tournament, Status.DRAFT, Status.REGISTRATION)
        unconfirmed = tournament.teams.filter(members__pending=True).distinct()
        confirmed = tournament.teams.filter(withdrawn=False).exclude(pk__in=unconfirmed)
        if confirmed.count() < 2:
            raise TournamentError(
                _("At least two teams whose partners have all accepted are needed to start.")
            )
        dropped = list(unconfirmed.values_list("name", flat=True))
        if dropped:
            TournamentTeam.objects.filter(pk__in=unconfirmed.values("pk")).delete()
            _log(tournament, by, "drop_unconfirmed", ", ".join(dropped), teams=dropped)
        tournament.status = Status.RUNNING
        tournament.save(update_fields=["status"])
        teams = tournament.teams.count()
        _log(tournament, by, "start", f"{teams} teams", teams=teams)
    return tournament


def do_pause(tournament: Tournament, by: User) -> Tournament:
    """Pause: no new round until resumed; matches in play carry on."""
    return _switch(tournament, by, Status.RUNNING, Status.PAUSED, "pause")


def do_resume(tournament: Tournament, by: User) -> Tournament:
    """Resume a paused tournament: rounds may be generated again."""
    return _switch(tournament, by, Status.PAUSED, Status.RUNNING, "resume")


def _switch(tournament: Tournament, by: User, before: str, after: str, action: str) -> Tournament:
    with transaction.atomic():
        tournament = _locked(tournament)
        _check_status(tournament, before)
        tournament.status = after
        tournament.save(update_fields=["status"])
        _log(tournament, by, action)
    return tournament


def do_close(tournament: Tournament, by: User) -> Tournament:
    """Close the tournament: the first team of the standings is its winner (none if nothing
    was played), and every player of every team gets a notice saying so. Matches still in
    play must end or be forfeited first."""
    with transaction.atomic():
        tournament = _locked(tournament)
        _check_status(tournament, Status.DRAFT, Status.REGISTRATION, Status.RUNNING, Status.PAUSED)
        live = Pairing.objects.filter(round__tournament=tournament, processed_at__isnull=True)
        if live.exists():
            raise TournamentError(
                _("%(n)d matches have no result yet: let them finish or forfeit them first.")
                % {"n": live.count()}
            )
        table = results.tournament_standings(tournament)
        winner = None
        if table and table[0].played:
            winner = TournamentTeam.objects.get(pk=table[0].entrant)
        tournament.status = Status.CLOSED
        tournament.winner = winner
        tournament.save(update_fields=["status", "winner"])
        players = [
            m.user for m in TeamMember.objects.filter(tournament=tournament).select_related("user")
        ]
        do_notify(players, Notice.Kind.TOURNAMENT_CLOSED, tournament=tournament, team=winner)
        _log(
            tournament,
            by,
            "close",
            f"winner: {winner.name}" if winner else "no winner",
            team=winner.name if winner else None,
        )
    return tournament
