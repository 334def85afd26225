"""The table's WebSocket: one per open page, for a seat or a spectator (DESIGN.md).

Thin by design. A socket joins its table's public group (seating, spectator count) and its
audience's group (``games.audiences``: its seat, or the spectators, in its language), and
forwards the frames ``games.push`` rendered for that audience without a query, keeping them in
order: a frame older than what the page shows is dropped, a delta that does not follow it (a
lost push) is answered with a full snapshot instead. Actions go to ``services.submit`` in the
writer pool; a refusal is answered to this sender only. Connecting, a resync and a heartbeat
that shows the page behind send everything (rule 5).

Everything that touches the database or renders runs in ``WRITER_POOL``, a bounded pool of
threads shared by the process's sockets, so one slow table never holds up another.
"""

from __future__ import annotations

import asyncio
import json
import time
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.db import connections
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _

from accounts import presence
from accounts.middleware import saved_language
from games import (
    access,
    audiences,
    chat,
    chat_mutes,
    notify,
    push,
    services,
    session_guard,
    socket_limits,
    spectating,
    standins,
)
from games.audiences import Audience
from games.models import Match, Seat, Table

#: The longest message a page may send (``games.socket_limits``: a longer one closes the socket).
MAX_MESSAGE_BYTES = socket_limits.MAX_MESSAGE_BYTES
#: A page asks for a snapshot at most this often (seconds); a later ask waits its turn.
RESYNC_SECONDS = 0.5
#: A socket behind the table's last push at a heartbeat resyncs if still behind this much later
#: (seconds): the push may be on its way.
HEARTBEAT_GRACE_SECONDS = 1.0
#: The spectator count is refreshed at most this often per table and process (seconds).
COUNT_REFRESH_SECONDS = 0.5

WRITER_POOL = ThreadPoolExecutor(
    max_workers=settings.GAMES_SOCKET_THREADS, thread_name_prefix="club414-socket"
)


def in_pool(function):
    """``function`` as a coroutine run in ``WRITER_POOL``. The thread's database connection is
    closed when the call ends — given back to psycopg's pool — from inside the call itself:
    the wrapper's own clean-up runs where it cannot see the connection the call opened."""

    def call(*args, **kwargs):
        try:
            return function(*args, **kwargs)
        finally:
            connections.close_all()

    return database_sync_to_async(call, thread_sensitive=False, executor=WRITER_POOL)


_count_refreshes: dict[tuple[int, int], asyncio.Task] = {}


def refresh_count_soon(table_id: int) -> None:
    """Refresh the table's spectator count in ``COUNT_REFRESH_SECONDS``, once for every join and
    leave in this process meanwhile (a crowd arriving costs a few renders, not one each)."""
    key = (id(asyncio.get_running_loop()), table_id)
    if key in _count_refreshes:
        return

    async def later() -> None:
        await asyncio.sleep(COUNT_REFRESH_SECONDS)
        _count_refreshes.pop(key, None)  # joins from now on schedule the next refresh
        await in_pool(push.publish_spectator_count)(table_id)

    _count_refreshes[key] = asyncio.ensure_future(later())


class PooledConsumer(AsyncWebsocketConsumer):
    """An async consumer whose messages never wait for the process's one sync thread.

    Channels' ``dispatch`` runs ``close_old_connections`` through ``sync_to_async`` (thread
    sensitive: one thread per process) before every message — every pushed frame and
    heartbeat of every socket queued there, which capped a Daphne process at about forty
    actions a second with its CPU half idle. These consumers touch the database only in
    ``in_pool``, which gives its connection back itself, so that step has nothing to do.
    """

    #: Set once this side closed the socket: what the page still sends is ignored.
    closing = False

    async def __call__(self, scope, receive, send) -> None:
        # A send racing a close that Daphne has not heard of yet is dropped, not raised.
        await super().__call__(scope, receive, socket_limits.guard_send(send))

    async def close(self, code: int | None = None, reason: str | None = None) -> None:
        self.closing = True
        await super().close(code=code, reason=reason)

    async def dispatch(self, message: dict) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)


