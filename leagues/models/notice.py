"""Notices: something a player should see next time they look (``leagues.notices`` writes and
counts them; ``accounts.notices`` adds the table invitations and turn reminders)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from leagues.models.league import League
from leagues.models.tournament import Tournament, TournamentTeam

USER = settings.AUTH_USER_MODEL


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
