"""Who may watch a table: anyone for a public table; for a private one, its seated players and
whoever opened its invite link (remembered in the session)."""

from __future__ import annotations

from games.models import Seat, Table

INVITES_SESSION_KEY = "table_invites"


def can_watch(table: Table, user, session) -> bool:
    if table.visibility == Table.Visibility.PUBLIC:
        return True
    if user is not None and user.is_authenticated:
        if table.host_id == user.pk or Seat.objects.filter(table=table, user=user).exists():
            return True
    invites = session.get(INVITES_SESSION_KEY, []) if session is not None else []
    return table.pk in invites


def remember_invite(session, table: Table) -> None:
    invites = list(session.get(INVITES_SESSION_KEY, []))
    if table.pk not in invites:
        session[INVITES_SESSION_KEY] = invites + [table.pk]