class TableConsumer(session_guard.SessionGuard, PooledConsumer):
    """``/ws/table/<id>/``: pushes this viewer's frames; takes a seat's actions."""

    session_runner = staticmethod(in_pool)  # the session checks run in the socket pool

    async def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.user = self.scope.get("user")
        self.language = scope_language(self.scope)
        self.version, self.revision = -1, -1  # what this page shows: nothing yet
        self.match_id: int | None = None
        self.audience: Audience | None = None
        self.counted = False  # this socket is in the table's spectator count
        self.rate = socket_limits.Bucket()  # messages a second, heartbeats included
        self.claim: socket_limits.Claim | None = None  # places in the socket caps
        self.person = spectating.person_of(self.scope, self.channel_name)
        self.last_resync = 0.0
        self.resync_pending = False
        self.sent_by_last_heartbeat = -1  # the version the page must show at its next one
        self.muted: set[int] = set()  # the authors whose chat lines this viewer muted
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
        if self.signed_in:
            # Joined before the mutes are read, so a mute meanwhile is not missed.
            await self.channel_layer.group_add(chat_mutes.group(self.user.pk), self.channel_name)
            self.muted = set(await in_pool(chat_mutes.muted_ids)(self.user))
        await self.take_audience(seat)
        await self.send_snapshot()

    async def disconnect(self, code: int) -> None:
        await socket_limits.release(getattr(self, "claim", None))
        if self.audience is None:
            return
        await self.channel_layer.group_discard(notify.table_group(self.table_id), self.channel_name)
        await self.channel_layer.group_discard(
            audiences.group(self.table_id, self.audience), self.channel_name
        )
        await self.channel_layer.group_discard(self.chat_group(self.audience), self.channel_name)
        if self.signed_in:
            await self.channel_layer.group_discard(
                chat_mutes.group(self.user.pk), self.channel_name
            )
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
        return (
            Seat.objects.filter(table_id=self.table_id, user=self.user)
            .values_list("number", flat=True)
            .first()
        )

    async def take_audience(self, seat: int | None) -> None:
        """Join the group of ``seat`` (None: the spectators) in this page's language, leaving
        the one it had: the only place a socket's routing changes."""
        audience = Audience(seat, self.language)
        if audience == self.audience:
            return
        if self.audience is not None:
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
        return self.user is not None and self.user.is_authenticated

    def chat_group(self, audience: Audience) -> str:
        return chat.group(self.table_id, chat.room_for(audience.seat), audience.language)

    def register(self, audience: Audience) -> None:
        """Count this page in its audience and, signed in, its player as at this table."""
        audiences.register(self.table_id, audience)
        if self.signed_in:
            presence.at_table(self.user.pk, self.table_id)

    # --- frames to the page ---------------------------------------------------------------

    async def send_snapshot(self) -> None:
        self.last_resync = time.monotonic()
        text, version, revision = await in_pool(push.snapshot)(
            self.table_id, self.seat, self.user, self.language
        )
        if (revision, version) < (self.revision, self.version):
            return  # a newer frame went out while this one was rendered
        self.version, self.revision = version, revision
        await self.send(text_data=text)

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

    async def table_frame(self, event: dict) -> None:
        """A frame rendered for this page's audience: forward it in order, or resync."""
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

    async def table_seating(self, event: dict) -> None:
        """Someone sat down, stood up or the table started: follow this user's seat. Before a
        match every page renders its own (its buttons depend on who is looking); during one,
        the audience's snapshot is on its way unless this page changed audience."""
        seat = None
        if self.user is not None and self.user.is_authenticated:
            seat = event["seating"].get(str(self.user.pk))
        changed = seat != self.seat
        room_changed = chat.room_for(seat) != chat.room_for(self.seat)
        await self.take_audience(seat)
        if changed or not event["has_match"]:
            await self.send_snapshot()
        if room_changed:
            await self.send_chat_room()

    # --- chat (games.chat): not a frame of the match, no version, never a card ------------

    async def send_chat_room(self) -> None:
        """This page's chat room with its last lines: asked by the page when its socket opens
        again (table.js: a reconnect may have missed lines), sent on a change of room."""
        html = await in_pool(chat.room_html)(
            self.table_id, self.seat, self.language, muted=frozenset(self.muted)
        )
        await self.send(text_data=html)

    async def table_chat(self, event: dict) -> None:
        """A line said in this page's room, rendered for its language: forwarded as it is,
        unless this viewer muted its author (the line never reaches their page)."""
        if event.get("author") in self.muted:
            return
        await self.send(text_data=event["text"])

    async def chat_mute(self, event: dict) -> None:
        """This viewer muted (``muted`` true) or unmuted ``author`` (``games.chat_mutes``)."""
        if event["muted"]:
            self.muted.add(event["author"])
        else:
            self.muted.discard(event["author"])

    async def say(self, payload: dict) -> None:
        """The page said a chat line: store and send it, or answer the refusal here."""
        if not self.signed_in:
            await self.send_flash(_("Log in to chat."))
            return
        refusal = await in_pool(self.post_line)(payload)
        if refusal:
            await self.send_flash(refusal)

    def post_line(self, payload: dict) -> str:
        """``chat.post`` in this page's language: "" when said, else the refusal."""
        with translation.override(self.language):
            try:
                chat.post(
                    self.table_id, self.user, payload.get("phrase", ""), payload.get("text", "")
                )
            except chat.ChatError as e:
                return str(e)
        return ""

    async def spectators_count(self, event: dict) -> None:
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
            if not self.rate.take():
                if self.rate.flooding:
                    await self.close(code=socket_limits.FLOODING)
                elif self.rate.warn():
                    await self.send_flash(_("Too many messages: slow down."))
                return
            payload = parse_message(text_data)
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

    async def heartbeat(self, page_version) -> None:
        """The page is still there: renew its audience (and spectator presence), and send a
        snapshot if the page or this socket lost a push.

        A push may be on its way at any moment, so being behind *now* proves nothing: the page
        is behind if it has not shown what this socket sent before its previous heartbeat, and
        this socket if it still lacks the table's last push (Redis) a second later.
        """
        latest = await in_pool(self.renew)()
        page_lost = type(page_version) is int and page_version < self.sent_by_last_heartbeat
        self.sent_by_last_heartbeat = self.version
        if page_lost:
            await self.resync()
        elif latest is not None and latest > (self.revision, self.version):
            asyncio.ensure_future(self.resync_if_behind(latest))

    async def resync_if_behind(self, latest: tuple[int, int]) -> None:
        await asyncio.sleep(HEARTBEAT_GRACE_SECONDS)
        if latest > (self.revision, self.version):
            await self.resync()

    def renew(self) -> tuple[int, int] | None:
        self.register(self.audience)
        if self.counted:
            spectating.join(self.table_id, self.channel_name, self.person)
        return audiences.latest(self.table_id, spectator=self.seat is None)

    async def answer(self, payload: dict | None) -> None:
        """Take the page's message as its action and log one ``socket.answer`` line: table,
        match, seat, action kind, outcome code and ms (``services.log_action``; no cards)."""
        started = time.perf_counter()
        outcome = await self.apply_or_refuse(payload)
        services.log_action(
            "socket.answer",
            self.match_id,
            self.seat,
            payload,
            outcome,
            started,
            table=self.table_id,
        )

    async def apply_or_refuse(self, payload: dict | None) -> services.Result | str:
        """Submit the action; a refusal is answered to this page. Returns the Result, or the
        outcome code of a message refused before it reached the match."""
        if payload is None:
            await self.send_flash(_("That message could not be read."))
            return "unreadable"
        if self.user is None or not self.user.is_authenticated:
            await self.send_flash(_("Log in to play."))
            return "anonymous"
        result = await in_pool(self.submit)(payload)
        if result is None:
            await self.send_flash(_("The match has not started yet."))
            return "not_started"
        if not result.ok:
            await self.send_flash(refusal_message(result))
            if result.code in ("stale", "duplicate"):
                await self.send_snapshot()
        return result

    def submit(self, payload: dict) -> services.Result | None:
        if self.match_id is None:
            self.match_id = (
                Match.objects.filter(table_id=self.table_id).values_list("pk", flat=True).first()
            )
        if self.match_id is None:
            return None
        if payload.get("action") in standins.CONTROLS:  # the AI stand-in: on, off, for good
            return standins.control(self.match_id, self.user, payload)
        return services.submit(self.match_id, self.user, payload)

    async def send_flash(self, message: str) -> None:
        with translation.override(self.language):
            html = render_to_string("games/partials/flash.html", {"message": message, "oob": True})
        await self.send(text_data=html)


