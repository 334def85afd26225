"""The lobby's WebSocket, ``/ws/lobby/``: one per open lobby page, fed by its process's hub.

A lobby socket has no channel of its own. The process's ``lobby_hub.LobbyHub`` is the one
subscriber to ``notify.LOBBY_GROUP``: it coalesces changes into refreshes, renders the public
lists once per language and "my tables" once per player named, and offers each socket its
frames.

Frames are out-of-band swaps of ``#lobby-public`` and ``#lobby-mine`` (``lobby_lists.html``).
Each socket keeps the number of the last refresh it was sent, per part, and never takes an
older one, so a connect's snapshot racing a refresh cannot overwrite the newer lists. A dropped
message (pub/sub can drop) is repaired by the page's own 30 s reload of the lists.

A signed-in socket lives as long as its session (``games.sockets.session_guard``): the hub's channel
also joins the session group of each player with a socket here, and closes that player's sockets
with 4401 when a session of theirs ends.
"""

from __future__ import annotations

from games.sockets import session_guard, socket_limits
from games.sockets.lobby_hub import LobbyHub
from games.sockets.pool import PooledConsumer
from games.sockets.scope import scope_language


class LobbyConsumer(PooledConsumer):
    """``/ws/lobby/``: the lobby's lists, pushed when a table opens, fills, starts or ends."""

    # No channel (and no Redis subscription) per socket: the hub subscribes once per process.
    # channels' get_channel_layer(None) finds no layer; its stubs type the alias as a str
    channel_layer_alias = None  # type: ignore[assignment]

    async def connect(self) -> None:
        user = self.scope.get("user")
        self.language = scope_language(self.scope)
        self.user_id: int | None = user.pk if user is not None and user.is_authenticated else None
        # A signed-in socket lives as long as its session (games.sockets.session_guard; the hub
        # hears).
        key = getattr(self.scope.get("session"), "session_key", None)
        self.session_key: str | None = key if self.user_id is not None else None
        self.session_digest = session_guard.digest(self.session_key) if self.session_key else ""
        self.closed = False
        #: The refresh (``LobbyHub.generation``) of the public lists this page shows, and the
        #: version (``LobbyHub.user_versions``) of its "my tables"; -1: nothing sent yet.
        self.public_shown = -1
        self.mine_shown = -1
        # What the page shows: a refresh that renders the same is not sent. Besides saving the
        # bytes, a send would tell *when* something happened — on a delayed table, the live
        # moment of a round's end (games.live.delay), which the lists themselves never show.
        self.public_text: str | None = None
        self.mine_text: str | None = None
        self.rate = socket_limits.Bucket()
        self.claim = await socket_limits.admit(self.scope)
        if self.claim.refused:
            await socket_limits.refuse(self, self.claim)  # 4429: too many sockets
            return
        await self.accept()
        self.hub = LobbyHub.current()
        await self.hub.join(self)

    async def disconnect(self, code: int) -> None:
        self.closed = True
        await socket_limits.release(getattr(self, "claim", None))
        if hasattr(self, "hub"):
            await self.hub.leave(self)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """The lobby takes no messages: they are dropped, but counted like a table's (a message
        over ``MAX_MESSAGE_BYTES`` closes the socket, and so does a flood: ``socket_limits``)."""
        if self.closing:
            return
        if socket_limits.too_big(text_data, bytes_data):
            await self.close(code=socket_limits.TOO_BIG)
        elif not self.rate.take() and self.rate.flooding:
            await self.close(code=socket_limits.FLOODING)

    async def end_for_session(self) -> None:
        """Its session ended: close with ``session_guard.CLOSE_CODE``, take nothing more."""
        if self.closed:
            return
        self.closed = True
        await self.close(code=session_guard.CLOSE_CODE)
        await self.hub.leave(self)

    async def offer_public(self, generation: int, html: str) -> None:
        """Send the public lists of refresh ``generation`` unless the page shows a newer one.

        Checked and sent without awaiting in between (the ASGI send queues at once), so two
        offers cannot cross."""
        if self.closed or generation <= self.public_shown:
            return
        self.public_shown = generation
        if html == self.public_text:
            return
        self.public_text = html
        await self.send(text_data=html)

    async def offer_mine(self, version: int, html: str) -> None:
        """Send "my tables" of ``version`` unless the page shows a newer one."""
        if self.closed or version <= self.mine_shown:
            return
        self.mine_shown = version
        if html == self.mine_text:
            return
        self.mine_text = html
        await self.send(text_data=html)
