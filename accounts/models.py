"""The user model: Django's user plus a player's preferences."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils.translation import gettext_lazy as _


class User(AbstractUser):
    """A player. Custom from the first migration so fields can be added without pain."""

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
    # Heard and seen at the table only (static/js/table_effects.js, site.css); the turn beep
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
