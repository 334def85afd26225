"""Table chat: chat lines, mutes and reports (``games.models`` exports them).

A chat line belongs to one room of one table: the seated players' room or the spectators'
(``ChatLine.Room``). The two never meet: a line is sent only to its room's sockets
(``games.chat.rooms``), so a spectator cannot signal to the players, and a delayed spectator learns
nothing live from the players' talk. A quick phrase is stored as its code and shown in each
reader's language; free text is stored as typed and escaped when shown.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models.phrases import phrase_text

USER = settings.AUTH_USER_MODEL


class ChatLine(models.Model):
    """One line said at a table, in one room; ``phrase`` (a ``games.models.phrases`` code) or
    ``text`` (free text, at most ``GAMES_CHAT_MAX_CHARS`` characters)."""

    class Room(models.TextChoices):
        PLAYERS = "p", _("players")
        SPECTATORS = "w", _("spectators")

    table = models.ForeignKey("games.Table", on_delete=models.CASCADE, related_name="+")
    room = models.CharField(max_length=1, choices=Room)
    author = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="+")
    phrase = models.CharField(max_length=16, blank=True)
    text = models.CharField(max_length=500, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["table", "room", "-id"], name="chat_room_latest")]

    def __str__(self) -> str:
        return f"{self.table_id}/{self.room} {self.author_id}: {self.phrase or self.text[:40]}"

    def shown(self) -> str:
        """The line as the reader sees it: its phrase in the active language, or its text."""
        return phrase_text(self.phrase) if self.phrase else self.text


class ChatMute(models.Model):
    """``user`` hides ``muted``'s chat lines, at every table, until they unmute."""

    user = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="+")
    muted = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "muted"], name="chat_mute_once"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} mutes {self.muted_id}"


class ChatReport(models.Model):
    """A chat line reported to the staff (the Django admin lists them)."""

    line = models.ForeignKey(ChatLine, on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    handled = models.BooleanField(_("handled"), default=False)

    class Meta:
        ordering = ["handled", "-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["line", "reporter"], name="chat_report_once"),
        ]

    def __str__(self) -> str:
        return f"report of line {self.line_id} by {self.reporter_id}"
