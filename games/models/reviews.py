"""The expert's review of one person's decisions in one round (issue 20; the engine's
``games.engine.review``), made once per finished round per seat a person played
(``games.records.reviews``)."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from games.models.matches import Match


class RoundReview(models.Model):
    """``seat``'s decisions in round ``round_no`` of ``match`` as the expert judged them:
    ``accuracy`` (0–100, None with nothing to weigh) and ``data`` (the decisions, as
    ``games.records.reviews.to_json`` writes them: the seat's own hand and moves, never another
    seat's cards), and only the decisions its person made: not the moves an AI stand-in made at
    the seat (``Move.by_ai``). One per (match, round, seat): a second one is never stored."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="reviews")
    round_no = models.PositiveSmallIntegerField()
    seat = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    accuracy = models.FloatField(null=True, blank=True)
    data = models.JSONField()
    samples = models.PositiveSmallIntegerField()
    cpu_seconds = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["round_no", "seat"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "round_no", "seat"], name="unique_round_review"
            )
        ]

    def __str__(self) -> str:
        return f"{self.match} round {self.round_no} seat {self.seat} review"
