"""League services: leagues, membership, seasons, fixtures and manual results.

``check_*`` validate (and lock, where they say so) and raise ``LeagueError`` with a message for
people; ``do_*`` change things inside one transaction (their docstrings state the locks they
need). Results from played matches arrive through ``leagues.results``; tournaments are in
``leagues.tournaments``.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from typing import TYPE_CHECKING, Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from games.live.teams import team_name
from games.play import stewarding
from games.play.tables import SEAT_COUNTS, TableError
from leagues.access import can_see_league
from leagues.models import Fixture, FixturePlayer, League, Membership, Notice, Season
from leagues.models.options import options_problem
from leagues.notices import do_notify

if TYPE_CHECKING:
    from django.contrib.auth.models import _User as User  # (the leagues import no accounts)

    from games.access import Viewer

#: League addresses that are pages of /leagues/ itself.
RESERVED_SLUGS = {"new", "notices"}


class LeagueError(Exception):
    """A league action that cannot be done now (the message says why)."""


def check_table_options(options: dict[str, Any], players: int) -> None:
    """Raise LeagueError unless ``options`` could open a table of ``players`` seats
    (``leagues.models.options.options_problem``): nothing is saved that could not open a
    fixture's table."""
    problem = options_problem(options, players)
    if problem is not None:
        raise LeagueError(problem)


# --- leagues and members ------------------------------------------------------------------------


def do_create_league(
    by: User,
    *,
    name: str,
    slug: str = "",
    description: str = "",
    visibility: str = League.Visibility.PUBLIC,
    join_policy: str = League.JoinPolicy.OPEN,
    table_options: dict[str, Any] | None = None,
    players: int = 4,
    rated: bool = True,
) -> League:
    """Create a league; its creator becomes its first organiser (and an active member).
    Raises LeagueError for a bad name, address, seat count or table options."""
    if players not in SEAT_COUNTS:
        raise LeagueError(_("A table has 2, 4, 6 or 8 seats."))
    check_table_options(table_options or {}, players)
    slug = slug or slugify(name)
    if not slug:
        raise LeagueError(_("Give the league a name made of letters or digits."))
    if slug in RESERVED_SLUGS:
        raise LeagueError(_("That address is taken by a page of the site."))
    try:
        with transaction.atomic():
            league = League.objects.create(
                name=name,
                slug=slug,
                description=description,
                visibility=visibility,
                join_policy=join_policy,
                table_options=table_options or {},
                players=players,
                rated=rated,
                created_by=by,
            )
    except IntegrityError:
        raise LeagueError(_("A league with that address already exists.")) from None
    do_set_organiser(league, by, by)
    return league


def check_organiser(league: League, user: User) -> None:
    if not league.is_organiser(user):
        raise LeagueError(_("Only the league's organisers can do that."))


def do_set_league_options(league: League, by: User, options: dict[str, Any]) -> League:
    """An organiser (or staff) sets the league's table options (§10 names), used by every
    fixture scheduled from now on (tables already open keep theirs). Raises LeagueError."""
    check_organiser(league, by)
    check_table_options(options, league.players)
    league.table_options = dict(options)
    league.save(update_fields=["table_options"])
    return league


def do_set_allow_bots(league: League, by: User, allow: bool) -> League:
    """An organiser (or staff) lets bot accounts (the bot API, ``User.is_bot``) play the
    league's fixtures from now on, or stops them. Raises LeagueError."""
    check_organiser(league, by)
    league.allow_bots = bool(allow)
    league.save(update_fields=["allow_bots"])
    return league


def do_set_season_options(season: Season, by: User, options: dict[str, Any] | None) -> Season:
    """An organiser sets a season's own table options, or clears them (``None`` or ``{}``:
    the season's fixtures use the league's). Raises LeagueError."""
    check_organiser(season.league, by)
    options = dict(options or {})
    if options:
        check_table_options(options, season.league.players)
    season.table_options = options
    season.save(update_fields=["table_options"])
    return season


def can_see(league: League, user: Viewer) -> bool:
    """Public leagues are seen by all; invite-only ones by their members and organisers (and
    staff): ``leagues.access.can_see_league``."""
    return can_see_league(user, league)


def _locked_membership(league: League, user: User) -> Membership:
    membership, _created = Membership.objects.get_or_create(
        league=league, user=user, defaults={"status": Membership.Status.LEFT}
    )
    return Membership.objects.select_for_update().get(pk=membership.pk)


