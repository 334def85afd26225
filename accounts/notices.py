"""Notices of the friends side: an invitation to a table, and "your turn" for a player who is not
looking at the table. Stored as ``leagues.models.Notice`` (the header's badge counts them) and,
where the player allows it (``User.email_notices``, off by default), sent by email in their
language.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from django.conf import settings
from django.core.mail import send_mail
from django.template.loader import render_to_string
from django.utils import translation

from leagues.models import Notice

if TYPE_CHECKING:
    from accounts.models import User
    from games.models import Table

log = logging.getLogger(__name__)


def _email(user: User, notice: Notice) -> None:
    if not user.email_notices or not user.email:
        return
    language = user.language or settings.LANGUAGE_CODE
    with translation.override(language):
        context = {"notice": notice, "site": settings.SITE_URL.rstrip("/")}
        subject = render_to_string("accounts/notice_email_subject.txt", context).strip()
        body = render_to_string("accounts/notice_email.txt", context)
    try:
        send_mail(subject, body, None, [user.email])
    except Exception:  # a mail server away must not undo the notice
        log.warning("notice email to user %s not sent", user.pk, exc_info=True)


def invitation(table: Table, inviter: User, invitee: User) -> Notice | None:
    """Tell ``invitee`` that ``inviter`` invites them to ``table``. None (nothing new) if an
    invitation to that table is still unseen."""
    if Notice.objects.filter(
        user=invitee, kind=Notice.Kind.TABLE_INVITE, table=table, seen_at__isnull=True
    ).exists():
        return None
    notice = Notice.objects.create(
        user=invitee, kind=Notice.Kind.TABLE_INVITE, table=table, about=inviter
    )
    notice.table = table
    notice.about = inviter
    _email(invitee, notice)
    return notice


def your_turn(table: Table, user: User) -> Notice | None:
    """Tell ``user`` it is their turn at ``table``. None if such a notice is still unseen (one
    is enough until they look)."""
    if Notice.objects.filter(
        user=user, kind=Notice.Kind.YOUR_TURN, table=table, seen_at__isnull=True
    ).exists():
        return None
    notice = Notice.objects.create(user=user, kind=Notice.Kind.YOUR_TURN, table=table)
    notice.table = table
    _email(user, notice)
    return notice


def seen_at_table(user: User, table: Table) -> None:
    """``user`` opened ``table``: its "your turn" notices are done with (the table itself says
    whose turn it is), so they go: a seen one left in the list would still say "It is your turn"
    after the turn or the match is over."""
    Notice.objects.filter(user=user, kind=Notice.Kind.YOUR_TURN, table=table).delete()


def turns_gone(table_id: int, user_id: int | None) -> int:
    """Remove the "your turn" notices at a table: every seat's (``user_id`` None: the match is
    over) or ``user_id``'s (the turn left their seat). Returns how many were removed."""
    stale = Notice.objects.filter(kind=Notice.Kind.YOUR_TURN, table_id=table_id)
    if user_id is not None:
        stale = stale.filter(user_id=user_id)
    removed, _ = stale.delete()
    return removed
