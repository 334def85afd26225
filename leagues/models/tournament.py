"""Tournaments: the tournament, its fixed teams and their players, its rounds and pairings, and
the log of every admin action on it. And who may see a tournament: the predicate
(``can_see_tournament``) beside the queryset filter that agrees with it (``tournament_q``,
``Tournament.objects.visible_to``); ``leagues.access`` states the rule.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.engine.cards import face_name
from leagues.models.league import League, can_see_league, league_q, signed_in
from leagues.models.options import check_options_field
from leagues.models.played import PlayedAtTable

if TYPE_CHECKING:
    from django.contrib.auth.models import _User as User  # (the leagues import no accounts)

    from games.access import Viewer

USER = settings.AUTH_USER_MODEL


def tournament_q(user: Viewer, prefix: str = "") -> Q:
    """The ``Q`` of the tournaments ``user`` may see (``prefix`` as in ``league_q``)."""
    if signed_in(user) and user.is_staff:
        return Q()
    return ~Q(**{f"{prefix}status": Tournament.Status.DRAFT}) & (
        Q(**{f"{prefix}league__isnull": True}) | league_q(user, f"{prefix}league__")
    )


def can_see_tournament(user: Viewer, tournament: Tournament) -> bool:
    """Whether ``user`` may see ``tournament``: the rule of ``tournament_q``."""
    if signed_in(user) and user.is_staff:
        return True
    if tournament.status == tournament.Status.DRAFT:
        return False
    return tournament.league is None or can_see_league(user, tournament.league)


#: The most rounds a tournament may plan: a Swiss of 15 rounds ranks 32,768 teams.
MAX_ROUNDS = 15


class TournamentQuerySet(models.QuerySet["Tournament"]):
    """Tournaments, with ``visible_to``."""

    def visible_to(self, user: Viewer) -> TournamentQuerySet:
        """The tournaments ``user`` may see (``can_see_tournament``)."""
        return self.filter(tournament_q(user))


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
        problems = self.settings_problems()
        if problems:
            raise ValidationError(problems)

    def settings_problems(self) -> dict[str, str]:
        """What is wrong with its settings, by field (empty when nothing is): registration
        closes after it opens, a rated tournament has a league (its ratings are the league's),
        at most ``MAX_ROUNDS`` rounds, and a Swiss no more rounds than an all-play-all of its
        teams once they are known (teams − 1; more would repeat meetings). The staff form, the
        admin (``clean``) and ``leagues.tournaments.do_create_tournament`` all ask this check."""
        problems: dict[str, str] = {}
        opens, closes = self.registration_opens, self.registration_closes
        if opens and closes and closes <= opens:
            problems["registration_closes"] = gettext("Registration must close after it opens.")
        if self.rated and self.league_id is None:
            problems["rated"] = gettext(
                "A rated tournament needs a league: its ratings are the league's."
            )
        if self.min_rating is not None and self.league_id is None:
            problems["min_rating"] = gettext(
                "A minimum rating needs a league to take ratings from."
            )
        if self.planned_rounds > MAX_ROUNDS:
            problems["planned_rounds"] = gettext("At most %(n)d rounds.") % {"n": MAX_ROUNDS}
        elif self.pk and self.format == self.Format.SWISS and self.planned_rounds:
            teams = self.teams.filter(withdrawn=False).count()
            # All-play-all: teams − 1 rounds, or teams when one team rests each round.
            most = teams - 1 if teams % 2 == 0 else teams
            if teams >= 2 and self.planned_rounds > most:
                problems["planned_rounds"] = gettext(
                    "%(teams)d teams play at most %(n)d Swiss rounds without meeting twice."
                ) % {"teams": teams, "n": most}
        return problems

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

    def users(self) -> list[User]:
        """The team's members' users."""
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


class Pairing(PlayedAtTable, models.Model):
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
    def winner(self) -> TournamentTeam | None:
        if self.winner_team is None:
            return None
        return self.team_a if self.winner_team == 0 else self.team_b

    @property
    def final_levels(self) -> tuple[str, str]:
        """Both teams' final levels (faces), as at the table: 2 plus the levels gained."""
        return face_name(2 + self.levels_a), face_name(2 + self.levels_b)


class TournamentLog(models.Model):
    """Every admin action on a tournament: who, what, when, and the details: ``detail`` a line
    of English for the admin, ``data`` the same facts as fields (team, user, round, ...) from
    which ``leagues.tournament_log`` writes the entry's sentence in the reader's language
    (rows written before ``data`` have ``{}``)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="log")
    actor = models.ForeignKey(USER, null=True, on_delete=models.SET_NULL, related_name="+")
    action = models.CharField(max_length=40)
    detail = models.TextField(blank=True)
    data = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.tournament}: {self.action}"