def scope_language(scope: dict) -> str:
    """The page's language as the pages pick it: a signed-in player's saved language, else the
    language cookie, else the browser's Accept-Language, else the default (a socket has no
    request of its own)."""
    saved = saved_language(scope.get("user"))
    if saved:
        return saved
    headers = dict(scope.get("headers") or [])
    request = SimpleNamespace(
        COOKIES=scope.get("cookies") or {},
        META={"HTTP_ACCEPT_LANGUAGE": headers.get(b"accept-language", b"").decode("latin-1")},
    )
    return translation.get_language_from_request(request)


def parse_message(text: str | None) -> dict | None:
    """A client message as a dict with ``cards`` a list and ``version`` an int, or None.

    htmx's ws extension sends form values as strings (one checked card is a bare string).
    """
    if not text or len(text) > MAX_MESSAGE_BYTES:
        return None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):  # deep nesting fits in 4 KB and exhausts the parser
        return None
    if not isinstance(data, dict):
        return None
    data.pop("HEADERS", None)
    cards = data.get("cards")
    if isinstance(cards, str):
        data["cards"] = [cards]
    elif cards is None and data.get("action") in ("play", "hook", "unhook"):
        data["cards"] = []
    version = data.get("version")
    if isinstance(version, str) and version.isdigit():
        data["version"] = int(version)
    return data


