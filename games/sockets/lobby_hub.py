"""The lobby's per-process hub: the one subscriber to ``notify.LOBBY_GROUP`` that feeds every
lobby socket of its process (``games.sockets.lobby_consumer``).

It gathers the ``lobby.changed`` messages that arrive within ``WINDOW_SECONDS`` into one
refresh, renders the public lists ONCE per language for that refresh (``lobby.public_frames``)
and sends the same HTML to every lobby socket of that language; "my tables" is rendered only
for the players a message names (``lobby.mine_frames``), once per player and language, and sent
to that player's sockets only. Its channel also joins the session group of each player with a
socket here (``games.sockets.session_guard``), and closes that player's sockets with 4401 when a
session of theirs ends.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Protocol

from channels.db import database_sync_to_async
from channels.layers import BaseChannelLayer, get_channel_layer
from django.db import close_old_connections

from games.live import lobby, notify
from games.sockets import session_check, session_guard

log = logging.getLogger(__name__)

#: Changes arriving within this many seconds of the first make one refresh: at most four
#: refreshes a second per process, and a change shows at most this much (plus a render) late.
WINDOW_SECONDS = 0.25
#: A socket that connects reuses the public HTML of the current refresh for this long (seconds);
#: older, it is rendered again (the live rows' spectator counts move without a message).
CACHE_SECONDS = 2.0
#: The hub renews its group membership this often (seconds): a channel layer with a group
#: expiry (``RedisChannelLayer``'s is a day) would otherwise stop telling it anything.
REJOIN_SECONDS = 3600.0

# One thread for all the lobby's queries and renders: refreshes are serial anyway, a connect
# costs a few milliseconds, and the lobby then holds at most one database connection (of the
# pool sized for the table sockets) however many pages load at once.
_LOBBY_THREAD = ThreadPoolExecutor(max_workers=1, thread_name_prefix="club414-lobby")


def _render(
    languages: list[str], mine: dict[int, list[str]]
) -> tuple[dict[str, str], dict[tuple[int, str], str]]:
    """``(lobby.public_frames(languages), lobby.mine_frames(mine))`` in one thread hop (and one
    database connection): ``({language: html}, {(user id, language): html})``."""
    try:
        public = lobby.public_frames(languages) if languages else {}
        return public, (lobby.mine_frames(mine) if mine else {})
    finally:
        # Here, inside the call: Django's connections live in the caller's (copied) context,
        # and database_sync_to_async's own clean-up runs outside it (asgiref 3.13) and never
        # sees them; without this, the render's connection stayed checked out of the pool.
        close_old_connections()


_render_in_thread = database_sync_to_async(_render, thread_sensitive=False, executor=_LOBBY_THREAD)


def _still_valid(sessions: list[tuple[str | None, int | None]]) -> list[bool]:
    """``session_check.is_valid`` for each ``(session key, user id)``, in one thread hop; False
    without a key or a user."""
    try:
        return [
            bool(key) and user_id is not None and session_check.is_valid(str(key), user_id)
            for key, user_id in sessions
        ]
    finally:
        close_old_connections()  # inside the call, as in _render


_still_valid_in_thread = database_sync_to_async(
    _still_valid, thread_sensitive=False, executor=_LOBBY_THREAD
)


class LobbySocket(Protocol):
    """What the hub sees of a lobby socket (``lobby_consumer.LobbyConsumer``)."""

    language: str
    user_id: int | None
    session_key: str | None
    session_digest: str

    async def offer_public(self, generation: int, html: str) -> None: ...

    async def offer_mine(self, version: int, html: str) -> None: ...

    async def end_for_session(self) -> None: ...


@dataclass
class _Cached:
    """A public render of one language: which refresh, started when (monotonic seconds), and the
    task answering ``_render`` (awaited, shielded, by everyone who wants it)."""

    generation: int
    started: float
    task: asyncio.Task[tuple[dict[str, str], dict[tuple[int, str], str]]]

    def fresh(self, generation: int) -> bool:
        if self.generation != generation:
            return False
        if not self.task.done():
            return True
        failed = self.task.cancelled() or self.task.exception() is not None
        return not failed and time.monotonic() - self.started < CACHE_SECONDS


class LobbyHub:
    """The lobby sockets of one process (one event loop) and the single subscription that
    refreshes them.

    ``generation`` counts refreshes of the public lists; ``user_versions`` ({user id: int})
    counts refreshes of each connected player's "my tables". The hub subscribes when its first
    socket joins and unsubscribes when its last one leaves.
    """

    _current: LobbyHub | None = None

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.generation = 0
        self.user_versions: dict[int, int] = {}
        self._sockets: set[LobbySocket] = set()
        self._by_user: dict[int, set[LobbySocket]] = {}
        self._pending_users: set[int] = set()
        self._dirty = asyncio.Event()
        self._cache: dict[str, _Cached] = {}
        self._lock = asyncio.Lock()
        self._channel: str | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._session_tasks: set[asyncio.Task[None]] = set()
        # ``settled``: the lobby.changed heard so far, those the last refresh covered, and the
        # callers waiting ({token: future}) with how many had been heard when their marker came.
        self._heard = self._refreshed = 0
        self._settle_waiters: dict[str, asyncio.Future[None]] = {}
        self._settle_targets: list[tuple[int, str]] = []

    @classmethod
    def current(cls) -> LobbyHub:
        """This process's hub. Daphne runs one event loop; a new loop (a test's) gets a new hub."""
        loop = asyncio.get_running_loop()
        if cls._current is None or cls._current.loop is not loop:
            cls._current = cls(loop)
        return cls._current

    # --- sockets ---------------------------------------------------------------------------------

    async def join(self, socket: LobbySocket) -> None:
        """Register ``socket`` and send it the lists as they are (public, then its own tables).

        Registered before rendering, so a refresh that starts meanwhile includes it; whichever
        of the two frames is newer wins (``offer_*``)."""
        try:
            await self._subscribe()
        except Exception:  # Redis away: the snapshot still goes out, the next join retries
            log.exception("lobby: subscribing to the lobby group failed")
        self._sockets.add(socket)
        if socket.user_id is not None:
            own = self._by_user.setdefault(socket.user_id, set())
            own.add(socket)
            if len(own) == 1:
                await self._watch_sessions(socket.user_id, True)
        generation = self.generation
        version = self.user_versions.get(socket.user_id, 0) if socket.user_id is not None else 0
        cached = self._cache.get(socket.language)
        if cached is not None and not cached.fresh(generation):
            cached = None
        languages = [] if cached else [socket.language]
        mine = {socket.user_id: [socket.language]} if socket.user_id is not None else {}
        task = None
        if languages or mine:
            task = asyncio.ensure_future(_render_in_thread(languages, mine))
            if not cached:
                cached = self._cache[socket.language] = _Cached(generation, time.monotonic(), task)
        assert cached is not None  # none was fresh: a render of its language started above
        try:
            public_html = (await asyncio.shield(cached.task))[0].get(socket.language)
            mine_html = (await asyncio.shield(task))[1] if task else {}
        except Exception:
            log.exception("lobby: rendering the lists for a new socket failed")
            return  # the page shows the lists it was served with; the next refresh repairs it
        if public_html is not None:
            await socket.offer_public(generation, public_html)
        if mine and socket.user_id is not None:  # (mine is empty for an anonymous socket)
            await socket.offer_mine(version, mine_html[socket.user_id, socket.language])

    async def leave(self, socket: LobbySocket) -> None:
        self._sockets.discard(socket)
        if socket.user_id is not None:
            mine = self._by_user.get(socket.user_id, set())
            mine.discard(socket)
            if not mine:
                self._by_user.pop(socket.user_id, None)
                self.user_versions.pop(socket.user_id, None)
                await self._watch_sessions(socket.user_id, False)
        if not self._sockets:
            try:
                await self._unsubscribe()
            except Exception:
                log.exception("lobby: leaving the lobby group failed")

    # --- sessions (games.sockets.session_guard) ---------------------------------------------------

    async def _watch_sessions(self, user_id: int, watch: bool) -> None:
        """Join (or leave) the player's session group on the hub's one channel, so that an
        ended session closes this process's lobby sockets of it."""
        layer, channel = get_channel_layer(), self._channel
        if layer is None or channel is None:
            return  # not subscribed: _subscribe joins the groups of the players here
        group = session_guard.user_group(user_id)
        try:
            await (layer.group_add if watch else layer.group_discard)(group, channel)
        except Exception:
            log.exception("lobby: joining or leaving a session group failed")

    async def _end_sessions(self, message: dict[str, Any]) -> None:
        """``session.ended`` closes the named session's sockets; ``session.check`` re-checks
        every socket of the player and closes those whose session no longer holds."""
        user = message.get("user")
        if user is None:
            return
        try:
            sockets = list(self._by_user.get(int(user), ()))
        except (TypeError, ValueError):
            return
        if message["type"] == "session.ended":
            ended = [s for s in sockets if s.session_digest == message.get("session")]
        else:
            try:
                valid = await _still_valid_in_thread([(s.session_key, s.user_id) for s in sockets])
            except Exception:
                log.exception("lobby: checking sessions failed")
                return
            ended = [s for s, ok in zip(sockets, valid, strict=True) if not ok]
        for socket in ended:
            await socket.end_for_session()

    # --- the subscription ------------------------------------------------------------------------

    async def _subscribe(self) -> None:
        """Join the lobby group (once), before a socket's first render: a change committed
        after that render is then heard."""
        async with self._lock:
            if self._channel is not None:
                return
            layer = get_channel_layer()
            if layer is None:
                return  # no channel layer configured: sockets get the snapshot on connect only
            channel = await layer.new_channel()
            await layer.group_add(notify.LOBBY_GROUP, channel)
            for user_id in list(self._by_user):
                await layer.group_add(session_guard.user_group(user_id), channel)
            # Changes made while nobody listened were not heard: no cached render is current.
            self.generation += 1
            self._cache.clear()
            self._channel = channel
            self._tasks = [
                asyncio.ensure_future(self._listen(layer, channel)),
                asyncio.ensure_future(self._refresh_loop(layer, channel)),
            ]

    async def _unsubscribe(self) -> None:
        async with self._lock:
            if self._sockets or self._channel is None:
                return  # a socket joined meanwhile
            channel, self._channel = self._channel, None
            tasks, self._tasks = self._tasks, []
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            self._pending_users.clear()
            self._dirty.clear()
            for done in self._settle_waiters.values():  # nothing more will be heard
                if not done.done():
                    done.set_result(None)
            self._settle_targets.clear()
            layer = get_channel_layer()
            if layer is not None:  # (it was there for _subscribe)
                await layer.group_discard(notify.LOBBY_GROUP, channel)

    async def _listen(self, layer: BaseChannelLayer, channel: str) -> None:
        """Note each ``lobby.changed`` for the next refresh (``notify.lobby_changed``'s
        ``{"type": "lobby.changed", "users": [user id, ...]}``; no "users": public lists only)."""
        while True:
            try:
                message = await layer.receive(channel)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("lobby: receiving from the channel layer failed")
                await asyncio.sleep(1)
                continue
            if message.get("type") in ("session.ended", "session.check"):
                task = asyncio.ensure_future(self._end_sessions(message))
                self._session_tasks.add(task)
                task.add_done_callback(self._session_tasks.discard)
                continue
            if message.get("type") == "lobby.settle":  # (settled)
                self._settle_targets.append((self._heard, str(message.get("token"))))
                self._release_settled()
                continue
            if message.get("type") != "lobby.changed":
                continue
            self._heard += 1
            # Only players with a socket here: the others' lists are another process's job.
            self._pending_users.update(
                user_id for user_id in message.get("users") or () if user_id in self._by_user
            )
            self._dirty.set()

    async def _refresh_loop(self, layer: BaseChannelLayer, channel: str) -> None:
        """One refresh per window: the first change opens it, the ones within it join it.
        Refreshes never overlap, so a slow render delays the next instead of piling up."""
        while True:
            try:
                await asyncio.wait_for(self._dirty.wait(), REJOIN_SECONDS)
            except TimeoutError:
                await layer.group_add(notify.LOBBY_GROUP, channel)
                for user_id in list(self._by_user):
                    await layer.group_add(session_guard.user_group(user_id), channel)
                continue
            await asyncio.sleep(WINDOW_SECONDS)
            self._dirty.clear()
            users, self._pending_users = self._pending_users, set()
            through = self._heard
            try:
                await self._refresh(users)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("lobby: a refresh failed")
            self._refreshed = through
            self._release_settled()

    async def settled(self) -> None:
        """Return once every ``lobby.changed`` published before the call has been heard and the
        refresh it joined offered to the sockets: a marker sent on the hub's own channel comes
        after them (one channel, in order), and is answered once a refresh covered every change
        heard before it. What the tests wait on instead of a quiet window."""
        layer, channel = get_channel_layer(), self._channel
        if layer is None or channel is None:
            return  # not subscribed: nothing is heard, nothing to wait for
        token = uuid.uuid4().hex
        done = self._settle_waiters[token] = self.loop.create_future()
        try:
            await layer.send(channel, {"type": "lobby.settle", "token": token})
            await done
        finally:
            self._settle_waiters.pop(token, None)

    def _release_settled(self) -> None:
        """Answer the ``settled`` markers whose changes the last refresh covered."""
        waiting = []
        for heard, token in self._settle_targets:
            done = self._settle_waiters.get(token)
            if heard > self._refreshed:
                waiting.append((heard, token))
            elif done is not None and not done.done():
                done.set_result(None)
        self._settle_targets = waiting

    async def _refresh(self, users: set[int]) -> None:
        """Render the public lists once per language spoken here, "my tables" once per player
        named in ``users`` and language, and send each to the sockets it is for."""
        sockets = list(self._sockets)
        if not sockets:
            return
        self.generation += 1
        generation = self.generation
        languages = sorted({socket.language for socket in sockets})
        mine: dict[int, list[str]] = {}
        versions: dict[int, int] = {}
        for user_id in users:
            own = self._by_user.get(user_id)
            if own:
                versions[user_id] = self.user_versions[user_id] = (
                    self.user_versions.get(user_id, 0) + 1
                )
                mine[user_id] = sorted({socket.language for socket in own})
        task = asyncio.ensure_future(_render_in_thread(languages, mine))
        started = time.monotonic()
        for language in languages:  # sockets connecting during the render share it
            self._cache[language] = _Cached(generation, started, task)
        public, mine_html = await asyncio.shield(task)
        for socket in sockets:
            await socket.offer_public(generation, public[socket.language])
        for user_id, version in versions.items():
            for socket in list(self._by_user.get(user_id, ())):
                html = mine_html.get((user_id, socket.language))
                if html is not None:  # a language that connected during the render: it has
                    await socket.offer_mine(version, html)  # its own snapshot
