"""A league's seasons and their fixtures: who plays on which team, the fixture's table, and
(once, ``leagues.results``) its result.

``Season.league`` names ``League`` by its label: ``League.current_season`` reads ``Season``, so
``leagues.models.league`` imports this module and not the other way round.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from django.contrib.auth.models import _User as User  # (the leagues import no accounts)

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from games.engine.cards import face_name
from leagues.models.options import check_options_field
from leagues.models.played import PlayedAtTable

USER = settings.AUTH_USER_MODEL


class Season(models.Model):
    class Format(models.TextChoices):
        OPEN = "open", _("Open: members schedule their own matches")
        ROUND_ROBIN = "round_robin", _("Round robin: organisers schedule all-play-all")

    class Status(models.TextChoices):
        PLANNED = "planned", _("Planned")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    league = models.ForeignKey("leagues.League", on_delete=models.CASCADE, related_name="seasons")
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

    def effective_options(self) -> dict[str, Any]:
        """The options its fixtures' tables get: the season's own, else the league's."""
        options: dict[str, Any] = self.table_options or self.league.table_options  # (JSON)
        return options


class Fixture(PlayedAtTable, models.Model):
    """A league match: who plays on which team, its table, and (once) its result."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="fixtures")
    table = models.OneToOneField(
        "games.Table", null=True, blank=True, on_delete=models.SET_NULL, related_name="fixture"
    )
    scheduled_at = models.DateTimeField(_("scheduled at"), null=True, blank=True)
    # The round of a round-robin season's schedule (``leagues.round_robin``); none for a
    # fixture scheduled by hand.
    round = models.PositiveSmallIntegerField(_("round"), null=True, blank=True)
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
        ordering = ["season", "round", "scheduled_at", "pk"]

    def __str__(self) -> str:
        return f"{self.season} fixture {self.pk}"

    def team(self, number: int) -> list[User]:
        """The users seated on engine team ``number`` (0 or 1) of this fixture."""
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
