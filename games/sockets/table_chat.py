"""A table socket's part in its table's chat (``games.chat.rooms``): the room's last lines on
asking, the lines said in its room (unless this viewer muted their author), the mutes, and the
page's own lines. Not a frame of the match: no version, never a card.
"""

from __future__ import annotations

from typing import Any, Protocol

from django.utils import translation
from django.utils.translation import gettext as _

from accounts.models import User
from games.chat import rooms
from games.sockets.pool import in_pool


class _Socket(Protocol):
    table_id: int
    language: str
    user: User | None
    muted: set[int]  # the authors whose lines this viewer muted

    @property
    def seat(self) -> int | None: ...

    @property
    def signed_in(self) -> bool: ...

    async def send(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None: ...

    async def send_flash(self, message: str) -> None: ...

    def post_line(self, payload: dict[str, Any]) -> str: ...


class TableChat:
    """Mixed into ``TableConsumer``."""

    async def send_chat_room(self: _Socket) -> None:
        """This page's chat room with its last lines: asked by the page when its socket opens
        again (table.js: a reconnect may have missed lines), sent on a change of room."""
        html = await in_pool(rooms.room_html)(
            self.table_id, self.seat, self.language, muted=frozenset(self.muted)
        )
        await self.send(text_data=html)

    async def table_chat(self: _Socket, event: dict[str, Any]) -> None:
        """A line said in this page's room, rendered for its language: forwarded as it is,
        unless this viewer muted its author (the line never reaches their page)."""
        if event.get("author") in self.muted:
            return
        await self.send(text_data=event["text"])

    async def chat_mute(self: _Socket, event: dict[str, Any]) -> None:
        """This viewer muted (``muted`` true) or unmuted ``author`` (``games.chat.mutes``)."""
        if event["muted"]:
            self.muted.add(event["author"])
        else:
            self.muted.discard(event["author"])

    async def say(self: _Socket, payload: dict[str, Any]) -> None:
        """The page said a chat line: store and send it, or answer the refusal here."""
        if not self.signed_in:
            await self.send_flash(_("Log in to chat."))
            return
        refusal = await in_pool(self.post_line)(payload)
        if refusal:
            await self.send_flash(refusal)

    def post_line(self: _Socket, payload: dict[str, Any]) -> str:
        """``rooms.post`` in this page's language: "" when said, else the refusal (a
        ``rooms.ChatError``'s text)."""
        with translation.override(self.language):
            try:
                rooms.post(
                    self.table_id, self.user, payload.get("phrase", ""), payload.get("text", "")
                )
            except rooms.ChatError as e:
                return str(e)
        return ""
