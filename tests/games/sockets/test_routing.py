"""A WebSocket path no route serves is refused quietly (config.socket_fallback).

Before, Channels' URLRouter raised "No route found for path 'ws/table/abc/'": Daphne answered
the handshake with HTTP 500 and logged a traceback. Now it is refused like a table the page may
not watch (``/ws/table/999/``): closed before it is accepted.
"""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connections

from config.asgi import application
from config.socket_fallback import UNKNOWN_PATH
from tests.games.sockets.test_consumers import cookie_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture(autouse=True)
async def _close_db_connections():
    yield
    await sync_to_async(connections.close_all)()


@pytest.mark.parametrize("path", ["/ws/table/abc/", "/ws/table/1/x/", "/ws/nowhere/", "/"])
async def test_an_unknown_path_is_refused_not_an_error(make_user, path):
    """A signed-in page with a good Origin, on a path no route serves: refused with 4404."""
    cookie = await sync_to_async(cookie_for)(await sync_to_async(make_user)("stray"))
    ws = WebsocketCommunicator(
        application, path, headers=[(b"origin", b"http://localhost"), (b"cookie", cookie)]
    )
    connected, code = await ws.connect(timeout=5)
    assert (connected, code) == (False, UNKNOWN_PATH)
