"""The table's WebSocket: one per open page, for a seat or a spectator (DESIGN.md).

Thin by design. A socket joins its table's public group (seating, spectator count) and its
audience's group (``games.live.audiences``: its seat, or the spectators, in its language), and
forwards the frames ``games.live.push`` rendered for that audience without a query, keeping them in
order: a frame older than what the page shows is dropped, a delta that does not follow it (a
lost push) is answered with a full snapshot instead. Actions go to ``services.submit`` in the
writer pool; a refusal is answered to this sender only. Connecting, a resync and a heartbeat
that shows the page behind send everything (rule 5).

Everything that touches the database or renders runs in ``WRITER_POOL``, a bounded pool of
threads shared by the process's sockets, so one slow table never holds up another.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping
from typing import Any, cast

from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _

from accounts import presence
from accounts.models import User
from games import access
from games.chat import mutes, rooms
from games.live import audiences, notify, push, spectating
from games.live.audiences import Audience
from games.models import Match, Seat, Table
from games.play import outcomes, services, standins
from games.play.outcomes import refusal_message
from games.sockets import session_guard, socket_limits
from games.sockets.away_signs import AwaySigns
from games.sockets.pool import PooledConsumer, in_pool
from games.sockets.protocol import parse_message
from games.sockets.renewals import Renewals, page_closed, page_opened, refresh_count_soon
from games.sockets.scope import person_of, scope_language
from games.sockets.table_chat import TableChat

#: The keys of a page's messages that are not actions; the outcome of an action whose
#: session had ended (not applied, the socket closed).
_NOT, SESSION_ENDED = ("heartbeat", "resync", "chat", "chat_room"), "session_ended"
#: A page asks for a snapshot at most this often (seconds); a later ask waits its turn.
RESYNC_SECONDS = 0.5
#: A socket behind the table's last push at a heartbeat resyncs if still behind this much later
#: (seconds): the push may be on its way.
HEARTBEAT_GRACE_SECONDS = 1.0


def _signed_in(scope: Mapping[str, Any]) -> User | None:
    """The socket's person: the scope's user when signed in, None for an anonymous viewer."""
    user = scope.get("user")
    if user is None or not user.is_authenticated:
        return None
    # AuthMiddlewareStack's lazy object, standing for the site's User (accounts.models)
    return cast(User, user)


class TableConsumer(AwaySigns, TableChat, session_guard.SessionGuard, PooledConsumer):
    """``/ws/table/<id>/``: pushes this viewer's frames; takes a seat's actions."""

    session_runner = staticmethod(in_pool)  # the session checks run in the socket pool

    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.user = _signed_in(self.scope)
        self.user_id = self.user.pk if self.user is not None else None
        self.heard_at = time.time()  # the page was last heard from (renewals: its presence)
        self.language = scope_language(self.scope)
        self.version, self.revision = -1, -1  # what this page shows: nothing yet
        self.match_id: int | None = None
        self.audience: Audience | None = None
        self.counted = False  # this socket is in the table's spectator count
        self.rate = socket_limits.Bucket()  # messages a second, the page's heartbeats apart
        self.heartbeats = socket_limits.Bucket(rate=socket_limits.HEARTBEATS_PER_SECOND)
        self.claim: socket_limits.Claim | None = None  # places in the socket caps
        self.person = person_of(self.scope, self.channel_name)
        self.last_resync = 0.0
        self.resync_pending = False
        self.sent_by_last_heartbeat = -1  # the version the page must show at its next one
        self.behind_pending = False  # a resync_if_behind is waiting
        self.muted: set[int] = set()  # the authors whose chat lines this viewer muted
        self.away_seq, self.away_text = 0, ""  # the newest seats-away change sent (AwaySigns)
        seat = await in_pool(self.seat_if_allowed)()
        if seat is False:
            await self.close(code=4403)
            return
        self.claim = await socket_limits.admit(self.scope, self.table_id if seat is None else None)
        if self.claim.refused:
            await socket_limits.refuse(self, self.claim)  # 4429 or 4430
            return
        await self.accept()
        if not await self.guard_session():
            return  # the session ended meanwhile: closed with 4401
        await self.channel_layer.group_add(notify.table_group(self.table_id), self.channel_name)
        if self.user is not None:  # signed in
            # Joined before the mutes are read, so a mute meanwhile is not missed.
            await self.channel_layer.group_add(mutes.group(self.user.pk), self.channel_name)
            self.muted = set(await in_pool(mutes.muted_ids)(self.user))
        await self.take_audience(seat)
        Renewals.current().add(self)  # from now on renewed with the process's other sockets
        await self.send_snapshot()

    async def disconnect(self, code: int) -> None:
        await socket_limits.release(getattr(self, "claim", None))
        if self.audience is None:
            return
        Renewals.current().discard(self)
        if self.seat is not None:  # seen as gone once its grace has passed
            await page_closed(self.table_id, self.seat, self.channel_name)
        await self.channel_layer.group_discard(notify.table_group(self.table_id), self.channel_name)
        await self.channel_layer.group_discard(
            audiences.group(self.table_id, self.audience), self.channel_name
        )
        await self.channel_layer.group_discard(self.chat_group(self.audience), self.channel_name)
        if self.user is not None:  # signed in
            await self.channel_layer.group_discard(mutes.group(self.user.pk), self.channel_name)
            await in_pool(presence.left_table)(self.user.pk, self.table_id)
        if self.counted and await in_pool(spectating.leave)(
            self.table_id, self.channel_name, self.person
        ):
            refresh_count_soon(self.table_id)

    # --- who this page is -----------------------------------------------------------------

    def seat_if_allowed(self) -> int | None | bool:
        """This user's seat number, None for a spectator, False if they may not watch."""
        table = Table.objects.filter(pk=self.table_id).first()
        if table is None or not access.can_watch(self.user, table, self.scope.get("session")):
            return False
        if self.user is None or not self.user.is_authenticated:
            return None
        return Seat.objects.number_held_by(self.table_id, self.user)

    async def take_audience(self, seat: int | None) -> None:
        """Join the group of ``seat`` (None: the spectators) in this page's language, leaving
        the one it had: the only place a socket's routing changes."""
        audience = Audience(seat, self.language)
        if audience == self.audience:
            return
        if self.audience is not None:
            if self.audience.seat is not None:
                await page_closed(self.table_id, self.audience.seat, self.channel_name)
            await self.channel_layer.group_discard(
                audiences.group(self.table_id, self.audience), self.channel_name
            )
            await self.channel_layer.group_discard(
                self.chat_group(self.audience), self.channel_name
            )
        self.audience = audience
        await self.channel_layer.group_add(
            audiences.group(self.table_id, audience), self.channel_name
        )
        # The chat room of this page's place: the players' for a seat, else the spectators'.
        await self.channel_layer.group_add(self.chat_group(audience), self.channel_name)
        await in_pool(self.register)(audience)
        spectator = seat is None
        if spectator != self.counted:
            self.counted = spectator
            change = spectating.join if spectator else spectating.leave
            if await in_pool(change)(self.table_id, self.channel_name, self.person):
                refresh_count_soon(self.table_id)

    @property
    def seat(self) -> int | None:
        return self.audience.seat if self.audience is not None else None

    @property
    def signed_in(self) -> bool:
        return self.user is not None

    def chat_group(self, audience: Audience) -> str:
        return rooms.group(self.table_id, rooms.room_for(audience.seat), audience.language)

    def register(self, audience: Audience) -> None:
        """Count this page in its audience and, signed in, its player as at this table; a
        seat's page opening clears its seat's away sign (``games.live.away``)."""
        audiences.register(self.table_id, audience)
        if self.user is not None:  # signed in
            presence.at_table(self.user.pk, self.table_id)
        if audience.seat is not None:
            page_opened(self.table_id, audience.seat, self.channel_name)

    # --- frames to the page ---------------------------------------------------------------

    async def send_snapshot(self) -> None:
        self.last_resync = time.monotonic()
        signs = self.away_seq  # a change forwarded while it renders may be newer than it
        text, version, revision = await in_pool(push.snapshot)(
            self.table_id, self.seat, self.user, self.language
        )
        if (revision, version) < (self.revision, self.version):
            return  # a newer frame went out while this one was rendered
        self.version, self.revision = version, revision
        await self.send(text_data=text)
        await self.signs_again_after(signs)

    async def resync(self) -> None:
        """A full snapshot now, or once ``RESYNC_SECONDS`` after the last one."""
        wait = self.last_resync + RESYNC_SECONDS - time.monotonic()
        if wait <= 0:
            await self.send_snapshot()
            return
        if self.resync_pending:
            return
        self.resync_pending = True

        async def later() -> None:
            await asyncio.sleep(wait)
            self.resync_pending = False
            await self.send_snapshot()

        asyncio.ensure_future(later())

    async def table_frame(self, event: dict[str, Any]) -> None:
        """A frame rendered for this page's audience: forward it in order, or resync. One
        rendered for another audience — sent before this page changed audience (its person
        left their seat for good, a seat was handed over) and delivered after — is dropped:
        it may show a hand that is not this page's to see. (A frame without ``s``, from a
        writer of the release before, is taken as before while a deploy rolls.)"""
        if event.get("s", self.seat) != self.seat:
            return
        version, revision = event["v"], event["r"]
        if event["full"]:
            if (revision, version) < (self.revision, self.version):
                return
        elif (revision, version) <= (self.revision, self.version):
            return  # already shown
        elif event["b"] != self.version or revision != self.revision:
            await self.resync()  # a push was lost: this delta does not apply
            return
        self.version, self.revision = version, revision
        await self.send(text_data=event["text"])
        await self.signs_again_after(event.get("a", self.away_seq))

    async def table_seating(self, event: dict[str, Any]) -> None:
        """Someone sat down, stood up, left for good or the table started: follow the seat this
        user holds (``Seat.holder_id``). Before a match every page renders its own (its buttons
        depend on who is looking); during one, the audience's snapshot is on its way unless this
        page changed audience."""
        seat = None
        if self.user is not None and self.user.is_authenticated:
            seat = event["seating"].get(str(self.user.pk))
        changed = seat != self.seat
        room_changed = rooms.room_for(seat) != rooms.room_for(self.seat)
        left = changed and self.user_id is not None and str(self.user_id) in event["left"]
        await self.take_audience(seat)
        if changed or not event["has_match"]:
            await self.send_snapshot()
        if room_changed:
            await self.send_chat_room()
        if left:  # this person left their seat for good: the page now shows the spectators' view
            said = _("You left this match.")
            if not event.get("stopped"):  # (the last to leave stopped it: nobody finishes it)
                said = f"{said} {_('The AI finishes it for you.')}"
            await self.send_flash(said)

    async def spectators_count(self, event: dict[str, Any]) -> None:
        html = event["html"].get(self.language, {}).get("watch" if self.seat is None else "seat")
        if html:
            await self.send(text_data=html)

    # --- messages from the page -----------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if self.closing:
            return
        if socket_limits.too_big(text_data, bytes_data):
            await self.close(code=socket_limits.TOO_BIG)  # before any parsing
            return
        with translation.override(self.language):
            if not await self.admitted(text_data):
                return
            payload = parse_message(text_data)
            if self.submits(payload):
                await self.answer(payload)  # its session checked in the submission's own hop
                return
            heartbeat = payload is not None and bool(payload.get("heartbeat"))
            if not await self.session_still_valid(heartbeat=heartbeat):
                return  # its session ended: closed with 4401, the message dropped
            if payload is not None and payload.get("heartbeat"):
                await self.heartbeat(payload.get("version"))
            elif payload is not None and payload.get("resync"):
                await self.resync()
            elif payload is not None and payload.get("chat"):
                await self.say(payload)
            elif payload is not None and payload.get("chat_room"):
                await self.send_chat_room()
            else:
                await self.answer(payload)

    async def admitted(self, text_data: str | None) -> bool:
        """Whether this message is within its socket's rate. The page's heartbeats have a
        bucket of their own (``socket_limits.is_heartbeat``): a burst of them — queued while a
        connection stalled, sent at once when it came back — never takes an action's place
        (a tester's play after 36 s offline was dropped as "too many messages"). A socket that
        goes on past either bucket is closed (``FLOODING``); the page is told once a second
        when its other messages are dropped, never for its heartbeats."""
        heartbeat = socket_limits.is_heartbeat(text_data)
        bucket = self.heartbeats if heartbeat else self.rate
        if bucket.take():
            return True
        if bucket.flooding:
            await self.close(code=socket_limits.FLOODING)
        elif not heartbeat and bucket.warn():
            await self.send_flash(_("Too many messages: slow down."))
        return False

    def submits(self, payload: dict[str, Any] | None) -> bool:
        """Whether this message goes to the match (a play, a claim, an AI control): its session
        is then checked in the job that submits it, one thread hop per action, not two."""
        return payload is not None and self.user is not None and not any(map(payload.get, _NOT))

    async def heartbeat(self, page_version: object) -> None:
        """The page is still there (``page_version``: the version it says it shows, as sent: an
        int when readable, anything else is ignored): note the time, which the process's next
        renewal (``renewals``) writes into its presence, and send a snapshot if the page lost a
        push. No thread, no Redis: a heartbeat that changes nothing costs a few attribute writes.

        A push may be on its way at any moment, so being behind *now* proves nothing: the page
        is behind if it has not shown what this socket sent before its previous heartbeat. This
        socket missing the table's last push is the renewal's to find (``behind``).
        """
        self.heard_at = time.time()
        page_lost = type(page_version) is int and page_version < self.sent_by_last_heartbeat
        self.sent_by_last_heartbeat = self.version
        if page_lost:
            await self.resync()

    def behind(self, latest: tuple[int, int]) -> None:
        """The table's last push to this socket's kind was ``latest`` (read by the process's
        renewal): if this socket has not sent it, resync unless it arrives within the grace."""
        if latest > (self.revision, self.version) and not self.behind_pending:
            self.behind_pending = True  # one wait at a time, however many renewals meanwhile
            asyncio.ensure_future(self.resync_if_behind(latest))

    async def resync_if_behind(self, latest: tuple[int, int]) -> None:
        await asyncio.sleep(HEARTBEAT_GRACE_SECONDS)
        self.behind_pending = False
        if latest > (self.revision, self.version) and not self.closing:
            await self.resync()

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
        result = await in_pool(self.submit_if_session_holds)(payload)
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

    async def send_flash(self, message: str) -> None:
        with translation.override(self.language):
            html = render_to_string("games/partials/flash.html", {"message": message, "oob": True})
        await self.send(text_data=html)
