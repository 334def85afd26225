"""Ratings: a player's openskill rating in one league (``Rating``, ``RatingHistory``) and over
the whole site (``SiteRating``, ``SiteRatingChange``; the leaderboard). ``leagues.ratings``
writes them; the maths and its defaults are ``leagues.skill``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from leagues.models.league import League
from leagues.skill import DEFAULT_MU, DEFAULT_SIGMA, ordinal

USER = settings.AUTH_USER_MODEL


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
        return ordinal(self.mu, self.sigma)

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
        return ordinal(self.mu_before, self.sigma_before)

    @property
    def after(self) -> float:
        return ordinal(self.mu_after, self.sigma_after)

    @property
    def change(self) -> float:
        return self.after - self.before


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
