"""Who may watch a table — and so see its match, record, replay, export, and any list entry
naming it. One rule, as a predicate (``can_watch``) and as the queryset filter that agrees with
it (``TableQuerySet.visible_to``, ``MatchQuerySet.visible_to``), so pages and lists never
disagree:

- staff watch every table; its host and the people seated at it watch it;
- whoever opened a private table's invite link watches it (remembered in the session);
- anyone else watches a public table, unless it is a fixture of a league or a pairing of a
  tournament they may not see (``leagues.access``).

A page for a table (or its match) that the viewer may not watch answers 404, as for a table that
does not exist, so its existence does not leak. Nothing here imports a model at import time:
``games.models`` uses the querysets.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Exists, OuterRef, Q

INVITES_SESSION_KEY = "table_invites"


def _signed_in(user) -> bool:
    return user is not None and user.is_authenticated


def invited_tables(session) -> list[int]:
    """The ids of the private tables whose invite link this session opened."""
    if session is None:
        return []
    invites = session.get(INVITES_SESSION_KEY, [])
    return [pk for pk in invites if isinstance(pk, int)] if isinstance(invites, list) else []


def watchable_q(user, session=None, prefix: str = "") -> Q:
    """The ``Q`` of the tables ``user`` (with ``session``'s invites) may watch, on the table
    reached by ``prefix`` (``"table__"`` from a match or a seat; empty for ``Table``)."""
    from games.models import Seat, Table

    if _signed_in(user) and user.is_staff:
        return Q()
    # The hidden fixtures and pairings as NOT EXISTS (anti-joins), not joins or NOT IN: seven
    # LEFT JOINs made PostgreSQL plan each lobby list for ~15 ms, and NOT IN hid the lists'
    # indexes from it (a sort of every finished table instead of 10 rows from an index).
    table = OuterRef(f"{prefix}pk")
    public = (
        Q(**{f"{prefix}visibility": Table.Visibility.PUBLIC})
        & ~Exists(_hidden_fixtures(user).filter(table_id=table))
        & ~Exists(_hidden_pairings(user).filter(table_id=table))
    )
    own = Q(**{f"{prefix}pk__in": invited_tables(session)})
    if _signed_in(user):
        seated = Seat.objects.filter(user=user).values("table_id")
        own |= Q(**{f"{prefix}host": user.pk}) | Q(**{f"{prefix}pk__in": seated})
    return public | own


def _hidden_fixtures(user):
    """The fixtures of the leagues ``user`` may not see."""
    from leagues.access import league_q
    from leagues.models import Fixture

    return Fixture.objects.exclude(league_q(user, "season__league__"))


def _hidden_pairings(user):
    """The pairings of the tournaments ``user`` may not see."""
    from leagues.access import tournament_q
    from leagues.models import Pairing

    return Pairing.objects.exclude(tournament_q(user, "round__tournament__"))


def can_watch(user, table, session=None) -> bool:
    """Whether ``user`` (anonymous allowed, or None) with ``session`` (a request's or a
    socket's, or None) may watch ``table``: the rule of ``watchable_q``."""
    from games.models import Seat, Table
    from leagues.access import can_see_league, can_see_tournament

    if _signed_in(user):
        if user.is_staff or table.host_id == user.pk:
            return True
        if Seat.objects.filter(table=table, user=user).exists():
            return True
    if table.pk in invited_tables(session):
        return True
    if table.visibility != Table.Visibility.PUBLIC:
        return False
    fixture = _related(table, "fixture")
    if fixture is not None and not can_see_league(user, fixture.season.league):
        return False
    pairing = _related(table, "pairing")
    return pairing is None or can_see_tournament(user, pairing.round.tournament)


def _related(table, name: str):
    """``table.fixture`` / ``table.pairing`` (reverse one-to-ones), or None."""
    try:
        return getattr(table, name)
    except models.ObjectDoesNotExist:
        return None


def remember_invite(session, table) -> None:
    """Let this session watch ``table`` (its invite link was opened)."""
    invites = invited_tables(session)
    if table.pk not in invites:
        session[INVITES_SESSION_KEY] = invites + [table.pk]


class TableQuerySet(models.QuerySet):
    def visible_to(self, user, session=None) -> TableQuerySet:
        """The tables ``user`` (with ``session``'s invites) may watch (``can_watch``)."""
        return self.filter(watchable_q(user, session))


class MatchQuerySet(models.QuerySet):
    def visible_to(self, user, session=None) -> MatchQuerySet:
        """The matches of the tables ``user`` may watch (``can_watch``)."""
        return self.filter(watchable_q(user, session, prefix="table__"))
