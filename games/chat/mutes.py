"""Muting: a reader hides a player's chat lines at every table until they unmute.

The lines are rendered once per room and language for everyone (``games.chat.rooms``), so a mute
is applied per reader where the lines leave the server: the table page leaves muted players'
lines out of its first render (and lists their ids, ``#chat[data-muted]``, so table.js hides
the lines already on the page when the reader mutes), and each of the reader's table sockets
keeps the muted ids in memory (loaded on connect, told of every mute and unmute through
``group``) and does not forward a muted author's line (``TableConsumer.table_chat``).
"""

from __future__ import annotations

import json
import logging
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser

from accounts.models import Follow, User
from accounts.notices import seen_at_table
from games.chat.rooms import latest, room_for
from games.live import notify
from games.models import ChatMute, Table
from games.models.phrases import PHRASES

log = logging.getLogger(__name__)


def group(user_id: int) -> str:
    """The channel group of every table socket of one player: told of their mutes."""
    return f"chat-mutes-user-{user_id}"


def _tell_sockets(user_id: int, muted_id: int, on: bool) -> None:
    message = {"type": "chat.mute", "author": muted_id, "muted": on}
    try:
        notify.send_many([(group(user_id), message)])
    except Exception:  # Redis away: the mute is stored; sockets read it when they reconnect
        log.warning("chat mute not sent to the sockets", exc_info=True)


def mute(user: User, muted: User) -> None:
    """``user`` hides ``muted``'s lines from now on (muting twice changes nothing); their open
    table sockets stop forwarding ``muted``'s lines."""
    if user.pk != muted.pk:
        ChatMute.objects.get_or_create(user=user, muted=muted)
        _tell_sockets(user.pk, muted.pk, True)


def unmute(user: User, muted: User) -> None:
    """``user`` reads ``muted``'s lines again, on their open table sockets too."""
    ChatMute.objects.filter(user=user, muted=muted).delete()
    _tell_sockets(user.pk, muted.pk, False)


def muted_ids(user: User | AnonymousUser | None) -> list[int]:
    """The ids of the players ``user`` muted ([] for an anonymous viewer)."""
    if user is None or not user.is_authenticated:
        return []
    return list(ChatMute.objects.filter(user=user).values_list("muted_id", flat=True))


def page_context(
    user: User | AnonymousUser | None, table_id: int, seat: int | None
) -> dict[str, Any]:
    """The chat section of a table page: its room, last lines without muted players', the
    muted ids as JSON, the quick phrases and the length limit."""
    muted = muted_ids(user)
    room = room_for(seat)
    return {
        "room": room,
        "lines": [line for line in latest(table_id, room) if line.author_id not in muted],
        "muted": json.dumps(muted),
        "phrases": list(PHRASES.items()),
        "max_chars": settings.GAMES_CHAT_MAX_CHARS,
    }


def table_page_context(
    user: User | AnonymousUser | None, table: Table, seat: int | None
) -> dict[str, Any]:
    """What the table page adds for chat and invitations (and, for a seated player, marks
    their "your turn" notices of the table seen): ``chat`` (``page_context``),
    ``can_invite`` (the host or a seated player, while the table is not over) and ``followed``
    (the usernames the viewer follows, offered in the invite box)."""
    # The signed-in viewer (request.user is a lazy object: isinstance sees the User it wraps).
    member = user if isinstance(user, User) and user.is_authenticated else None
    if member is not None and seat is not None:
        seen_at_table(member, table)  # "your turn" there: they are looking now
    can_invite = (
        member is not None
        and (seat is not None or table.host_id == member.pk)
        and table.status in (Table.Status.OPEN, Table.Status.PLAYING)
    )
    followed = (
        list(Follow.objects.filter(follower=member).values_list("followed__username", flat=True))
        if can_invite
        else []
    )
    return {
        "chat": page_context(user, table.pk, seat),
        "can_invite": can_invite,
        "followed": followed,
    }
