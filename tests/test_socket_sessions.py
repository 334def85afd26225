"""The WebSocket stack's session middleware resolves the session as channels' does, and hands the
application Daphne's own ``send``: no session check on every frame (issue 19, forwarding)."""

from __future__ import annotations

import pytest
from django.conf import settings

from config.socket_sessions import socket_auth_stack

# channels' auth resolves the scope in database_sync_to_async, whose close_old_connections()
# touches the connection a thread kept from an earlier test: database access must be allowed,
# or the test fails when it follows a test that used the database on that thread.
pytestmark = [pytest.mark.asyncio, pytest.mark.django_db]


async def test_the_session_is_in_the_scope_and_send_is_the_servers() -> None:
    seen = {}

    async def app(scope, receive, send) -> None:
        seen["scope"], seen["send"] = scope, send

    async def receive() -> dict:
        return {"type": "websocket.connect"}

    async def send(message: dict) -> None:
        pass

    cookie = f"{settings.SESSION_COOKIE_NAME}=abc123".encode()
    scope = {"type": "websocket", "path": "/ws/x/", "headers": [(b"cookie", cookie)]}
    await socket_auth_stack(app)(scope, receive, send)
    assert seen["send"] is send
    assert type(seen["scope"]["session"]._wrapped).__name__ == "SessionStore"  # resolved
    assert seen["scope"]["cookies"][settings.SESSION_COOKIE_NAME] == "abc123"
    assert "user" in seen["scope"]
