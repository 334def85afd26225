"""A table socket's part in the seats shown away (``games.live.away``): it forwards each change
(``table_messages.publish_away``: every seat's name line, its own seat's as its own) unless a
newer one came first, and keeps the last one it forwarded, which it sends again after a frame or a
snapshot rendered with an older state of the signs (rendered, then overtaken on its way by a
change): the page ends with the newest signs, whatever the order the two came in.
"""

from __future__ import annotations

from typing import Any, Protocol


class _Socket(Protocol):
    language: str
    away_seq: int  # the newest change forwarded (0: none)
    away_text: str  # that change, as forwarded

    @property
    def seat(self) -> int | None: ...

    async def send(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None: ...


class AwaySigns:
    """Mixed into ``TableConsumer``."""

    async def table_away(self: _Socket, event: dict[str, Any]) -> None:
        """The seats shown away changed: forward the name lines in this page's language."""
        lines = event["html"].get(self.language)
        if lines and event["seq"] > self.away_seq:
            own = str(self.seat)
            self.away_seq = event["seq"]
            self.away_text = "".join(t[n == own] for n, t in lines.items())
            await self.send(text_data=self.away_text)

    async def signs_again_after(self: _Socket, rendered_with: int) -> None:
        """A frame rendered with the signs' ``rendered_with`` was just sent: if a newer change
        was forwarded before it, send that change again (its rows may show the older)."""
        if rendered_with < self.away_seq:
            await self.send(text_data=self.away_text)
