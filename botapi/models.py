"""Personal access tokens: what a bot shows the API instead of a session (docs/BOT_API.md).

Only the SHA-256 of a token is stored: the token itself is shown once, when it is made
(``botapi.tokens.create``). A token is long and random, so a fast hash is enough; a slow
password hash would only slow every request down.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class AccessToken(models.Model):
    """One personal access token of ``user``: its name, the first characters shown to tell
    tokens apart (``prefix``), the hash of the whole token, its scope, and whether it was
    revoked (a revoked token is refused at once, ``botapi.tokens``)."""

    class Scope(models.TextChoices):
        PLAY = "play", _("play: sit, read my seat, act for my seat")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="access_tokens"
    )
    name = models.CharField(_("name"), max_length=60)
    prefix = models.CharField(max_length=16)
    digest = models.CharField(max_length=64, unique=True)
    scope = models.CharField(_("scope"), max_length=10, choices=Scope, default=Scope.PLAY)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.user} · {self.name} ({self.prefix}…)"

    @property
    def active(self) -> bool:
        return self.revoked_at is None
