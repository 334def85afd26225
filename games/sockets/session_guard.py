"""Ending a session ends its sockets: a signed-in socket lives only as long as its session.

A socket opened by a signed-in player is bound to the session it connected with (its key, kept
in the consumer, never sent anywhere; messages name it by ``digest``). Two things keep it honest:

- **A check on every message it acts on** (``SessionGuard.session_still_valid``): a play, a claim,
  a resync — anything that can change the match or send the hand — first asks ``is_valid``
  (``games.sockets.session_check``: one fixed query on database-backed sessions). A heartbeat
  reuses a check younger than ``HEARTBEAT_RECHECK_SECONDS``, so a quiet page costs one query per
  half-minute, not one per heartbeat; it is the backstop when the message below was lost
  (pub/sub can drop).
- **A message when a session ends**, sent from the sync code that ended it to the player's group
  (``user_group``), which every signed-in socket joins (the lobby's hub joins it for its
  sockets, ``games.sockets.lobby_hub``):

  ============================================  ====================================
  what happened                                  message
  ============================================  ====================================
  log-out (``user_logged_out``)                  ``session.ended`` naming the session
  a session row deleted (admin, shell,
  ``clearsessions``, a key cycled at log-in or
  by ``update_session_auth_hash``)               ``session.ended`` naming the session
  password set (``set_password`` then ``save``,
  the password change and reset pages)           ``session.check``
  account deactivated (``is_active`` False and
  saved, also from the admin) or deleted         ``session.check``
  ============================================  ====================================

  ``session.ended`` closes that session's sockets at once, without a query; ``session.check``
  makes each socket of the player run ``is_valid`` and close if its session no longer holds.

A socket whose session ended is closed with ``CLOSE_CODE`` (4401) and leaves every group at once
(its audience's too, so no seat frame reaches it); whatever it still receives is dropped. A
change made with ``QuerySet.update`` sends no signal: the next check catches it.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable, Coroutine
from typing import Any, Protocol

from asgiref.typing import WebSocketDisconnectEvent
from channels.db import database_sync_to_async
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from django.contrib.auth import SESSION_KEY, get_user_model, user_logged_out
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.sessions.models import Session
from django.db import connections, transaction
from django.db.models.signals import post_delete, post_save
from django.http import HttpRequest

from games.live import notify
from games.sockets.session_check import is_valid

log = logging.getLogger(__name__)

#: The close code of a socket whose session ended (4000–4999 are the application's; 4401 as
#: in HTTP 401). table.js reloads the page on it.
CLOSE_CODE = 4401
#: A heartbeat re-checks the session only when the last check is older than this (seconds).
HEARTBEAT_RECHECK_SECONDS = 30.0


def user_group(user_id: int | str) -> str:
    """The channel group of every signed-in socket of one player."""
    return f"sessions-user-{user_id}"


def digest(session_key: str) -> str:
    """A session's name in messages: 32 hex digits of its key's SHA-256 (the key is a
    credential and never leaves the process)."""
    return hashlib.sha256(session_key.encode()).hexdigest()[:32]


# --- telling the sockets (sync code: views, admin, shell) ---------------------------------------


def _send_after_commit(user_id: int | str, message: dict[str, str]) -> None:
    """Send ``message`` (a ``session.ended`` or ``session.check``, every value a string) to the
    player's sockets once the change that ended a session commits.
    Redis being away must not fail a log-out or a password change: logged, and the sockets'
    next check closes them."""

    def send() -> None:
        try:
            notify.send_many([(user_group(user_id), message)])
        except Exception:
            log.warning(
                "could not tell user %s's sockets that a session ended", user_id, exc_info=True
            )

    transaction.on_commit(send)


def session_ended(session_key: str, user_id: int | str) -> None:
    """Close the sockets of this session (after the current transaction commits)."""
    _send_after_commit(
        user_id, {"type": "session.ended", "user": str(user_id), "session": digest(session_key)}
    )


def sessions_changed(user_id: int | str) -> None:
    """Make every socket of this player re-check its session (after commit)."""
    _send_after_commit(user_id, {"type": "session.check", "user": str(user_id)})


def _on_logged_out(
    sender: object,
    request: HttpRequest | None = None,
    user: AbstractBaseUser | None = None,
    **kwargs: object,
) -> None:
    key = getattr(getattr(request, "session", None), "session_key", None)
    if user is not None and user.pk is not None and key:
        session_ended(key, user.pk)


def _on_session_deleted(sender: type[Session], instance: Session, **kwargs: object) -> None:
    user_id = instance.get_decoded().get(SESSION_KEY)  # {} when the data does not verify
    if user_id is not None and str(user_id).isdigit():
        session_ended(instance.session_key, user_id)


def _on_user_saved(
    sender: type[AbstractBaseUser],
    instance: AbstractBaseUser,
    created: bool = False,
    **kwargs: object,
) -> None:
    # ``_password`` holds the raw password from set_password() until save() has finished.
    if not created and (getattr(instance, "_password", None) is not None or not instance.is_active):
        sessions_changed(instance.pk)


def _on_user_deleted(
    sender: type[AbstractBaseUser], instance: AbstractBaseUser, **kwargs: object
) -> None:
    sessions_changed(instance.pk)


def connect_signals() -> None:
    """Listen for log-outs, deleted sessions and the user model's saves and deletes
    (``GamesConfig.ready``)."""
    user_model = get_user_model()
    user_logged_out.connect(_on_logged_out, dispatch_uid="games.sockets.session_guard.logged_out")
    post_delete.connect(
        _on_session_deleted,
        sender=Session,
        dispatch_uid="games.sockets.session_guard.session_deleted",
    )
    post_save.connect(
        _on_user_saved, sender=user_model, dispatch_uid="games.sockets.session_guard.user_saved"
    )
    post_delete.connect(
        _on_user_deleted, sender=user_model, dispatch_uid="games.sockets.session_guard.user_deleted"
    )


# --- the consumer's side ------------------------------------------------------------------------


def _in_thread[**P, R](function: Callable[P, R]) -> Callable[P, Coroutine[Any, Any, R]]:
    """``function`` as a coroutine in a thread, its database connection given back inside."""

    def call(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return function(*args, **kwargs)
        finally:
            connections.close_all()

    return database_sync_to_async(call, thread_sensitive=False)


class SessionRunner(Protocol):
    """Turns a sync function into a coroutine function taking the same arguments, run in a
    thread (``_in_thread``, ``games.sockets.pool.in_pool``)."""

    def __call__[**P, R](
        self, function: Callable[P, R], /
    ) -> Callable[P, Coroutine[Any, Any, R]]: ...


class SessionGuard(AsyncWebsocketConsumer):
    """Mixin for an ``AsyncWebsocketConsumer`` with a channel: put it first among the bases
    (it is one itself, so that what it calls of the consumer is typed).

    The consumer calls ``guard_session()`` after ``accept()`` (False: the session is gone and
    the socket is closed) and ``session_still_valid(heartbeat=...)`` before acting on a message
    (False: drop the message, the socket is closed) — or, for a message it acts on in a pool
    job anyway, ``session_holds_now()`` first thing in that job (False: it does nothing and
    calls ``end_for_session()`` back in the loop). Ending calls the consumer's own
    ``disconnect(CLOSE_CODE)`` at once — where it leaves its groups — and not again when the
    close is acknowledged; every message after that is dropped.

    ``session_runner`` turns a sync function into a coroutine function run in a thread (the
    consumer's pool); by default a thread of the event loop's executor.
    """

    session_runner: SessionRunner = staticmethod(_in_thread)
    session_key: str | None = None  # None: anonymous, nothing to guard
    session_user_id: int | None = None
    session_digest = ""
    session_checked_at = 0.0
    session_closed = False

    async def guard_session(self) -> bool:
        """Bind this socket to its session and join the player's group; then check the session
        once more (it may have ended between the handshake's check and the join)."""
        user = self.scope.get("user")
        session = self.scope.get("session")
        key = getattr(session, "session_key", None)
        if user is None or not user.is_authenticated or not key:
            return True
        self.session_key, self.session_user_id = key, user.pk
        self.session_digest = digest(key)
        await self.channel_layer.group_add(user_group(user.pk), self.channel_name)
        return await self.session_still_valid()

    async def session_still_valid(self, heartbeat: bool = False) -> bool:
        """Whether this socket may go on (True for an anonymous one). A heartbeat reuses a
        check younger than ``HEARTBEAT_RECHECK_SECONDS``. Ends the socket when it may not."""
        if self.session_closed:
            return False
        key, user_id = self.session_key, self.session_user_id
        if key is None or user_id is None:  # (set together, by guard_session)
            return True
        now = time.monotonic()
        if heartbeat and now - self.session_checked_at < HEARTBEAT_RECHECK_SECONDS:
            return True
        if await self.session_runner(is_valid)(key, user_id):
            self.session_checked_at = now
            return True
        await self.end_for_session()
        return False

    def session_holds_now(self) -> bool:
        """``is_valid`` for this socket, called from inside a pool job that acts on the message
        (True for an anonymous socket): an action checks its session in the same thread hop as
        its submission, not in a hop of its own. False: the caller must not act and the consumer
        calls ``end_for_session()`` once back in the event loop."""
        key, user_id = self.session_key, self.session_user_id
        if key is None or user_id is None:  # (set together, by guard_session)
            return True
        if is_valid(key, user_id):
            self.session_checked_at = time.monotonic()
            return True
        return False

    async def end_for_session(self) -> None:
        """Close with ``CLOSE_CODE`` and leave every group now."""
        if self.session_closed:
            return
        self.session_closed = True
        await self.close(code=CLOSE_CODE)
        await self._leave_user_group()
        await self.disconnect(CLOSE_CODE)

    async def _leave_user_group(self) -> None:
        if self.session_key is not None and self.session_user_id is not None:  # (set together)
            await self.channel_layer.group_discard(
                user_group(self.session_user_id), self.channel_name
            )

    # --- messages ---------------------------------------------------------------------------

    async def dispatch(self, message: dict[str, Any]) -> None:
        if self.session_closed and message.get("type") != "websocket.disconnect":
            return  # closed for its session: nothing more is sent or done
        await super().dispatch(message)

    async def websocket_disconnect(self, message: WebSocketDisconnectEvent) -> None:
        if self.session_closed:
            raise StopConsumer()  # left its groups when it was closed
        await self._leave_user_group()
        await super().websocket_disconnect(message)

    async def session_ended(self, event: dict[str, str]) -> None:
        """``session.ended``: close if it names this socket's session."""
        if self.session_key is not None and event.get("session") == self.session_digest:
            await self.end_for_session()

    async def session_check(self, event: dict[str, str]) -> None:
        """``session.check``: the player's password or account changed; check now."""
        await self.session_still_valid()
