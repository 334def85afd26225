"""Leagues, seasons, fixtures, ratings, tournaments and their records.

A league match or a tournament match is an ordinary ``games.Table``; ``Fixture.table`` and
``Pairing.table`` link it here. Results are copied onto the fixture or pairing once, when the
match ends (``leagues.results``); ``processed_at`` is the marker that makes that happen once.
Standings are computed from those results by ``leagues.standings`` (never stored), so they
cannot drift from the results they summarise.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from games.engine.cards import face_name
from games.engine.options import Options, OptionsError
from leagues.access import LeagueQuerySet, TournamentQuerySet
from leagues.skill import DEFAULT_MU, DEFAULT_SIGMA, ordinal

USER = settings.AUTH_USER_MODEL


def check_options_field(options, players: int) -> None:
    """Raise ValidationError (on ``table_options``) unless ``options`` is a dict of §10 options
    a table of ``players`` seats accepts (``games.engine.options.Options.from_dict``)."""
    if not isinstance(options, dict):
        raise ValidationError({"table_options": _("Table options are a set of named options.")})
    try:
        Options.from_dict(options, players=players)
    except OptionsError as e:
        raise ValidationError({"table_options": str(e)}) from None


class League(models.Model):
    class Visibility(models.TextChoices):
        PUBLIC = "public", _("Public")
        INVITE_ONLY = "invite", _("Invite only")

    class JoinPolicy(models.TextChoices):
        OPEN = "open", _("Anyone may join")
        APPROVAL = "approval", _("An organiser approves")

    name = models.CharField(_("name"), max_length=80)
    slug = models.SlugField(_("slug"), unique=True)
    description = models.TextField(_("description"), blank=True)
    visibility = models.CharField(
        _("visibility"), max_length=10, choices=Visibility, default=Visibility.PUBLIC
    )
    join_policy = models.CharField(
        _("join policy"), max_length=10, choices=JoinPolicy, default=JoinPolicy.OPEN
    )
    table_options = models.JSONField(
        _("default table options"),
        default=dict,
        blank=True,
        help_text=_("The rules of its tables, as a host chooses them when opening a table."),
    )
    players = models.PositiveSmallIntegerField(_("seats per table"), default=4)
    rated = models.BooleanField(
        _("rated"), default=True, help_text=_("League matches change ratings.")
    )
    #: Whether bot accounts (``User.is_bot``) may play this league's fixtures; elsewhere a bot
    #: plays casual tables only (``accounts.bots``).
    allow_bots = models.BooleanField(
        _("allow bots"),
        default=False,
        help_text=_("Bot accounts may play this league's fixtures."),
    )
    organisers = models.ManyToManyField(
        USER, blank=True, related_name="organised_leagues", verbose_name=_("organisers")
    )
    created_by = models.ForeignKey(
        USER, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = LeagueQuerySet.as_manager()

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("leagues:detail", args=[self.slug])

    def clean(self) -> None:
        """The table options must be rules options a table accepts (as the admin saves them)."""
        check_options_field(self.table_options, self.players)

    def is_organiser(self, user) -> bool:
        """Organisers and staff run the league."""
        if user is None or not user.is_authenticated:
            return False
        return user.is_staff or self.organisers.filter(pk=user.pk).exists()

    def current_season(self) -> Season | None:
        """The running season, else the latest one."""
        seasons = self.seasons.order_by("-starts_on", "-pk")
        return seasons.filter(status=Season.Status.RUNNING).first() or seasons.first()


class Membership(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for approval")
        ACTIVE = "active", _("Member")
        LEFT = "left", _("Left")

    class Role(models.TextChoices):
        MEMBER = "member", _("Member")
        ORGANISER = "organiser", _("Organiser")

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="league_memberships")
    status = models.CharField(max_length=10, choices=Status, default=Status.PENDING)
    role = models.CharField(max_length=10, choices=Role, default=Role.MEMBER)
    requested_at = models.DateTimeField(auto_now_add=True)
    joined_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["league", "user__username"]
        constraints = [
            models.UniqueConstraint(fields=["league", "user"], name="one_membership_per_league")
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.league} ({self.status})"


class Season(models.Model):
    class Format(models.TextChoices):
        OPEN = "open", _("Open: members schedule their own matches")
        ROUND_ROBIN = "round_robin", _("Round robin: organisers schedule all-play-all")

    class Status(models.TextChoices):
        PLANNED = "planned", _("Planned")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(_("name"), max_length=80)
    starts_on = models.DateField(_("starts on"))
    ends_on = models.DateField(_("ends on"))
    format = models.CharField(_("format"), max_length=12, choices=Format, default=Format.OPEN)
    status = models.CharField(_("status"), max_length=10, choices=Status, default=Status.RUNNING)
    table_options = models.JSONField(
        _("table options"),
        default=dict,
        blank=True,
        help_text=_("Empty: the league's table options."),
    )

    class Meta:
        ordering = ["league", "-starts_on"]

    def __str__(self) -> str:
        return f"{self.league}: {self.name}"

    def get_absolute_url(self) -> str:
        return reverse("leagues:season", args=[self.league.slug, self.pk])

    def clean(self) -> None:
        if self.table_options and self.league_id:
            check_options_field(self.table_options, self.league.players)

    def effective_options(self) -> dict:
        """The options its fixtures' tables get: the season's own, else the league's."""
        return self.table_options or self.league.table_options


