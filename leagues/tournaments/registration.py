"""Registration: a player registers a team and names their partners; each partner accepts or
declines (``do_answer_partner``); teams withdraw. ``check_entry`` (the entry conditions) also
applies to a player brought in later (``leagues.tournaments.matches.do_replace_player``).

The team is pending until all its partners have accepted: only confirmed teams start and are
paired; a decline removes the registration (the others are told), and teams still pending when
the tournament starts are dropped (``leagues.tournaments.lifecycle.do_start``).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from leagues import ratings
from leagues.models import Membership, Notice, TeamMember, Tournament, TournamentTeam
from leagues.notices import do_notify
from leagues.tournaments.base import Status, TournamentError, _check_status, _locked, _log, _resolve

if TYPE_CHECKING:
    from django.contrib.auth.models import _User as User  # (the leagues import no accounts)


def check_entry(tournament: Tournament, players: Sequence[User]) -> None:
    """Entry conditions for each player: not already in a team here, an active member of the
    tournament's league (if any), and at least its minimum rating there (if any)."""
    taken = TeamMember.objects.filter(tournament=tournament, user__in=players).select_related(
        "user", "team"
    )
    for entry in taken:
        if entry.pending:
            raise TournamentError(
                _(
                    "%(name)s is named in team “%(team)s” and has not answered yet: they can "
                    "decline it from their notices."
                )
                % {"name": entry.user.username, "team": entry.team.name}
            )
        raise TournamentError(
            _("%(name)s is already in team “%(team)s”.")
            % {"name": entry.user.username, "team": entry.team.name}
        )
    league = tournament.league
    if league is None:
        return
    active = set(
        Membership.objects.filter(
            league=league, user__in=players, status=Membership.Status.ACTIVE
        ).values_list("user_id", flat=True)
    )
    for user in players:
        if user.pk not in active:
            raise TournamentError(
                _("%(name)s is not a member of the league “%(league)s”.")
                % {"name": user.username, "league": league.name}
            )
    if tournament.min_rating is not None:
        current = ratings.ratings_for(league, players)
        for user in players:
            rating = current[user.pk]
            if rating.ordinal < tournament.min_rating:
                raise TournamentError(
                    _(
                        "%(name)s's rating in “%(league)s” is %(rating)s; this tournament needs "
                        "at least %(minimum).1f."
                    )
                    % {
                        "name": user.username,
                        "league": league.name,
                        "rating": rating.display,
                        "minimum": tournament.min_rating,
                    }
                )


def check_registration(
    tournament: Tournament, user: User, partners: Sequence[User], now: datetime | None = None
) -> None:
    """Whether ``user`` may register a team with ``partners`` (users) now."""
    now = now or timezone.now()
    if tournament.status != Status.REGISTRATION:
        raise TournamentError(_("Registration is not open."))
    if tournament.registration_opens and now < tournament.registration_opens:
        raise TournamentError(
            _("Registration opens on %(when)s.")
            % {
                "when": date_format(
                    timezone.localtime(tournament.registration_opens), "SHORT_DATETIME_FORMAT"
                )
            }
        )
    if tournament.registration_closes and now > tournament.registration_closes:
        raise TournamentError(
            _("Registration closed on %(when)s.")
            % {
                "when": date_format(
                    timezone.localtime(tournament.registration_closes), "SHORT_DATETIME_FORMAT"
                )
            }
        )
    players = [user, *partners]
    if len(players) != tournament.team_size:
        raise TournamentError(
            _("A team here is %(n)d players: you and %(partners)d partners.")
            % {"n": tournament.team_size, "partners": tournament.team_size - 1}
        )
    if len({p.pk for p in players}) != len(players):
        raise TournamentError(_("Name each partner once, and not yourself."))
    check_entry(tournament, players)


def do_register_team(
    tournament: Tournament, user: User, partner_names: Sequence[str], name: str = ""
) -> TournamentTeam:
    """Register ``user`` and the partners named by username as a team. The partners are
    pending until each accepts the notice they get (``do_answer_partner``)."""
    partners = _resolve(partner_names)
    with transaction.atomic():
        tournament = _locked(tournament)
        check_registration(tournament, user, partners)
        players = [user, *partners]
        name = name.strip() or " & ".join(p.username for p in players)
        try:
            with transaction.atomic():
                team = TournamentTeam.objects.create(
                    tournament=tournament, name=name, registered_by=user
                )
        except IntegrityError:
            raise TournamentError(
                _("A team called “%(name)s” is already registered.") % {"name": name}
            ) from None
        TeamMember.objects.bulk_create(
            TeamMember(tournament=tournament, team=team, user=p, position=i, pending=i > 0)
            for i, p in enumerate(players)
        )
        do_notify(
            partners, Notice.Kind.PARTNER_REQUEST, tournament=tournament, team=team, about=user
        )
        _log(
            tournament,
            user,
            "register",
            f"{name}: {', '.join(p.username for p in players)} "
            f"(waiting for {', '.join(p.username for p in partners)})",
            team=name,
            players=[p.username for p in players],
            waiting=[p.username for p in partners],
        )
    return team


def do_answer_partner(team: TournamentTeam, user: User, accept: bool) -> TournamentTeam | None:
    """``user``, named as a partner in ``team``, accepts or declines, while registration is
    open. Accepting confirms their place (once all have, the team is told it is confirmed);
    declining removes the registration and tells the others. Returns the team, or None when it
    was removed. Raises TournamentError when there is nothing for ``user`` to answer."""
    with transaction.atomic():
        tournament = _locked(team.tournament)
        member = (
            TeamMember.objects.select_for_update()
            .filter(team_id=team.pk, user=user, pending=True)
            .select_related("team")
            .first()
        )
        if member is None:
            raise TournamentError(_("There is no request from this team for you to answer."))
        _check_status(tournament, Status.REGISTRATION)
        team = member.team
        Notice.objects.filter(
            user=user, team=team, kind=Notice.Kind.PARTNER_REQUEST, seen_at__isnull=True
        ).update(seen_at=timezone.now())
        others = [m.user for m in team.members.select_related("user") if m.user_id != user.pk]
        if not accept:
            name = team.name
            team.delete()  # its members and the notices naming it go with it
            do_notify(others, Notice.Kind.PARTNER_DECLINED, tournament=tournament, about=user)
            _log(
                tournament,
                user,
                "partner_decline",
                f"{name}: {user.username} declined",
                team=name,
                user=user.username,
            )
            return None
        member.pending = False
        member.save(update_fields=["pending"])
        _log(
            tournament,
            user,
            "partner_accept",
            f"{team.name}: {user.username} accepted",
            team=team.name,
            user=user.username,
        )
        if not team.members.filter(pending=True).exists():
            do_notify([*others, user], Notice.Kind.TEAM_CONFIRMED, tournament=tournament, team=team)
    return team


def do_withdraw_team(team: TournamentTeam, by: User) -> TournamentTeam:
    """Withdraw a team: it is not paired again (its results so far stay)."""
    with transaction.atomic():
        tournament = _locked(team.tournament)
        _check_status(tournament, Status.REGISTRATION, Status.RUNNING, Status.PAUSED)
        team = TournamentTeam.objects.get(pk=team.pk)
        if team.withdrawn:
            raise TournamentError(_("This team has already withdrawn."))
        team.withdrawn = True
        team.save(update_fields=["withdrawn"])
        _log(tournament, by, "withdraw", team.name, team=team.name)
    return team
