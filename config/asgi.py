"""The ASGI application Daphne serves: Django for HTTP, Channels for WebSockets."""

from __future__ import annotations

import os

from django.core.asgi import get_asgi_application
from django.urls import URLPattern

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# Set up Django before importing anything that touches models (auth middleware, consumers).
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from config.daphne_frames import close_cleanly_in_daphne  # noqa: E402
from config.socket_fallback import catch_all  # noqa: E402
from config.socket_sessions import socket_auth_stack  # noqa: E402
from games.sockets.socket_limits import MAX_MESSAGE_BYTES  # noqa: E402

# Before Daphne builds its WebSocket protocol: a message over 4 KB is refused by the protocol
# with a clean 1009 close, never a dropped connection (games.sockets.socket_limits).
close_cleanly_in_daphne(MAX_MESSAGE_BYTES)


def websocket_urlpatterns() -> list[URLPattern]:
    """The games app's WebSocket routes, or none until games/sockets/routing.py exists."""
    try:
        from games.sockets.routing import websocket_urlpatterns as patterns
    except ModuleNotFoundError as error:
        if error.name != "games.sockets.routing":
            raise  # a broken import inside games.sockets.routing must not pass silently
        return []
    return list(patterns)


application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # Origin checked against ALLOWED_HOSTS; the session identifies the player (channels'
        # auth stack, its session middleware without a wrapper on every send).
        # A path no route serves is refused quietly (config.socket_fallback), never a 500.
        # (types-channels want routes of their stub-only _ExtendedURLPattern, which no
        # re_path returns: catch_all is a plain URLPattern with an ASGI app for callback.)
        "websocket": AllowedHostsOriginValidator(
            socket_auth_stack(URLRouter([*websocket_urlpatterns(), catch_all]))  # type: ignore[list-item]
        ),
    }
)

from config import heap  # noqa: E402

heap.settle()  # after the routes imported the consumers: full GC passes stay short