class Fixture(models.Model):
    """A league match: who plays on which team, its table, and (once) its result."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="fixtures")
    table = models.OneToOneField(
        "games.Table", null=True, blank=True, on_delete=models.SET_NULL, related_name="fixture"
    )
    scheduled_at = models.DateTimeField(_("scheduled at"), null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # The result, written once (leagues.results): levels are gained levels (final − 2, §8).
    match = models.ForeignKey(
        "games.Match", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    winner_team = models.PositiveSmallIntegerField(null=True, blank=True)
    levels_team0 = models.PositiveSmallIntegerField(default=0)
    levels_team1 = models.PositiveSmallIntegerField(default=0)
    caught_team0 = models.PositiveSmallIntegerField(default=0)
    caught_team1 = models.PositiveSmallIntegerField(default=0)
    processed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["season", "scheduled_at", "pk"]

    def __str__(self) -> str:
        return f"{self.season} fixture {self.pk}"

    @property
    def is_done(self) -> bool:
        return self.processed_at is not None

    def team(self, number: int) -> list:
        return [p.user for p in self.players.all() if p.team == number]

    @property
    def final_levels(self) -> tuple[str, str]:
        """Both teams' levels at the end (faces): teams start at 2 and gain the stored levels
        (§8) — what the table and its record show, not the levels gained."""
        return face_name(2 + self.levels_team0), face_name(2 + self.levels_team1)


class FixturePlayer(models.Model):
    """One player of a fixture: the team (§0: team = seat mod 2) and the seat they get."""

    fixture = models.ForeignKey(Fixture, on_delete=models.CASCADE, related_name="players")
    user = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="fixture_slots")
    team = models.PositiveSmallIntegerField()
    seat = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["fixture", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["fixture", "user"], name="one_slot_per_player"),
            models.UniqueConstraint(fields=["fixture", "seat"], name="one_player_per_seat"),
        ]

    def __str__(self) -> str:
        return f"{self.user} seat {self.seat}"


class Rating(models.Model):
    """A player's openskill rating in one league (PlackettLuce: mu, sigma)."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="ratings")
    user = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="league_ratings")
    mu = models.FloatField(default=DEFAULT_MU)
    sigma = models.FloatField(default=DEFAULT_SIGMA)
    matches = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["league", "-mu"]
        constraints = [
            models.UniqueConstraint(fields=["league", "user"], name="one_rating_per_league")
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.league}: {self.display}"

    @property
    def ordinal(self) -> float:
        """The shown rating: mu − 3·sigma (openskill's ordinal), 0 for a new player."""
        return self.mu - 3 * self.sigma

    @property
    def display(self) -> str:
        return f"{self.ordinal:.1f}"


