"""The user model: Django's user plus a player's preferences; follows between players; and
personal access tokens.

A personal access token is what a bot shows the API instead of a session (docs/BOT_API.md).
Only the SHA-256 of a token is stored: the token itself is shown once, when it is made
(``accounts.tokens.create``). A token is long and random, so a fast hash is enough; a slow
password hash would only slow every request down.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any, ClassVar, Self

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.db.models.fetch_modes import FetchMode
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from accounts import usernames


class User(AbstractUser):
    """A player. Custom from the first migration so fields can be added without pain.

    A username that mixes scripts or looks like someone else's is refused wherever it is chosen
    or changed (``clean``, which model forms call: sign-up, the admin); ``username_key`` is
    what look-alike names share (``accounts.usernames``), kept in step by ``save``."""

    # What this name shares with the names that look like it (accounts.usernames.lookalike_key);
    # unique, so two look-alikes signed up at once make one account. Names that collided before
    # the rule keep theirs with "#<id>" after it (accounts.usernames.refresh_keys).
    username_key = models.CharField(max_length=600, unique=True, editable=False, default="")

    language = models.CharField(
        _("language"),
        max_length=10,
        choices=settings.LANGUAGES,
        blank=True,
        help_text=_("Leave empty to follow your browser."),
    )
    sound_on = models.BooleanField(_("sound"), default=True)
    title_alerts = models.BooleanField(
        _("title alerts"),
        default=True,
        help_text=_("Flash the tab title when it is your turn or a claim window opens."),
    )
    # Answers every claim window with Pass after the same delay for everyone; it never
    # looks at the hand, so it leaks nothing about the cards (DESIGN.md rule 4).
    auto_pass_hooks = models.BooleanField(
        _("auto-pass hooks"),
        default=False,
        help_text=_("Answer every hook/unhook window with Pass for me."),
    )
    # Asked in the page before a play is sent (table.js); the server never waits for it.
    confirm_play = models.BooleanField(
        _("confirm before playing"),
        default=False,
        help_text=_("Ask “Play these cards?” before a play is sent."),
    )
    # Counted from the player's own view only (their hand and the cards played this round).
    card_tracker = models.BooleanField(
        _("cards not seen yet"),
        default=True,
        help_text=_(
            "At the table, count the jokers, level cards, 4s and As you have not seen yet."
        ),
    )
    # Off by default: a player opts in to mail (invitations, "your turn" while away).
    email_notices = models.BooleanField(
        _("notices by email"),
        default=False,
        help_text=_(
            "Also send me an email when someone invites me to a table or it is my turn while "
            "I am away from it."
        ),
    )

    # A bot account is played by a program through the bot API (docs/BOT_API.md): marked as a
    # bot on every page, seated only at casual tables unless a league allows bots. Its owner
    # sets it, and only before the account has played a rated match (``accounts.bots``).
    is_bot = models.BooleanField(
        _("bot account"),
        default=False,
        help_text=_("This account is played by a program through the bot API."),
    )

    # Heard and seen at the table only (static/js/table_effects.js, felt.css); the turn beep
    # is ``sound_on``. Neither changes what the server sends.
    effect_sounds = models.BooleanField(
        _("table sounds"),
        default=True,
        help_text=_("A short sound at the table when someone plays, hooks or bombs."),
    )
    animations = models.BooleanField(
        _("animations"),
        default=True,
        help_text=_(
            "Plays slide in, hooks pulse, bombs shake. Off, or when your system asks for "
            "reduced motion, nothing moves."
        ),
    )

    # "Play the computer" (games.play.quick) remembers the AI difficulty last picked: a key of
    # the engine's registry (games.engine.ai.registry, checked where it is set); "" before the
    # first pick (the lobby then offers the fill default).
    ai_difficulty = models.CharField(_("computer's difficulty"), max_length=12, blank=True)
    # Claim windows this person answered while the table explained them (games.live.claim_help
    # shows the help for the first few; "Got it" sets it to that number at once).
    claim_windows_explained = models.PositiveSmallIntegerField(default=0, editable=False)

    #: The username as loaded from the database (None: deferred, or not loaded yet).
    _stored_username: str | None

    @classmethod
    def from_db(
        cls,
        db: str | None,
        field_names: Collection[str],
        values: Collection[Any],
        *,
        fetch_mode: FetchMode | None = None,
    ) -> Self:
        """Django's, remembering the loaded username (``username_changed``). ``fetch_mode`` is
        Django 6.1's (a queryset's ``fetch_mode()``), passed on: without it Django warned that
        the override is deprecated and dropped the queryset's fetch mode for users."""
        user = super().from_db(db, field_names, values, fetch_mode=fetch_mode)
        user._stored_username = user.__dict__.get("username")
        return user

    def username_changed(self) -> bool:
        """Whether the username is new (not saved yet) or differs from the one loaded."""
        return self._state.adding or self.username != getattr(self, "_stored_username", None)

    def clean(self) -> None:
        """Django's (the username NFKC-normalised), then: a new or changed username must not mix
        scripts nor look like another player's (``accounts.usernames.check``). An unchanged one
        is not checked again, so an account whose name predates the rule still saves."""
        super().clean()
        if self.username and self.username_changed():
            try:
                usernames.check(self.username, User.objects.exclude(pk=self.pk))
            except ValidationError as e:
                raise ValidationError({"username": e}) from None

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.username_changed() or not self.username_key:
            self.username_key = usernames.lookalike_key(self.username)
            update_fields = kwargs.get("update_fields")
            if update_fields is not None and "username" in update_fields:
                kwargs["update_fields"] = {*update_fields, "username_key"}
        super().save(*args, **kwargs)
        self._stored_username = self.username


class Follow(models.Model):
    """``follower`` follows ``followed``: sees whether they are online and where."""

    follower = models.ForeignKey(User, on_delete=models.CASCADE, related_name="following")
    followed = models.ForeignKey(User, on_delete=models.CASCADE, related_name="followers")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["followed__username"]
        constraints = [
            models.UniqueConstraint(fields=["follower", "followed"], name="follow_once"),
            models.CheckConstraint(condition=~Q(follower=F("followed")), name="follow_not_self"),
        ]

    def __str__(self) -> str:
        return f"{self.follower_id} follows {self.followed_id}"


class AccessToken(models.Model):
    """One personal access token of ``user``: its name, the first characters shown to tell
    tokens apart (``prefix``), the hash of the whole token, its scope, and whether it was
    revoked (a revoked token is refused at once, ``accounts.tokens``)."""

    class Scope(models.TextChoices):
        PLAY = "play", _("play: sit, read my seat, act for my seat")

    # A scope's short name, the one the profile shows in its token list and on the button that
    # makes a token (the choice's label above describes it): one translation for both, where
    # the list showed the stored "play" beside a translated button.
    SCOPE_NAMES: ClassVar[dict[str, Any]] = {
        Scope.PLAY: pgettext_lazy("access token scope", "play")
    }

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

    @property
    def scope_name(self) -> str:
        return str(self.SCOPE_NAMES.get(self.scope, self.scope))
