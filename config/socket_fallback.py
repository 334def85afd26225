"""The WebSocket route of last resort: a path no app serves is refused, not an error.

Without it, Channels' URLRouter raises ValueError("No route found for path ...") for a path
such as ``/ws/table/abc/``: Daphne answers the handshake with HTTP 500 and logs a traceback for
what is only a bad address. Refused here the way a table the page may not watch is refused
(closed before it is accepted), Daphne answers 403 and logs nothing.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.typing import ASGIReceiveCallable, Scope
from django.urls import re_path

#: The close code of an unknown path (4000-4999 are the application's; 4404 reads as "not found").
UNKNOWN_PATH = 4404


async def refuse_unknown_path(
    scope: Scope, receive: ASGIReceiveCallable, send: Callable[[dict[str, Any]], Awaitable[None]]
) -> None:
    """An ASGI app closing a WebSocket before it is accepted. ``scope`` is a websocket scope;
    ``receive``/``send`` the ASGI channels. No consumer, no channel layer: a stray path costs
    no Redis round trip."""
    message = await receive()
    if message["type"] == "websocket.connect":
        await send({"type": "websocket.close", "code": UNKNOWN_PATH})


#: Appended after every real route: it matches any path left over. Channels routes ASGI apps
#: through Django's re_path, whose stubs (django-stubs 6.1.2) accept views only.
catch_all = re_path(r"", refuse_unknown_path)  # type: ignore[arg-type]
