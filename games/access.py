"""Who may watch a table — and so see its match, record, replay, export, and any list entry
naming it. One rule, as a predicate (``can_watch``) and as the queryset filter that agrees with
it (``watchable_q``, ``visible_tables``), so pages and lists never disagree:

- staff watch every table; its host and the people seated at it watch it;
- whoever opened a private table's invite link watches it (remembered in the session);
- anyone else watches a public table, unless an organiser schedules it where they may not see
  it (a fixture of a league, a pairing of a tournament: ``games.organisers``);
- a rematch table (``games.play.rematches``) of a match whose spectators' delayed view has not
  reached the end is held back from everyone but its host, its seated people and invite links —
  staff too: it would tell that match's result before its spectators see it
  (``games.live.visibility``, docs/ACCESS.md). It shows up everywhere once the view got there.

A page for a table (or its match) that the viewer may not watch answers 404, as for a table that
does not exist, so its existence does not leak.
"""

from __future__ import annotations

from typing import TypeGuard

from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions.backends.base import SessionBase
from django.db.models import Exists, OuterRef, Q, QuerySet

from accounts.models import User
from games import organisers
from games.models import DelayedView, Rematch, Seat, Table

INVITES_SESSION_KEY = "table_invites"

#: Who looks: a signed-in person, an anonymous visitor, or None (no request: a task, a test).
type Viewer = User | AnonymousUser | None


def _signed_in(user: Viewer) -> TypeGuard[User]:
    return user is not None and user.is_authenticated


def invited_tables(session: SessionBase | None) -> list[int]:
    """The ids of the private tables whose invite link this session opened."""
    if session is None:
        return []
    invites = session.get(INVITES_SESSION_KEY, [])
    return [pk for pk in invites if isinstance(pk, int)] if isinstance(invites, list) else []


def held_back(table_ref: str = "pk") -> Exists:
    """True for a rematch table held back (the module's last rule): the match before it is still
    being shown to its delayed spectators. ``table_ref``: the outer query's path to the table.
    An EXISTS on the rematch's unique ``new_table`` index, so negated it is an anti-join probe
    per listed table — never NOT IN, which hid the lists' indexes (``organisers.hidden_q``)."""
    return Exists(
        Rematch.objects.filter(DelayedView.unrevealed_q("table__"), new_table=OuterRef(table_ref))
    )


def _held_back(table_id: int) -> bool:
    return Rematch.objects.filter(DelayedView.unrevealed_q("table__"), new_table=table_id).exists()


def watchable_q(user: Viewer, session: SessionBase | None = None, prefix: str = "") -> Q:
    """The ``Q`` of the tables ``user`` (with ``session``'s invites) may watch, on the table
    reached by ``prefix`` (``"table__"`` from a match or a seat; empty for ``Table``)."""
    shown = ~held_back(f"{prefix}pk")
    own = Q(**{f"{prefix}pk__in": invited_tables(session)})
    if _signed_in(user):
        seated = Seat.objects.filter(user=user).values("table_id")
        own |= Q(**{f"{prefix}host": user.pk}) | Q(**{f"{prefix}pk__in": seated})
    if _signed_in(user) and user.is_staff:
        return shown | own
    public = Q(**{f"{prefix}visibility": Table.Visibility.PUBLIC}) & ~organisers.hidden_q(
        user, f"{prefix}pk"
    )
    return (public & shown) | own


def can_watch(user: Viewer, table: Table, session: SessionBase | None = None) -> bool:
    """Whether ``user`` (anonymous allowed, or None) with ``session`` (a request's or a
    socket's, or None) may watch ``table``: the rule of ``watchable_q``."""
    if _signed_in(user):
        if table.host_id == user.pk:
            return True
        if Seat.objects.filter(table=table, user=user).exists():
            return True
    if table.pk in invited_tables(session):
        return True
    if not (_signed_in(user) and user.is_staff):
        if table.visibility != Table.Visibility.PUBLIC:
            return False
        if organisers.hidden_from(user, table.pk):
            return False
    return not _held_back(table.pk)


def remember_invite(session: SessionBase, table: Table) -> None:
    """Let this session watch ``table`` (its invite link was opened)."""
    invites = invited_tables(session)
    if table.pk not in invites:
        session[INVITES_SESSION_KEY] = invites + [table.pk]


def visible_tables(
    tables: QuerySet[Table], user: Viewer, session: SessionBase | None = None
) -> QuerySet[Table]:
    """The tables of ``tables`` that ``user`` (with ``session``'s invites) may watch."""
    return tables.filter(watchable_q(user, session))
