"""Following players, seeing where they are, inviting them to a table.

``followed_with_presence`` lists whom a player follows with whether each is online and the
tables each has open — only the tables the viewer may watch (``games.access``), so a private
table or a hidden league fixture is never named. ``invite`` sends an invitation notice to a
followed player or any username, for a table the inviter hosts or sits at.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.conf import settings
from django.contrib.sessions.backends.base import SessionBase
from django.utils.translation import gettext as _
from django_ratelimit.core import get_usage

from accounts import notices, presence
from accounts.models import Follow, User
from games import access
from games.models import Seat, Table

if TYPE_CHECKING:
    from django.contrib.sessions.backends.base import SessionBase

    from games.access import Viewer

INVITE_GROUP = "accounts.invite"


class InviteError(Exception):
    """An invitation refused: the message is a translated sentence for the inviter."""


@dataclass
class Friend:
    """A followed player: ``online``, and the tables of theirs the viewer may watch."""

    user: User
    online: bool
    tables: list[Table]


def follow(user: User, other: User) -> bool:
    """``user`` follows ``other`` (following oneself does nothing). Returns whether it is new."""
    if user.pk == other.pk:
        return False
    return Follow.objects.get_or_create(follower=user, followed=other)[1]


def unfollow(user: User, other: User) -> None:
    Follow.objects.filter(follower=user, followed=other).delete()


def follows(user: Viewer, other: User) -> bool:
    """Whether ``user`` (anonymous or None: never) follows ``other``."""
    if not isinstance(user, User) or not user.is_authenticated:  # (a lazy request.user too)
        return False
    return Follow.objects.filter(follower=user, followed=other).exists()


def followed_with_presence(user: User, session: SessionBase | None = None) -> list[Friend]:
    """Whom ``user`` follows, by name, with presence. Tables are filtered by what ``user``
    (with ``session``'s invite links) may watch, in one query."""
    people = [
        f.followed
        for f in Follow.objects.filter(follower=user, followed__is_active=True).select_related(
            "followed"
        )
    ]
    seen = presence.of([p.pk for p in people])
    wanted = {t for _online, tables in seen.values() for t in tables}
    watchable = {
        t.pk: t
        for t in access.visible_tables(Table.objects.select_related("host"), user, session).filter(
            pk__in=wanted
        )
    }
    return [
        Friend(
            user=p,
            online=seen[p.pk][0],
            tables=[watchable[t] for t in seen[p.pk][1] if t in watchable],
        )
        for p in people
    ]


def can_invite_to(user: User, table: Table) -> bool:
    """Whether ``user`` may invite people to ``table``: its host or a player seated there."""
    if user is None or not user.is_authenticated:
        return False
    return table.host_id == user.pk or Seat.objects.filter(table=table, user=user).exists()


def _too_many(user_id: int) -> bool:
    try:
        usage = get_usage(
            None,
            group=INVITE_GROUP,
            key=lambda group, request: str(user_id),
            rate=settings.ACCOUNTS_INVITE_RATE,
            increment=True,
        )
    except Exception:
        return False
    return bool(usage and usage["should_limit"] and usage["time_left"] != -1)


def invite(inviter: User, table: Table, username: str) -> User:
    """Invite the player named ``username`` (any case) to ``table``: they get a notice (and an
    email, if they allow it). Returns the invited player. Raises InviteError (nothing sent) if
    the inviter neither hosts nor sits at the table, the table is over, the name is unknown or
    the inviter's own, or past ``ACCOUNTS_INVITE_RATE``."""
    if not can_invite_to(inviter, table):
        raise InviteError(_("Only the host and the seated players can invite to this table."))
    if table.status in (Table.Status.FINISHED, Table.Status.ABANDONED):
        raise InviteError(_("This table is over."))
    username = (username or "").strip()
    invitee = User.objects.filter(username__iexact=username, is_active=True).first()
    if invitee is None:
        raise InviteError(_("There is no player named “%(name)s”.") % {"name": username[:40]})
    if invitee.pk == inviter.pk:
        raise InviteError(_("You are already at this table."))
    if _too_many(inviter.pk):
        raise InviteError(_("You sent many invitations: wait a while."))
    notices.invitation(table, inviter, invitee)
    return invitee


#: The session key of a plain (no-JavaScript) invitation's refusal, kept for the one table page
#: its redirect shows: ``{"table": id, "message": text}``.
REFUSAL_SESSION_KEY = "invite_refusal"


def remember_refusal(session: SessionBase, table_id: int, message: str) -> None:
    """Keep ``message`` (an invitation refused) for the next page of table ``table_id``, which
    shows it beside the invite form (``take_refusal``)."""
    session[REFUSAL_SESSION_KEY] = {"table": table_id, "message": message}


def take_refusal(session: SessionBase, table_id: int) -> str:
    """The refusal ``remember_refusal`` kept for table ``table_id`` ("" if none), forgotten
    once taken; one kept for another table is dropped too (its page was not the next)."""
    kept = session.pop(REFUSAL_SESSION_KEY, None)
    if isinstance(kept, dict) and kept.get("table") == table_id:
        return str(kept.get("message", ""))
    return ""