def do_join(league: League, user: User) -> Membership:
    """Join: active at once in an open league, pending where an organiser approves.
    Invite-only leagues are joined only when an organiser adds you."""
    if league.visibility == League.Visibility.INVITE_ONLY:
        raise LeagueError(_("This league is invite-only: ask an organiser to add you."))
    with transaction.atomic():
        membership = _locked_membership(league, user)
        if membership.status == Membership.Status.ACTIVE:
            raise LeagueError(_("You are already a member."))
        if membership.status == Membership.Status.PENDING:
            raise LeagueError(_("Your request is waiting for an organiser."))
        if league.join_policy == League.JoinPolicy.OPEN:
            membership.status, membership.joined_at = Membership.Status.ACTIVE, timezone.now()
        else:
            membership.status = Membership.Status.PENDING
        membership.save()
    return membership


def do_leave(league: League, user: User) -> Membership:
    """Leave a league (or withdraw a pending request). Results already played stay."""
    with transaction.atomic():
        membership = _locked_membership(league, user)
        if membership.status == Membership.Status.LEFT:
            raise LeagueError(_("You are not a member."))
        membership.status = Membership.Status.LEFT
        membership.role = Membership.Role.MEMBER
        membership.save()
        league.organisers.remove(user)
    return membership


def do_approve(league: League, by: User, user: User) -> Membership:
    """An organiser approves a pending request."""
    check_organiser(league, by)
    with transaction.atomic():
        membership = _locked_membership(league, user)
        if membership.status != Membership.Status.PENDING:
            raise LeagueError(_("%(name)s has no pending request.") % {"name": user.username})
        membership.status, membership.joined_at = Membership.Status.ACTIVE, timezone.now()
        membership.save()
        do_notify([user], Notice.Kind.MEMBERSHIP_APPROVED, league=league)
    return membership


def do_decline(league: League, by: User, user: User) -> None:
    """An organiser declines a pending request (the player may ask again)."""
    check_organiser(league, by)
    with transaction.atomic():
        membership = _locked_membership(league, user)
        if membership.status != Membership.Status.PENDING:
            raise LeagueError(_("%(name)s has no pending request.") % {"name": user.username})
        membership.status = Membership.Status.LEFT
        membership.save()


def do_add_member(league: League, by: User, user: User) -> Membership:
    """An organiser adds a player directly (how invite-only leagues grow)."""
    check_organiser(league, by)
    with transaction.atomic():
        membership = _locked_membership(league, user)
        if membership.status == Membership.Status.ACTIVE:
            raise LeagueError(_("%(name)s is already a member.") % {"name": user.username})
        membership.status, membership.joined_at = Membership.Status.ACTIVE, timezone.now()
        membership.save()
        do_notify([user], Notice.Kind.MEMBERSHIP_APPROVED, league=league)
    return membership


def do_set_organiser(league: League, by: User, user: User) -> Membership:
    """Make ``user`` an organiser (and an active member). The first call may be the creator's
    own; after that only organisers or staff may add organisers."""
    if league.organisers.exists():
        check_organiser(league, by)
    with transaction.atomic():
        membership = _locked_membership(league, user)
        if membership.status != Membership.Status.ACTIVE:
            membership.status, membership.joined_at = Membership.Status.ACTIVE, timezone.now()
        membership.role = Membership.Role.ORGANISER
        membership.save()
        league.organisers.add(user)
    return membership


# --- seasons and fixtures -----------------------------------------------------------------------


def do_create_season(
    league: League,
    by: User,
    *,
    name: str,
    starts_on: date,
    ends_on: date,
    format: str = Season.Format.OPEN,
    status: str = Season.Status.RUNNING,
) -> Season:
    check_organiser(league, by)
    if not name.strip():
        raise LeagueError(_("Give the season a name."))
    if ends_on < starts_on:
        raise LeagueError(_("A season cannot end before it starts."))
    return Season.objects.create(
        league=league, name=name, starts_on=starts_on, ends_on=ends_on, format=format, status=status
    )


