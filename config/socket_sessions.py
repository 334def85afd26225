"""The WebSocket side's session middleware: channels' own, without wrapping every send.

``channels.sessions.SessionMiddleware`` hands the application a ``send`` that, before every
message, reads the lazy session's ``modified`` and ``is_empty()`` to decide whether to save it —
which it does only for ``http.response.start``, a message no WebSocket sends. On a table socket
that was two proxied attribute reads per frame forwarded: about 5 % of a Daphne process's
samples while it forwarded a push to 500 spectators (py-spy, docs/PERFORMANCE.md, issue 19).
The session is still resolved per connection and put in the scope as before.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, cast

from asgiref.typing import ASGIReceiveCallable, ASGISendCallable
from channels.auth import AuthMiddleware
from channels.sessions import CookieMiddleware, InstanceSessionWrapper, SessionMiddleware

if TYPE_CHECKING:  # the stubs' names, not the library's
    from channels.consumer import _ChannelScope
    from channels.utils import _ChannelApplication


class SocketSessionMiddleware(SessionMiddleware):
    """``SessionMiddleware`` that passes the server's ``send`` on as it is."""

    async def __call__(
        self, scope: _ChannelScope, receive: ASGIReceiveCallable, send: ASGISendCallable
    ) -> Any:
        wrapper = InstanceSessionWrapper(scope, send)
        await wrapper.resolve_session()
        # (the stubs type ``inner`` as any ASGI application, ASGI 2 included; it is ASGI 3)
        inner = cast(Callable[..., Awaitable[None]], self.inner)
        await inner(wrapper.scope, receive, send)


def socket_auth_stack(inner: _ChannelApplication) -> CookieMiddleware:
    """``channels.auth.AuthMiddlewareStack`` with ``SocketSessionMiddleware``."""
    return CookieMiddleware(SocketSessionMiddleware(AuthMiddleware(inner)))
