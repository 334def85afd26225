"""Bot accounts (``User.is_bot``): who may mark one, and where a bot may sit.

A bot plays casual tables; a rated table only when it is a fixture of a league whose organisers
allow bots (``League.allow_bots``). Its owner marks (or unmarks) the account only while it has
never sat at a rated match, so no rated result was ever played under the wrong flag.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.core.exceptions import ObjectDoesNotExist
from django.utils.translation import gettext as _

if TYPE_CHECKING:
    from accounts.models import User
    from games.models import Table


class BotError(Exception):
    """A bot change or seating that is not allowed (the message says why, for people)."""


def has_played_rated(user: User) -> bool:
    """Whether ``user`` has (or had) a seat at a rated table whose match started."""
    from games.models import Seat

    return Seat.objects.filter(user=user, table__rated=True, table__match__isnull=False).exists()


def set_bot(user: User, is_bot: bool) -> None:
    """Mark ``user``'s account a bot account (or not). Raises BotError once the account has
    played a rated match; nothing changes then."""
    if bool(user.is_bot) == bool(is_bot):
        return
    if has_played_rated(user):
        raise BotError(_("This account has played a rated match: it can no longer change."))
    user.is_bot = bool(is_bot)
    user.save(update_fields=["is_bot"])


def seat_refusal(user: User, table: Table) -> str:
    """Why ``user`` may not sit at ``table`` as a bot, or "": a bot account sits at casual
    tables, and at a rated one only in a league that allows bots."""
    if not getattr(user, "is_bot", False) or not table.rated:
        return ""
    try:
        league = table.fixture.season.league
    except ObjectDoesNotExist:
        league = None
    if league is not None and league.allow_bots:
        return ""
    return casual_only()


def casual_only() -> str:
    """The refusal a bot account gets at a rated table, for people."""
    return _("Bot accounts play casual tables only (or a league that allows bots).")