class RatingHistory(models.Model):
    """One rating change: before and after, and the match that caused it (at most once)."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="rating_history")
    user = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="rating_history")
    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="+")
    won = models.BooleanField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name_plural = "rating history"
        constraints = [
            models.UniqueConstraint(
                fields=["league", "user", "match"], name="one_rating_change_per_match"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user}: {self.before:.1f} → {self.after:.1f}"

    @property
    def before(self) -> float:
        return self.mu_before - 3 * self.sigma_before

    @property
    def after(self) -> float:
        return self.mu_after - 3 * self.sigma_after

    @property
    def change(self) -> float:
        return self.after - self.before


class Tournament(models.Model):
    class Format(models.TextChoices):
        ROUND_ROBIN = "round_robin", _("Round robin")
        SWISS = "swiss", _("Swiss")

    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        REGISTRATION = "registration", _("Registration open")
        RUNNING = "running", _("Running")
        PAUSED = "paused", _("Paused")
        CLOSED = "closed", _("Closed")

    TEAM_SIZES = ((2, _("Pairs (4-seat tables)")), (3, _("Trios (6-seat tables)")))

    name = models.CharField(_("name"), max_length=100)
    description = models.TextField(_("description"), blank=True)
    format = models.CharField(_("format"), max_length=12, choices=Format, default=Format.SWISS)
    team_size = models.PositiveSmallIntegerField(_("team size"), choices=TEAM_SIZES, default=2)
    planned_rounds = models.PositiveSmallIntegerField(
        _("rounds"),
        default=0,
        help_text=_("0: round robin plays everyone once; Swiss plays ⌈log2 teams⌉ rounds."),
    )
    registration_opens = models.DateTimeField(_("registration opens"), null=True, blank=True)
    registration_closes = models.DateTimeField(_("registration closes"), null=True, blank=True)
    league = models.ForeignKey(
        League,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="tournaments",
        verbose_name=_("league"),
        help_text=_(
            "Only its active members may enter; its ratings are used for the minimum rating."
        ),
    )
    min_rating = models.FloatField(_("minimum rating"), null=True, blank=True)
    table_options = models.JSONField(
        _("table options"),
        default=dict,
        blank=True,
        help_text=_("The rules of its tables, as a host chooses them when opening a table."),
    )
    rated = models.BooleanField(
        _("rated"), default=False, help_text=_("Matches change ratings in the tournament's league.")
    )
    status = models.CharField(_("status"), max_length=12, choices=Status, default=Status.DRAFT)
    # Set when the tournament closes: the first team of its standings (none if nothing played).
    winner = models.ForeignKey(
        "TournamentTeam",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("winner"),
    )
    created_by = models.ForeignKey(USER, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    objects = TournamentQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournaments:detail", args=[self.pk])

    def clean(self) -> None:
        check_options_field(self.table_options, self.team_size * 2)

    @property
    def seats(self) -> int:
        return self.team_size * 2


class TournamentTeam(models.Model):
    """A fixed pair or trio. ``withdrawn`` teams are not paired again."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(_("team name"), max_length=60)
    registered_at = models.DateTimeField(auto_now_add=True)
    registered_by = models.ForeignKey(USER, null=True, on_delete=models.SET_NULL, related_name="+")
    withdrawn = models.BooleanField(default=False)

    class Meta:
        ordering = ["tournament", "registered_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "name"], name="unique_team_name")
        ]

    def __str__(self) -> str:
        return self.name

    def users(self) -> list:
        return [m.user for m in self.members.all()]

    @property
    def is_confirmed(self) -> bool:
        """Every partner named at registration has accepted (only confirmed teams are
        paired)."""
        return not any(m.pending for m in self.members.all())


class TeamMember(models.Model):
    """A player in a team; one team per player per tournament."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    team = models.ForeignKey(TournamentTeam, on_delete=models.CASCADE, related_name="members")
    user = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="tournament_entries")
    position = models.PositiveSmallIntegerField()
    # A partner named at registration stays pending until they accept the notice asking them.
    pending = models.BooleanField(default=False)

    class Meta:
        ordering = ["team", "position"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="one_team_per_player"),
            models.UniqueConstraint(fields=["team", "position"], name="unique_team_position"),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.team}"


class TournamentRound(models.Model):
    class Status(models.TextChoices):
        PAIRED = "paired", _("Paired, not started")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=10, choices=Status, default=Status.PAIRED)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "number"], name="unique_round_per_tournament"
            )
        ]

    def __str__(self) -> str:
        return f"{self.tournament} round {self.number}"


class Pairing(models.Model):
    """Two teams at one table (``team_a`` at the even seats: team 0, shown as "Team 1";
    ``team_b`` at the odd seats), or a bye (``team_b`` empty)."""

    round = models.ForeignKey(TournamentRound, on_delete=models.CASCADE, related_name="pairings")
    board = models.PositiveSmallIntegerField(default=1)
    team_a = models.ForeignKey(TournamentTeam, on_delete=models.CASCADE, related_name="+")
    team_b = models.ForeignKey(
        TournamentTeam, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    table = models.OneToOneField(
        "games.Table", null=True, blank=True, on_delete=models.SET_NULL, related_name="pairing"
    )
    # The result, written once: winner_team 0 = team A, 1 = team B (as at the table, §0).
    match = models.ForeignKey(
        "games.Match", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    winner_team = models.PositiveSmallIntegerField(null=True, blank=True)
    levels_a = models.PositiveSmallIntegerField(default=0)
    levels_b = models.PositiveSmallIntegerField(default=0)
    caught_a = models.PositiveSmallIntegerField(default=0)
    caught_b = models.PositiveSmallIntegerField(default=0)
    forfeit = models.BooleanField(default=False)
    processed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["round", "board"]

    def __str__(self) -> str:
        if self.team_b_id is None:
            return f"{self.round}: {self.team_a} (bye)"
        return f"{self.round}: {self.team_a} v {self.team_b}"

    @property
    def is_bye(self) -> bool:
        return self.team_b_id is None

    @property
    def is_done(self) -> bool:
        return self.processed_at is not None

    @property
    def winner(self) -> TournamentTeam | None:
        if self.winner_team is None:
            return None
        return self.team_a if self.winner_team == 0 else self.team_b

    @property
    def final_levels(self) -> tuple[str, str]:
        """Both teams' final levels (faces), as at the table: 2 plus the levels gained."""
        return face_name(2 + self.levels_a), face_name(2 + self.levels_b)


