"""Per-player statistics of finished matches and the site-wide rating.

``PlayerMatch`` is one person's part in one finished match, counted once when it ends
(``stats.record``): profiles add these rows up instead of reading move logs. ``MatchTally``
marks a match as counted (and says whether it was rated), so a repeated signal counts nothing
twice. ``SiteRating`` is a person's openskill rating over every rated table of the site (leagues
keep their own, ``leagues.models.Rating``); ``SiteRatingChange`` one rated match's change.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from leagues.models import DEFAULT_MU, DEFAULT_SIGMA
from leagues.ratings import ordinal as shown_rating

USER = settings.AUTH_USER_MODEL


class MatchTally(models.Model):
    """A finished match whose statistics (and, if ``rated``, site ratings) are recorded."""

    match = models.OneToOneField(
        "games.Match", on_delete=models.CASCADE, primary_key=True, related_name="tally"
    )
    rated = models.BooleanField(default=False)
    recorded_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"tally of {self.match}"


class PlayerMatch(models.Model):
    """One person's part in one finished match (RULES.md §6–§8): the seat they held when it
    ended, whether their team won, the rounds their team took (§7: all its seats out first),
    the rounds they went out first, the levels their team gained (its final level − 2, §8),
    and the hooks, unhooks and bombs made from their seat (an AI stand-in's too)."""

    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="player_stats")
    user = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="match_stats")
    seat = models.PositiveSmallIntegerField()
    team = models.PositiveSmallIntegerField()
    won = models.BooleanField()
    rated = models.BooleanField(default=False)
    resigned = models.BooleanField(default=False)
    rounds_played = models.PositiveSmallIntegerField(default=0)
    rounds_won = models.PositiveSmallIntegerField(default=0)
    first_out = models.PositiveSmallIntegerField(default=0)
    levels_gained = models.PositiveSmallIntegerField(default=0)
    hooks = models.PositiveSmallIntegerField(default=0)
    unhooks = models.PositiveSmallIntegerField(default=0)
    bombs = models.PositiveSmallIntegerField(default=0)
    finished_at = models.DateTimeField()

    class Meta:
        ordering = ["-finished_at"]
        constraints = [
            models.UniqueConstraint(fields=["match", "user"], name="one_tally_per_player")
        ]
        indexes = [models.Index(fields=["user", "-finished_at"], name="player_match_user_idx")]

    def __str__(self) -> str:
        return f"{self.user} in {self.match}"


class SiteRating(models.Model):
    """A person's openskill rating over the site's rated tables (PlackettLuce: mu, sigma).
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
        return shown_rating(self.mu_before, self.sigma_before)

    @property
    def after(self) -> float:
        return shown_rating(self.mu_after, self.sigma_after)
