"""A patch of Daphne's WebSocket protocol (autobahn), applied once by ``config.asgi``: frames
over the application's limit are refused from their header with a clean close frame, and
protocol errors close cleanly instead of dropping the TCP connection. The limit is the games
sockets' (``games.sockets.socket_limits.MAX_MESSAGE_BYTES``), passed in."""

from __future__ import annotations

from typing import Any


def close_cleanly_in_daphne(max_frame_bytes: int) -> None:
    """Make Daphne's WebSocket protocol refuse an incoming frame over ``max_frame_bytes`` from
    its header, with a 1009 close frame — and answer every protocol error, a message over
    Daphne's ``--websocket_max_message_size`` too, with a close frame rather than by dropping
    the TCP connection (``failByDrop``). Only the frame limit is lowered: autobahn applies the
    message limit to what the server sends as well (a snapshot is 20 KB), the frame limit to
    incoming frames only. Call before Daphne builds its protocol factory (Daphne imports
    ``config.asgi`` first); a no-op where Daphne is not installed."""
    try:
        from daphne.ws_protocol import WebSocketFactory
    except ImportError:
        return
    if getattr(WebSocketFactory, "_club414_limits", False):
        return
    set_options = WebSocketFactory.setProtocolOptions

    def set_protocol_options(self: object, *args: Any, **kwargs: Any) -> Any:
        kwargs.setdefault("failByDrop", False)
        given = kwargs.get("maxFramePayloadSize") or 0  # 0: no limit
        kwargs["maxFramePayloadSize"] = min(given, max_frame_bytes) if given else max_frame_bytes
        return set_options(self, *args, **kwargs)

    WebSocketFactory.setProtocolOptions = set_protocol_options
    WebSocketFactory._club414_limits = True