def refusal_message(result: services.Result) -> str:
    """A clear, translated sentence for a refused action."""
    messages = {
        "not_your_turn": _("It is not your turn."),
        "not_in_hand": _("You do not hold those cards."),
        "invalid_combination": _("Those cards are not a valid combination."),
        "does_not_beat": _("That does not beat the cards on the table."),
        "leader_cannot_pass": _("You lead this trick: play something."),
        "window_open": _("A claim window is open: hook, unhook or pass first."),
        "no_window": _("There is nothing to claim now."),
        "invalid_claim": _("A hook is a pair of the same face, an unhook a single."),
        "already_answered": _("You already answered this claim window."),
        "owner_cannot_claim": _("You cannot claim your own card."),
        "empty_play": _("Select the cards to play first."),
        "unknown_card": _("That is not a card."),
        "invalid_return": _("Return one card of face 2 to 9."),
        "tribute_pending": _("Waiting for tribute returns."),
        "finished": _("You are out of this round."),
        "round_over": _("The round is over."),
        "match_over": _("The match is over."),
        "not_seated": _("Spectators cannot play."),
        "stale": _("The table moved on; here is the current state."),
        "abandoned": _("This match was stopped."),
        "duplicate": _("That move was already received."),
        "stand_in": _("The AI is playing for you: press “I'm back” to play yourself."),
        "not_stood_in": _("You are playing your seat yourself."),
        "left": _("You left this match: the AI finishes it for you."),
        "leave_rated": _(
            "At a rated table you cannot leave for good: resign, or let the AI play for a while."
        ),
    }
    return messages.get(result.code, _("That move is not allowed now."))
