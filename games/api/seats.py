"""Finding the token's own seat at a match, and the tables a bot may sit at (the API's reads).

A token acts for one person: the seat is the one that person sits in, never one a request
names. A match whose table the person may not watch (``games.access``) is "not found", as on
the pages, so a private table's existence does not leak.
"""

from __future__ import annotations

from typing import Any

from accounts.models import User
from games import access
from games.models import Match, Seat, Table


class NotFound(Exception):
    """No such match (or table) for this person."""


class NotSeated(Exception):
    """The person may watch the match but has no seat at it (``message``: the API's words)."""

    message = "you have no seat at this match"


class LeftSeat(NotSeated):
    """The person left their seat at the match for good: the AI plays it, and its hand is not
    theirs to see any more (``Seat.held_by``)."""

    message = "you left this match: the AI plays your seat"


def my_seat(match_id: int, user: User) -> tuple[Match, Seat]:
    """The match ``match_id`` (its table loaded) and the seat ``user`` holds at it. Raises
    NotFound when there is no such match or the user may not watch it, NotSeated when they
    have no seat there, LeftSeat when they left theirs for good."""
    match = Match.objects.select_related("table").filter(pk=match_id).first()
    if match is None:
        raise NotFound
    seat = Seat.objects.filter(table_id=match.table_id, user=user).first()
    if seat is None or seat.holder_id is None:
        if not access.can_watch(user, match.table):
            raise NotFound
        raise NotSeated if seat is None else LeftSeat
    return match, seat


def seats_json(table: Table, seats: list[Seat]) -> list[dict[str, Any]]:
    """A table's seats as anyone may see them: number, team, who sits (name, bot, AI difficulty)."""
    return [
        {
            "number": s.number,
            "team": s.team,
            "player": s.user.username if s.user else None,
            "bot": bool(s.user and s.user.is_bot),
            "ai": s.ai_policy or None,
            "empty": s.is_empty,
        }
        for s in seats
    ]


def table_json(table: Table, seats: list[Seat]) -> dict[str, Any]:
    """A table for the API's lists: id, name, seat count, rated, status, options, seats."""
    return {
        "id": table.pk,
        # As stored, not in the request's language: a bot's answers stay the same text
        # (docs/BOT_API.md); the pages show Table.display_name.
        "name": table.name,
        "players": table.players,
        "rated": table.rated,
        "status": table.status,
        "visibility": table.visibility,
        "options": table.engine_options().to_dict(),
        "seats": seats_json(table, seats),
    }


def open_tables(user: User, limit: int = 50) -> list[dict[str, Any]]:
    """The open tables (not started) ``user`` may watch, newest first, at most ``limit``."""
    tables = list(
        access.visible_tables(Table.objects.all(), user)
        .filter(status=Table.Status.OPEN)
        .prefetch_related("seats__user")[:limit]
    )
    return [table_json(t, list(t.seats.all())) for t in tables]


def my_tables(user: User) -> list[dict[str, Any]]:
    """Where ``user`` sits at a table that is open or playing: table, seat, match (or None)."""
    rows = (
        Seat.objects.filter(user=user, table__status__in=[Table.Status.OPEN, Table.Status.PLAYING])
        .select_related("table", "table__match")
        .order_by("-table__created_at")
    )
    found = []
    for seat in rows:
        match = seat.table.match if _has_match(seat.table) else None
        found.append(
            {
                "table": seat.table_id,
                "seat": seat.number,
                "status": seat.table.status,
                "match": match.pk if match else None,
            }
        )
    return found


def _has_match(table: Table) -> bool:
    try:
        table.match  # noqa: B018 (the reverse one-to-one raises when there is none)
    except Match.DoesNotExist:
        return False
    return True
