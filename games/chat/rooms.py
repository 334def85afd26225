"""Table chat: the seated players' room and the spectators' room (``ChatLine.Room``).

A line goes over the table's WebSocket but is not a frame of the match: it carries no
``<!--frame …-->`` header, so it never moves the page's version/revision (table.js applies
header-less messages as they come) and the socket forwards it without the order check. It is
rendered once per language of its room (``publish``) and sent to one channel group per
(table, room, language) — the cost is per table, not per socket. A socket joins the group of its
room only (``TableConsumer.take_audience``): a seat's socket the players' room, a spectator's the
spectators' room. Players never see the spectators' lines; spectators never see the players'
lines either, because a spectator may watch with a delay (``games.live.delay``) and live talk
("nice bomb!") would tell them what the table has not shown them yet. No line names a card of
anyone's hand: a line is its author's name and their phrase or text, nothing else.

A quick phrase is stored as its code and rendered in each reader's language; free text is
limited to ``GAMES_CHAT_MAX_CHARS`` and escaped by the template (autoescape). Each player may
say ``GAMES_CHAT_RATE`` lines in any such period (``config.rate_limits.take_sliding``: a sliding
window in the shared Redis, so the limit holds across Daphne processes and a burst across the
edge of a fixed window cannot pass). The room keeps every line (reports point at them); a page
shows the last ``KEEP`` (``room_html``, sent on connect and on a change of room, so a reload or
a reconnect shows them). Muting is the reader's own choice: each socket drops its reader's muted
authors' lines (the group message names the author; ``games.chat.mutes``).
"""

from __future__ import annotations

import logging
from collections.abc import Collection

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _

from accounts.models import User
from config import rate_limits
from config.plain_text import visible
from games.live import audiences, notify
from games.models import ChatLine, Seat
from games.models.phrases import PHRASES

log = logging.getLogger(__name__)

#: A page shows this many lines of its room.
KEEP = 30
RATE_GROUP = "games.chat.rooms"
LINE_TEMPLATE = "games/partials/chat_line.html"
ROOM_TEMPLATE = "games/partials/chat_room.html"


class ChatError(Exception):
    """A line refused: the message is a translated sentence for the sender."""


def room_for(seat: int | None) -> str:
    """The room of a page: the players' for a seat (0–7), the spectators' for None."""
    return ChatLine.Room.SPECTATORS if seat is None else ChatLine.Room.PLAYERS


def group(table_id: int, room: str, language: str) -> str:
    """The channel group of one room of one table in one language."""
    return f"table-{table_id}.chat-{room}.{language}"


def clean_text(text: object) -> str:
    """Free text as stored: a string, invisible characters dropped (``config.plain_text``),
    spaces stripped at the ends. Raises ChatError if it is longer than ``GAMES_CHAT_MAX_CHARS``."""
    if not isinstance(text, str):
        return ""
    text = visible(text)
    if len(text) > settings.GAMES_CHAT_MAX_CHARS:
        raise ChatError(
            _("A message is at most %(n)d characters.") % {"n": settings.GAMES_CHAT_MAX_CHARS}
        )
    return text


def _rate_exceeded(user_id: int) -> bool:
    # Unavailable Redis (None): a cache outage must not stop the table talking.
    usage = rate_limits.take_sliding(RATE_GROUP, str(user_id), settings.GAMES_CHAT_RATE)
    return usage is not None and usage.over


def post(
    table_id: int, user: User | AnonymousUser | None, phrase: object = "", text: object = ""
) -> ChatLine:
    """Say a quick phrase (``phrase``, a ``games.models.phrases`` code) or ``text`` at ``table_id``,
    in the room of the user's place there now: their seat's, else the spectators'. The caller
    has checked the user may watch the table (the socket did on connect).

    Returns the stored line, already sent to its room. Raises ChatError (nothing stored, nothing
    sent) for an anonymous user, a player who left the match for good, an unknown phrase, empty
    or too long text, or past the rate.
    """
    if user is None or not user.is_authenticated:
        raise ChatError(_("Log in to chat."))
    phrase = phrase if isinstance(phrase, str) else ""
    if phrase and phrase not in PHRASES:
        raise ChatError(_("That is not one of the quick phrases."))
    text = "" if phrase else clean_text(text)
    if not phrase and not text:
        raise ChatError(_("Type a message or pick a phrase."))
    seat = (
        Seat.objects.filter(table_id=table_id, user=user).values_list("number", "stand_in").first()
    )
    if seat is not None and seat[1] == Seat.StandIn.LEFT:
        # They handed their seat to the AI for good (games.play.standins): the players' room is no
        # longer theirs to talk in, and they are not a spectator either.
        raise ChatError(_("You left this match: you can no longer write in its chat."))
    room = room_for(seat[0] if seat is not None else None)
    if _rate_exceeded(user.pk):
        raise ChatError(_("You are sending messages too fast: wait a moment."))
    line = ChatLine.objects.create(
        table_id=table_id, room=room, author=user, phrase=phrase, text=text
    )
    line.author = user
    publish(line)
    return line


def publish(line: ChatLine) -> None:
    """Send ``line`` to every language of its room watching its table: one render and one
    group message per language."""
    wanted = line.room == ChatLine.Room.PLAYERS
    languages = sorted(
        {a.language for a in audiences.live(line.table_id) if (a.seat is not None) == wanted}
    )
    messages = []
    for language in languages:
        with translation.override(language):
            html = render_to_string(LINE_TEMPLATE, {"line": line, "append": True})
        messages.append(
            (
                group(line.table_id, line.room, language),
                {"type": "table.chat", "text": html, "author": line.author_id},
            )
        )
    notify.send_many(messages)


def latest(table_id: int, room: str) -> list[ChatLine]:
    """The last ``KEEP`` lines of a room, oldest first."""
    lines = list(
        ChatLine.objects.filter(table_id=table_id, room=room)
        .select_related("author")
        .order_by("-id")[:KEEP]
    )
    lines.reverse()
    return lines


def room_html(
    table_id: int,
    seat: int | None,
    language: str,
    oob: bool = True,
    muted: Collection[int] = (),
) -> str:
    """The room region of a page at ``seat`` (None: a spectator) with its last lines but those
    of the ``muted`` author ids, in ``language``; out of band by default (what the socket
    sends)."""
    room = room_for(seat)
    lines = [line for line in latest(table_id, room) if line.author_id not in muted]
    with translation.override(language):
        return render_to_string(ROOM_TEMPLATE, {"room": room, "lines": lines, "oob": oob})
