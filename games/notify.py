"""Tell watching pages that something changed (DESIGN.md rule 2).

A group message carries only ``{match, version}``-sized facts, never cards: each consumer loads
the state and renders its own seat's view.
"""

from __future__ import annotations

from collections.abc import Iterable

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

LOBBY_GROUP = "lobby"


def table_group(table_id: int) -> str:
    """The group of every page open on one table (seats and spectators)."""
    return f"table-{table_id}"


def _send(group: str, message: dict) -> None:
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(group, message)


def table_changed(table_id: int, version: int | None = None) -> None:
    """The table's seats or match changed; ``version`` is the match version, if any."""
    _send(table_group(table_id), {"type": "table.changed", "version": version})


def spectators_changed(table_id: int) -> None:
    """Someone started or stopped watching the table: pages refresh the spectator count."""
    _send(table_group(table_id), {"type": "spectators.changed"})


def lobby_changed(user_ids: Iterable[int | None] = ()) -> None:
    """A table opened, filled, started, ended a round or ended: lobby pages refresh their public
    lists, and the sockets of the players in ``user_ids`` also refresh their own "my tables".

    ``user_ids``: the table's host and everyone seated before or after the change (someone who
    just stood up too); None (an AI seat) is skipped. Ids are not secret: they only say whose
    list to re-read. Each Daphne process coalesces what arrives within
    ``lobby_consumer.WINDOW_SECONDS`` into one refresh (``games.lobby_consumer``).
    """
    users = sorted({int(user_id) for user_id in user_ids if user_id is not None})
    _send(LOBBY_GROUP, {"type": "lobby.changed", "users": users})