def check_fixture(season: Season, by: User, teams: Sequence[Sequence[User]]) -> None:
    """Who may schedule this fixture, and whether its teams fit a table of the league.

    Organisers schedule any fixture; in an open season an active member may schedule one they
    play in. Every player must be an active member, on one team only; both teams the same size
    and together filling the league's table.
    """
    league = season.league
    if season.status == Season.Status.FINISHED:
        raise LeagueError(_("This season is finished."))
    players = [u for team in teams for u in team]
    if len(teams) != 2 or len(teams[0]) != len(teams[1]) or len(players) != league.players:
        raise LeagueError(
            _("A fixture needs two teams of %(n)d players each.") % {"n": league.players // 2}
        )
    if len({u.pk for u in players}) != len(players):
        raise LeagueError(_("A player can be on only one team."))
    bots = [u.username for u in players if getattr(u, "is_bot", False)]
    if bots and not league.allow_bots:
        raise LeagueError(
            _("This league does not allow bots: %(names)s.") % {"names": ", ".join(bots)}
        )
    if not league.is_organiser(by):
        if season.format != Season.Format.OPEN:
            raise LeagueError(_("Only the league's organisers schedule fixtures this season."))
        if by.pk not in {u.pk for u in players}:
            raise LeagueError(_("You can only schedule a fixture you play in."))
    active = set(
        league.memberships.filter(status=Membership.Status.ACTIVE).values_list("user_id", flat=True)
    )
    outsiders = [u.username for u in players if u.pk not in active]
    if outsiders:
        raise LeagueError(
            _("Not members of this league: %(names)s.") % {"names": ", ".join(outsiders)}
        )


def do_create_fixture(
    season: Season,
    by: User,
    teams: Sequence[Sequence[User]],
    scheduled_at: datetime | None = None,
    round_number: int | None = None,
) -> Fixture:
    """Schedule a fixture and open its table: the season's options (else the league's), team
    0 ("Team 1") at the even seats and team 1 ("Team 2") at the odd seats (§0), in the order
    given. The first player of team 0 hosts the table and starts it when everyone is there.
    Options saved before they were checked (an unknown name) raise LeagueError saying where to
    fix them."""
    check_fixture(season, by, teams)
    league = season.league
    try:
        check_table_options(season.effective_options(), league.players)
    except LeagueError as e:
        raise LeagueError(
            _("%(error)s. An organiser can correct them under Organise → Table options.")
            % {"error": e}
        ) from None
    by_seat = {
        team + 2 * i: user for team, members in enumerate(teams) for i, user in enumerate(members)
    }
    seats = [by_seat[n] for n in range(league.players)]  # check_fixture: every seat is taken
    with transaction.atomic():
        fixture = Fixture.objects.create(
            season=season, scheduled_at=scheduled_at, round=round_number
        )
        FixturePlayer.objects.bulk_create(
            FixturePlayer(fixture=fixture, user=u, team=n % 2, seat=n) for n, u in enumerate(seats)
        )
        try:
            table = stewarding.open_table(
                seats[0],
                name=f"{league.name} · {season.name}",
                options=season.effective_options(),
                seats=[(u, "") for u in seats],
                rated=league.rated,
            )
        except TableError as e:
            raise LeagueError(str(e)) from None
        fixture.table = table
        fixture.save(update_fields=["table"])
        do_notify(seats, Notice.Kind.FIXTURE_READY, league=league, table=table)
    return fixture


def do_start_fixture(fixture: Fixture, by: User) -> None:
    """An organiser (or a player of the fixture) deals its match once every seat is taken."""
    if not fixture.season.league.is_organiser(by) and not fixture.players.filter(user=by).exists():
        raise LeagueError(_("Only the fixture's players or organisers can start it."))
    if fixture.table_id is None:
        raise LeagueError(_("This fixture has no table."))
    try:
        stewarding.start_table(fixture.table_id)
    except TableError as e:
        raise LeagueError(str(e)) from None


def do_record_result(
    fixture: Fixture,
    by: User,
    *,
    winner_team: int,
    levels: Sequence[int] = (0, 0),
    caught: Sequence[int] = (0, 0),
) -> Fixture:
    """An organiser records a result by hand (a match played elsewhere, or a table that broke).
    Once only: a fixture with a result keeps it. Hand-recorded results are not rated."""
    check_organiser(fixture.season.league, by)
    if winner_team not in (0, 1):
        raise LeagueError(
            _("The winner is %(first)s or %(second)s.")
            % {"first": team_name(0), "second": team_name(1)}
        )
    with transaction.atomic():
        fixture = Fixture.objects.select_for_update().get(pk=fixture.pk)
        if fixture.processed_at is not None:
            raise LeagueError(_("This fixture already has a result."))
        fixture.winner_team = winner_team
        fixture.levels_team0, fixture.levels_team1 = levels
        fixture.caught_team0, fixture.caught_team1 = caught
        fixture.processed_at = timezone.now()
        fixture.save()
    return fixture