class TournamentLog(models.Model):
    """Every admin action on a tournament: who, what, when, and the details."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="log")
    actor = models.ForeignKey(USER, null=True, on_delete=models.SET_NULL, related_name="+")
    action = models.CharField(max_length=40)
    detail = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.tournament}: {self.action}"


class Notice(models.Model):
    """Something a player should see: e.g. their tournament table is ready (with its link)."""

    class Kind(models.TextChoices):
        TABLE_READY = "table_ready", _("Your table is ready")
        FIXTURE_READY = "fixture_ready", _("Your league match is ready")
        MEMBERSHIP_APPROVED = "approved", _("You joined a league")
        PARTNER_REQUEST = "partner_request", _("A player named you as their partner")
        PARTNER_DECLINED = "partner_declined", _("A partner declined")
        TEAM_CONFIRMED = "team_confirmed", _("Your team is confirmed")
        TOURNAMENT_CLOSED = "tournament_closed", _("A tournament is over")
        TABLE_INVITE = "table_invite", _("A player invites you to a table")
        YOUR_TURN = "your_turn", _("It is your turn at a table")

    user = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="notices")
    kind = models.CharField(max_length=20, choices=Kind)
    tournament = models.ForeignKey(
        Tournament, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    league = models.ForeignKey(
        League, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    table = models.ForeignKey(
        "games.Table", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    team = models.ForeignKey(
        TournamentTeam, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    # Who the notice is about (the player who named you, the partner who declined).
    about = models.ForeignKey(
        USER, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    seen_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.user}: {self.kind}"


# --- the site-wide rating (leagues.ratings.do_rate_site_match, the leaderboard) -------------


class SiteRating(models.Model):
    """A person's openskill rating over every rated table of the site, leagues' included
    (PlackettLuce: mu, sigma; a league keeps its own too, ``Rating``).
    ``ordinal`` (mu − 3·sigma, the shown rating) is stored so the leaderboard reads it from
    an index."""

    user = models.OneToOneField(USER, on_delete=models.CASCADE, related_name="site_rating")
    mu = models.FloatField(default=DEFAULT_MU)
    sigma = models.FloatField(default=DEFAULT_SIGMA)
    ordinal = models.FloatField(default=0.0, db_index=True)
    matches = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-ordinal"]
        verbose_name = _("site rating")

    def __str__(self) -> str:
        return f"{self.user}: {self.display}"

    @property
    def display(self) -> str:
        return f"{self.ordinal:.1f}"


class SiteRatingChange(models.Model):
    """One rated match's change of a person's site rating (at most once per match)."""

    user = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="site_rating_changes")
    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="+")
    won = models.BooleanField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["user", "match"], name="one_site_rating_change")
        ]

    def __str__(self) -> str:
        return f"{self.user}: {self.before:.1f} → {self.after:.1f}"

    @property
    def before(self) -> float:
        return ordinal(self.mu_before, self.sigma_before)

    @property
    def after(self) -> float:
        return ordinal(self.mu_after, self.sigma_after)
