"""The table socket's message protocol: what a page may send, parsed into a request the writer
takes (``games.play.services.submit``), or refused as malformed before anything runs."""

from __future__ import annotations

import json
from typing import Any

from games.sockets import socket_limits

#: The longest message a page may send (``games.sockets.socket_limits``: a longer one closes the
#: socket).
MAX_MESSAGE_BYTES = socket_limits.MAX_MESSAGE_BYTES


def parse_message(text: str | None) -> dict[str, Any] | None:
    """A client message as a dict with ``cards`` a list and ``version`` an int, or None.

    htmx's ws extension sends form values as strings (one checked card is a bare string).
    A ``client_id`` that is not a string (a number, a list, an object, true…) makes the whole
    message unreadable, as the bot API refuses it (``games.api.schemas.ActionIn``: a string or
    null): it was stored as its ``str()`` and the move applied.
    """
    if not text or len(text) > MAX_MESSAGE_BYTES:
        return None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):  # deep nesting fits in 4 KB and exhausts the parser
        return None
    if not isinstance(data, dict):
        return None
    data.pop("HEADERS", None)
    if not isinstance(data.get("client_id"), str | None):
        return None
    cards = data.get("cards")
    if isinstance(cards, str):
        data["cards"] = [cards]
    elif cards is None and data.get("action") in ("play", "hook", "unhook"):
        data["cards"] = []
    version = data.get("version")
    # ASCII digits only: str.isdigit also takes "²", which int() refuses (a crashed socket).
    # A message is at most 4 KB, well under int()'s 4300-digit limit.
    if isinstance(version, str) and version.isascii() and version.isdigit():
        data["version"] = int(version)
    return data
