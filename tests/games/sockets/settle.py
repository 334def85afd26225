"""A barrier for table sockets: everything already on its way to them has arrived.

What a quiet window (read until nothing came for a second) waited for, without the second: the
spectator-count refreshes this event loop has scheduled (debounced, ``renewals``) are awaited to
their end, which is their push's publish; then a marker is published to the table's group, which
every socket of the table is in. Each consumer takes its channel's messages one at a time and in
the order they were published (one pub/sub connection per process), after its own connect's
snapshot: a socket holding the marker holds everything published to it before. The marker
reaches every page of the table: a socket the test reads afterwards must be among those read
here, or it will find the marker first.
"""

from __future__ import annotations

import asyncio
import uuid

from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator

from games.live import notify
from games.sockets import renewals


async def settled(table_id: int, sockets: list[WebsocketCommunicator]) -> list[list[str]]:
    """What each socket got until every count refresh pending in this loop was pushed and a
    marker published to ``table_id``'s group after it arrived (the marker left out)."""
    got: list[list[str]] = [[] for _ in sockets]
    while True:
        await asyncio.gather(*renewals.pending_count_refreshes())
        marker = f"<!-- settled {uuid.uuid4().hex} -->"
        # table_chat forwards its text as it is: no render, no query.
        await get_channel_layer().group_send(
            notify.table_group(table_id), {"type": "table.chat", "text": marker}
        )
        for ws, texts in zip(sockets, got, strict=True):
            while (text := await ws.receive_from(timeout=30)) != marker:
                texts.append(text)
        if not renewals.pending_count_refreshes():  # none scheduled by what arrived meanwhile
            return got
