"""Tournament services: registration, rounds, and the admin actions, each one logged.

Staff pages (``leagues.staff_views``) and Django admin actions (``leagues.admin``) both call
these. Every ``do_*`` runs in one transaction holding the tournament row lock (results arrive
under the round → pairing locks, see ``leagues.results``), writes a ``TournamentLog`` row, and
raises ``TournamentError`` with a message for people when the action does not fit.

Lifecycle: draft → registration → running ⇄ paused → closed. Pausing stops new rounds and
registration; matches already running play on (a live match has no pause, §5 timers run).
Closing names the winner (the first team of the standings) and tells every player.

Registration: the player who registers names their partners; each partner gets a notice to
accept or decline (``do_answer_partner``). The team is pending until all have accepted: only
confirmed teams start and are paired; a decline removes the registration (the others are told),
and teams still pending when the tournament starts are dropped.

A round: pair (``leagues.pairing``: Swiss or round robin), open one table per pairing with the
tournament's options — team A at the even seats (team 0), team B at the odd seats — seat the
teams, start the matches (unless asked not to: a round that has not started can be re-paired),
and leave each player a notice with the table link. A bye is recorded at once as a win with no
levels. A round robin opponent who withdrew gives a bye too.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from games.engine.options import Options, OptionsError
from games.models import Seat, Table
from games.play import stewarding
from games.play.tables import TableError
from leagues import pairing, ratings, results
from leagues.models import (
    Membership,
    Notice,
    Pairing,
    TeamMember,
    Tournament,
    TournamentLog,
    TournamentRound,
    TournamentTeam,
)
from leagues.notices import do_notify

Status = Tournament.Status


class TournamentError(Exception):
    """A tournament action that cannot be done now (the message says why)."""


def _log(tournament: Tournament, by, action: str, detail: str = "") -> None:
    TournamentLog.objects.create(tournament=tournament, actor=by, action=action, detail=detail)


def _locked(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def _check_status(tournament: Tournament, *allowed: str) -> None:
    if tournament.status not in allowed:
        raise TournamentError(
            _("Not possible while the tournament is “%(status)s”.")
            % {"status": tournament.get_status_display()}
        )


# --- creating and opening -----------------------------------------------------------------------


def check_table_options(options: dict, team_size: int) -> None:
    """Raise TournamentError unless ``options`` are §10 options a table of ``team_size * 2``
    seats accepts (``Options.from_dict``)."""
    if not isinstance(options, dict):
        raise TournamentError(_("Table options: %(error)s") % {"error": _("not a set of options")})
    try:
        Options.from_dict(options, players=team_size * 2)
    except OptionsError as e:
        raise TournamentError(_("Table options: %(error)s") % {"error": e}) from None


def do_set_table_options(tournament: Tournament, by, options: dict) -> Tournament:
    """Staff set the tournament's table options (§10 names) for the rounds paired from now on
    (tables already open keep theirs). Not once it is closed. Raises TournamentError."""
    with transaction.atomic():
        tournament = _locked(tournament)
        _check_status(tournament, Status.DRAFT, Status.REGISTRATION, Status.RUNNING, Status.PAUSED)
        check_table_options(options, tournament.team_size)
        tournament.table_options = dict(options)
        tournament.save(update_fields=["table_options"])
        _log(tournament, by, "table_options", ", ".join(f"{k}={v}" for k, v in options.items()))
    return tournament


def do_create_tournament(
    by, *, name: str, format: str = Tournament.Format.SWISS, team_size: int = 2, **fields
) -> Tournament:
    """Create a draft tournament (fields as on the model)."""
    if team_size not in (2, 3):
        raise TournamentError(_("Teams are pairs or trios."))
    check_table_options(fields.get("table_options") or {}, team_size)
    if fields.get("min_rating") is not None and not fields.get("league"):
        raise TournamentError(_("A minimum rating needs a league to take ratings from."))
    with transaction.atomic():
        tournament = Tournament.objects.create(
            name=name, format=format, team_size=team_size, created_by=by, **fields
        )
        _log(tournament, by, "create", f"{format}, teams of {team_size}")
    return tournament


def do_open_registration(tournament: Tournament, by) -> Tournament:
    with transaction.atomic():
        tournament = _locked(tournament)
        _check_status(tournament, Status.DRAFT)
        tournament.status = Status.REGISTRATION
        tournament.save(update_fields=["status"])
        _log(tournament, by, "open_registration")
    return tournament


# --- registration -------------------------------------------------------------------------------


def _resolve(usernames: Sequence[str]) -> list:
    User = get_user_model()
    wanted = Q(pk__in=[])
    for name in usernames:
        wanted |= Q(username__iexact=name.strip())
    found = {u.username.casefold(): u for u in User.objects.filter(wanted, is_active=True)}
    players = []
    for name in usernames:
        user = found.get(name.strip().casefold())
        if user is None:
            raise TournamentError(_("No player is called “%(name)s”.") % {"name": name.strip()})
        players.append(user)
    return players


def check_entry(tournament: Tournament, players: Sequence) -> None:
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
    tournament: Tournament, user, partners: Sequence, now: datetime | None = None
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
    tournament: Tournament, user, partner_names: Sequence[str], name: str = ""
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
        )
    return team


def do_answer_partner(team: TournamentTeam, user, accept: bool) -> TournamentTeam | None:
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
            _log(tournament, user, "partner_decline", f"{name}: {user.username} declined")
            return None
        member.pending = False
        member.save(update_fields=["pending"])
        _log(tournament, user, "partner_accept", f"{team.name}: {user.username} accepted")
        if not team.members.filter(pending=True).exists():
            do_notify([*others, user], Notice.Kind.TEAM_CONFIRMED, tournament=tournament, team=team)
    return team


def do_withdraw_team(team: TournamentTeam, by) -> TournamentTeam:
    """Withdraw a team: it is not paired again (its results so far stay)."""
    with transaction.atomic():
        tournament = _locked(team.tournament)
        _check_status(tournament, Status.REGISTRATION, Status.RUNNING, Status.PAUSED)
        team = TournamentTeam.objects.get(pk=team.pk)
        if team.withdrawn:
            raise TournamentError(_("This team has already withdrawn."))
        team.withdrawn = True
        team.save(update_fields=["withdrawn"])
        _log(tournament, by, "withdraw", team.name)
    return team


# --- running ------------------------------------------------------------------------------------


def do_start(tournament: Tournament, by) -> Tournament:
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
            _log(tournament, by, "drop_unconfirmed", ", ".join(dropped))
        tournament.status = Status.RUNNING
        tournament.save(update_fields=["status"])
        _log(tournament, by, "start", f"{tournament.teams.count()} teams")
    return tournament


def do_pause(tournament: Tournament, by) -> Tournament:
    """Pause: no new round until resumed; matches in play carry on."""
    return _switch(tournament, by, Status.RUNNING, Status.PAUSED, "pause")


def do_resume(tournament: Tournament, by) -> Tournament:
    """Resume a paused tournament: rounds may be generated again."""
    return _switch(tournament, by, Status.PAUSED, Status.RUNNING, "resume")


def _switch(tournament: Tournament, by, before: str, after: str, action: str) -> Tournament:
    with transaction.atomic():
        tournament = _locked(tournament)
        _check_status(tournament, before)
        tournament.status = after
        tournament.save(update_fields=["status"])
        _log(tournament, by, action)
    return tournament


def do_close(tournament: Tournament, by) -> Tournament:
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
        _log(tournament, by, "close", f"winner: {winner.name}" if winner else "no winner")
    return tournament


def planned_rounds(tournament: Tournament) -> int:
    teams = tournament.teams.count()
    planned = tournament.planned_rounds or pairing.rounds_needed(tournament.format, teams)
    if tournament.format == Tournament.Format.ROUND_ROBIN:
        planned = min(planned, pairing.rounds_needed(Tournament.Format.ROUND_ROBIN, teams))
    return planned


def do_generate_round(
    tournament: Tournament, by, *, start: bool = True, stand_in: str = ""
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
        _log(tournament, by, "generate_round", _describe(rnd))
    return rnd


def _describe(rnd: TournamentRound) -> str:
    return f"round {rnd.number}: " + "; ".join(str(p).split(": ", 1)[1] for p in rnd.pairings.all())


def _pair_round(
    tournament: Tournament,
    rnd: TournamentRound,
    by,
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
        table = results.tournament_standings(tournament)
        ranked = [row.entrant for row in table if row.entrant in active]
        scores = {row.entrant: row.points for row in table}
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
        seats: list = [None] * tournament.seats
        for i, member in enumerate(team_a.members.all()):
            seats[2 * i] = (member.user, stand_in)
        for i, member in enumerate(team_b.members.all()):
            seats[2 * i + 1] = (member.user, stand_in)
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
        do_notify(
            [s[0] for s in seats], Notice.Kind.TABLE_READY, tournament=tournament, table=table
        )
    for team in byes:
        board += 1
        Pairing.objects.create(
            round=rnd, board=board, team_a=teams[team], winner_team=0, processed_at=now
        )
    rnd.status = TournamentRound.Status.PLAYING if start else TournamentRound.Status.PAIRED
    rnd.save(update_fields=["status"])
    results.close_round_if_done(rnd)


def do_start_round(rnd: TournamentRound, by) -> TournamentRound:
    """Deal every match of a round that was paired without starting."""
    with transaction.atomic():
        tournament = _locked(rnd.tournament)
        _check_status(tournament, Status.RUNNING)
        rnd = TournamentRound.objects.select_for_update().get(pk=rnd.pk)
        if rnd.status != TournamentRound.Status.PAIRED:
            raise TournamentError(_("This round has already started."))
        for p in rnd.pairings.filter(table__isnull=False):
            try:
                stewarding.start_table(p.table_id)
            except TableError as e:
                raise TournamentError(str(e)) from None
        rnd.status = TournamentRound.Status.PLAYING
        rnd.save(update_fields=["status"])
        _log(tournament, by, "start_round", f"round {rnd.number}")
    return rnd


def do_repair_round(
    rnd: TournamentRound, by, *, start: bool = False, stand_in: str = ""
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
        before = _describe(rnd)
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
        _log(tournament, by, "repair_round", f"{before} → {_describe(rnd)}")
    return rnd


# --- match-level actions ------------------------------------------------------------------------


def do_forfeit(p: Pairing, by, forfeiting: int) -> Pairing:
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
        _log(tournament, by, "forfeit", f"round {rnd.number}, board {p.board}: {loser} forfeits")
    return p


def _live_seats(team: TournamentTeam, user):
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


def do_replace_player(team: TournamentTeam, by, old_user, new_username: str) -> TournamentTeam:
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
        )
    return team


def do_stand_in(team: TournamentTeam, by, user, policy: str) -> int:
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
        )
    return len(seats)
