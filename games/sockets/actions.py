"""A table socket's actions: a play, a claim, a return, a resignation, a stand-in's control —
taken to the writer and answered to this page only (DESIGN.md rule 1).

A plain move is made by the writer on the event loop (``games.play.loop_writer``: its session
checked there too, no thread); anything else — a stand-in's control, the first action before
the socket knows its match, what the loop's writer hands back — by ``services.submit`` in one
pool job with its session check (``loop_db.in_pool``).

May import ``games.play``, ``games.models`` and ``games.sockets.session_guard``.
"""

from __future__ import annotations

import time
from typing import Any

from django.utils.translation import gettext as _
from psycopg import AsyncConnection

from accounts.models import User
from games.models import Match
from games.play import loop_writer, outcomes, services, standins
from games.play.loop_db import in_pool
from games.play.outcomes import refusal_message
from games.sockets import session_check

#: The outcome of an action whose session had ended (not applied, the socket closed).
SESSION_ENDED = "session_ended"


class TakesActions:
    """The action half of ``TableConsumer``: what it needs of the consumer is declared here."""

    table_id: int
    match_id: int | None
    user: User | None

    @property
    def seat(self) -> int | None:
        raise NotImplementedError

    # The consumer's own, declared for the type checker: the consumer lists this class last
    # among its bases, so its methods are the ones called.
    async def send_flash(self, message: str) -> None:
        raise NotImplementedError

    async def send_snapshot(self) -> None:
        raise NotImplementedError

    async def end_for_session(self) -> None:
        raise NotImplementedError

    async def session_holds_on(self, conn: AsyncConnection[Any]) -> bool:
        raise NotImplementedError

    def session_holds_now(self) -> bool:
        raise NotImplementedError

    async def answer(self, payload: dict[str, Any] | None) -> None:
        """Take the page's message as its action and log one ``socket.answer`` line: table,
        match, seat, action kind, outcome code and ms (``outcomes.log_action``; no cards)."""
        started = time.perf_counter()
        outcome = await self.apply_or_refuse(payload)
        outcomes.log_action(
            "socket.answer",
            self.match_id,
            self.seat,
            payload,
            outcome,
            started,
            table=self.table_id,
        )

    async def apply_or_refuse(self, payload: dict[str, Any] | None) -> outcomes.Result | str:
        """Submit the action; a refusal is answered to this page. Returns the Result, or the
        outcome code of a message refused before it reached the match."""
        if payload is None:
            await self.send_flash(_("That message could not be read."))
            return "unreadable"
        if self.user is None or not self.user.is_authenticated:
            await self.send_flash(_("Log in to play."))
            return "anonymous"
        result = await self.submitted(payload)
        if isinstance(result, str):  # SESSION_ENDED
            await self.end_for_session()  # closed with 4401, the action not applied
            return SESSION_ENDED
        if result is None:
            await self.send_flash(_("The match has not started yet."))
            return "not_started"
        if not result.ok:
            if result.code != "duplicate":  # a double click's second send: nothing to tell
                await self.send_flash(refusal_message(result))
            if result.code in ("stale", "duplicate"):
                await self.send_snapshot()
        return result

    async def submitted(self, payload: dict[str, Any]) -> outcomes.Result | str | None:
        """The action made: a plain move by the writer on this loop (``loop_writer``, its
        session checked on the loop too), anything else — a stand-in's control, the first
        action before the match is known, what the loop's writer hands back — by
        ``services.submit`` in one pool job. ``SESSION_ENDED`` when the session no longer
        holds; None before the match started."""
        if (
            self.match_id is None
            or payload.get("action") in outcomes.CONTROLS
            or not session_check.checked_on_loop()
        ):
            return await in_pool(self.submit_if_session_holds)(payload)
        assert self.user is not None  # answer turned an anonymous viewer away
        result = await loop_writer.submit(
            self.match_id, self.user, payload, check=self.session_holds_on
        )
        if result == loop_writer.CHECK_FAILED:
            return SESSION_ENDED
        if isinstance(result, str):  # loop_writer.IN_POOL
            return await in_pool(self.submit)(payload)
        return result

    def submit_if_session_holds(self, payload: dict[str, Any]) -> outcomes.Result | str | None:
        """``submit`` if the session holds (``session_holds_now``), else ``SESSION_ENDED``."""
        if not self.session_holds_now():
            return SESSION_ENDED
        return self.submit(payload)

    def submit(self, payload: dict[str, Any]) -> outcomes.Result | None:
        if self.match_id is None:
            self.match_id = (
                Match.objects.filter(table_id=self.table_id).values_list("pk", flat=True).first()
            )
        if self.match_id is None:
            return None
        assert self.user is not None  # answer turned an anonymous viewer away
        if payload.get("action") in outcomes.CONTROLS:  # the AI stand-in: on, off, for good
            return standins.control(self.match_id, self.user, payload)
        return services.submit(self.match_id, self.user, payload)
