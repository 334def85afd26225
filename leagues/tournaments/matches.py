"""Actions on one match or one seat of a running tournament: a team forfeits, a player is
replaced (in the team and at its table in play), a seat is handed to an AI stand-in and back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import Seat, Table
from games.play import stewarding
from games.play.tables import TableError
from leagues import results
from leagues.models import Pairing, TeamMember, TournamentRound, TournamentTeam
from leagues.tournaments.base import Status, TournamentError, _check_status, _locked, _log, _resolve
from leagues.tournaments.registration import check_entry

if TYPE_CHECKING:
    from django.contrib.auth.models import _User as User  # (the leagues import no accounts)


def do_forfeit(p: Pairing, by: User, forfeiting: int) -> Pairing:
    """Team ``forfeiting`` (0 = team A, 1 = team B) forfeits: the other team wins with no
    levels, the table is abandoned. Not once the match has a result or has ended."""
    if forfeiting not in (0, 1):
        raise TournamentError(_("Say which team forfeits."))
    with transaction.atomic():
        tournament = _locked(p.round.tournament)
        rnd = TournamentRound.objects.select_for_update().get(pk=p.round_id)
        p = Pairing.objects.select_for_update().get(pk=p.pk)
        if p.is_bye:
            raise TournamentError(_("A bye cannot be forfeited."))
        if p.processed_at is not None:
            raise TournamentError(_("This match already has a result."))
        if p.table_id is not None:
            table = Table.objects.get(pk=p.table_id)
            if table.status == Table.Status.FINISHED:
                raise TournamentError(_("This match has ended; its result is on its way."))
            if table.status != Table.Status.ABANDONED:
                stewarding.abandon(table.pk)
        p.winner_team = 1 - forfeiting
        p.forfeit = True
        p.processed_at = timezone.now()
        p.save()
        results.close_round_if_done(rnd)
        loser = p.team_a if forfeiting == 0 else p.team_b
        _log(
            tournament,
            by,
            "forfeit",
            f"round {rnd.number}, board {p.board}: {loser} forfeits",
            round=rnd.number,
            board=p.board,
            team=str(loser),
        )
    return p


def _live_seats(team: TournamentTeam, user: User) -> list[tuple[int, int]]:
    """(table id, seat number) of ``user`` at this team's tables still in play."""
    live = Pairing.objects.filter(
        round__tournament_id=team.tournament_id,
        processed_at__isnull=True,
        table__isnull=False,
        table__status__in=[Table.Status.OPEN, Table.Status.PLAYING],
    )
    live = live.filter(team_a=team) | live.filter(team_b=team)
    return list(
        Seat.objects.filter(table__in=live.values("table"), user=user).values_list(
            "table_id", "number"
        )
    )


def do_replace_player(
    team: TournamentTeam, by: User, old_user: User, new_username: str
) -> TournamentTeam:
    """Put another player in ``old_user``'s place in the team, and in their seat at the team's
    table in play. The newcomer must meet the entry conditions."""
    (new_user,) = _resolve([new_username])
    with transaction.atomic():
        tournament = _locked(team.tournament)
        _check_status(tournament, Status.REGISTRATION, Status.RUNNING, Status.PAUSED)
        member = TeamMember.objects.filter(team=team, user=old_user).first()
        if member is None:
            raise TournamentError(
                _("%(name)s is not in team “%(team)s”.")
                % {"name": old_user.username, "team": team.name}
            )
        check_entry(tournament, [new_user])
        member.user = new_user
        member.save(update_fields=["user"])
        for table_id, number in _live_seats(team, old_user):
            try:
                stewarding.hand_seat(table_id, number, user=new_user)
            except TableError as e:
                raise TournamentError(str(e)) from None
        _log(
            tournament,
            by,
            "replace_player",
            f"{team.name}: {old_user.username} → {new_user.username}",
            team=team.name,
            user=old_user.username,
            new_user=new_user.username,
        )
    return team


def do_stand_in(team: TournamentTeam, by: User, user: User, policy: str) -> int:
    """Hand ``user``'s seat at the team's table in play to an AI stand-in (``policy``), or
    back to them (policy ""). Returns how many seats changed."""
    with transaction.atomic():
        tournament = _locked(team.tournament)
        if not TeamMember.objects.filter(team=team, user=user).exists():
            raise TournamentError(
                _("%(name)s is not in team “%(team)s”.")
                % {"name": user.username, "team": team.name}
            )
        seats = _live_seats(team, user)
        if not seats:
            raise TournamentError(_("%(name)s has no table in play.") % {"name": user.username})
        for table_id, number in seats:
            try:
                stewarding.hand_seat(table_id, number, ai_policy=policy)
            except TableError as e:
                raise TournamentError(str(e)) from None
        _log(
            tournament,
            by,
            "stand_in",
            f"{team.name}: {user.username} → {policy or 'back to the player'}",
            team=team.name,
            user=user.username,
            policy=policy,
        )
    return len(seats)
