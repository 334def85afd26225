"""Apps that schedule tables — leagues' fixtures, tournaments' pairings — plug in here.

The games app knows nothing of leagues (it imports nothing from them); an organiser app tells
it, from its ``AppConfig.ready``, what it needs to know of the tables it schedules:

- which tables it schedules (``scheduled``): they are not rematched, and "play again" does not
  copy them as they are;
- which of them a viewer may not see (``hidden_from``): those are neither listed nor watchable
  by that viewer, whatever the table's own visibility (``games.access``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db.models import Exists, OuterRef, Q, QuerySet


@dataclass(frozen=True)
class Organiser:
    """One organiser app's answers. ``scheduled()``: its rows that name a table (a queryset
    with a ``table_id`` column); ``hidden_from(user)``: those of its rows ``user`` (anonymous
    allowed, or None) may not see."""

    name: str
    scheduled: Callable[[], QuerySet[Any]]
    hidden_from: Callable[[Any], QuerySet[Any]]


_ORGANISERS: dict[str, Organiser] = {}


def register(organiser: Organiser) -> None:
    """Add (or replace, by name) an organiser; call it from ``AppConfig.ready``."""
    _ORGANISERS[organiser.name] = organiser


def scheduled_q(table_ref: str = "pk") -> Q:
    """``Q`` true for a table some organiser schedules; ``table_ref`` names the table's id in
    the outer query (``"pk"`` on ``Table``, ``"table_id"`` on a match)."""
    # Each EXISTS inside a Q: ``Q() | Exists(...)`` is the Exists itself, not a Q.
    q = Q()
    for organiser in _ORGANISERS.values():
        q |= Q(Exists(organiser.scheduled().filter(table_id=OuterRef(table_ref))))
    return q


def hidden_q(user: Any, table_ref: str = "pk") -> Q:
    """``Q`` true for a table scheduled by an organiser in a way ``user`` may not see. As NOT
    EXISTS anti-joins when negated, never joins or NOT IN: seven LEFT JOINs made PostgreSQL
    plan each lobby list for ~15 ms, and NOT IN hid the lists' indexes from it."""
    q = Q(pk__in=[])
    for organiser in _ORGANISERS.values():
        q |= Q(Exists(organiser.hidden_from(user).filter(table_id=OuterRef(table_ref))))
    return q


def is_scheduled(table_id: int) -> bool:
    """Whether some organiser schedules table ``table_id`` (one statement per organiser)."""
    return any(o.scheduled().filter(table_id=table_id).exists() for o in _ORGANISERS.values())


def hidden_from(user: Any, table_id: int) -> bool:
    """Whether table ``table_id`` is scheduled by an organiser in a way ``user`` may not see."""
    return any(o.hidden_from(user).filter(table_id=table_id).exists() for o in _ORGANISERS.values())
