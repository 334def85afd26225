"""The table's WebSocket: one per open page, for a seat or a spectator (DESIGN.md).

Thin by design: parse the message, find the user's seat, call ``services.submit``, and answer a
refusal to this sender only. Every change reaches every page as a bare notification; each page
then renders its own regions from its own view (rule 2). Connecting sends everything (rule 5).
"""

from __future__ import annotations

import json
import time
from types import SimpleNamespace

from asgiref.sync import async_to_sync
from channels.generic.websocket import WebsocketConsumer
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _

from accounts.middleware import saved_language
from games import access, notify, services, spectating
from games.lobby import lobby_context
from games.models import Match, Seat, Table
from games.presenters import spectators_context, table_context

MAX_MESSAGE_BYTES = 4096
#: A page may send this many actions per second on average (bursts up to the same number);
#: beyond that its messages are dropped: each one may cost a full re-render of the table.
MESSAGES_PER_SECOND = 5
#: What table.js sends every ``spectating.HEARTBEAT_SECONDS`` to stay in the spectator count.
HEARTBEAT = '{"heartbeat":1}'


class TableConsumer(WebsocketConsumer):
    """``/ws/table/<id>/``: pushes this viewer's regions; takes a seat's actions."""

    def connect(self) -> None:
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        self.user = self.scope.get("user")
        self.language = scope_language(self.scope)
        table = Table.objects.filter(pk=self.table_id).first()
        if table is None or not access.can_watch(table, self.user, self.scope.get("session")):
            self.close(code=4403)
            return
        self.group = notify.table_group(self.table_id)
        self.counted = False  # this socket is in the table's spectator count
        self.shown_spectators: int | None = None
        self.last_delay = 0
        self.allowance = float(MESSAGES_PER_SECOND)
        self.checked_at = time.monotonic()
        async_to_sync(self.channel_layer.group_add)(self.group, self.channel_name)
        self.accept()
        self.send_regions()

    def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            async_to_sync(self.channel_layer.group_discard)(self.group, self.channel_name)
            if self.counted and spectating.leave(self.table_id, self.channel_name):
                notify.spectators_changed(self.table_id)

    def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if text_data == HEARTBEAT:
            if self.counted:
                spectating.join(self.table_id, self.channel_name)
            return
        with translation.override(self.language):
            if not self.within_rate():
                self.send_flash(_("Too many messages: slow down."))
                return
            self.answer(text_data)

    def within_rate(self) -> bool:
        """A token bucket per socket: ``MESSAGES_PER_SECOND`` refills each second."""
        now = time.monotonic()
        self.allowance = min(float(MESSAGES_PER_SECOND),
                             self.allowance + (now - self.checked_at) * MESSAGES_PER_SECOND)
        self.checked_at = now
        if self.allowance < 1:
            return False
        self.allowance -= 1
        return True

    def answer(self, text_data: str | None) -> None:
        payload = parse_message(text_data)
        if payload is None:
            self.send_flash(_("That message could not be read."))
            return
        if self.user is None or not self.user.is_authenticated:
            self.send_flash(_("Log in to play."))
            return
        match = Match.objects.filter(table_id=self.table_id).first()
        if match is None:
            self.send_flash(_("The match has not started yet."))
            return
        result = services.submit(match.pk, self.user, payload)
        if not result.ok:
            self.send_flash(refusal_message(result))
            if result.code in ("stale", "duplicate"):
                self.send_regions()

    def table_changed(self, event: dict) -> None:
        self.send_regions()

    def spectators_changed(self, event: dict) -> None:
        """Someone started or stopped watching: refresh the count, if it moved."""
        count = spectating.count(self.table_id)
        if count == self.shown_spectators:
            return
        self.shown_spectators = count
        table = Table.objects.get(pk=self.table_id)
        with translation.override(self.language):
            html = render_to_string("games/partials/spectators.html", {
                **spectators_context(table, count, self.last_delay), "oob": True})
        self.send(text_data=html)

    def send_regions(self) -> None:
        """Render every region of the table for this viewer, as out-of-band swaps.

        A spectator of a delayed table is rendered from the state ``spectator_delay`` moves
        back (``spectating.visible_state``), never from the live one.
        """
        with translation.override(self.language):
            table = Table.objects.get(pk=self.table_id)
            match = Match.objects.filter(table=table).first()
            seat = self.seat_number()
            self.sync_presence(seat)
            state = spectating.visible_state(table, match, seat) if match else None
            self.last_delay = spectating.delay_for(table, match, seat)
            self.shown_spectators = spectating.count(self.table_id)
            context = table_context(table, match, state, seat, self.user,
                                    spectators=self.shown_spectators, delay=self.last_delay)
            context["oob"] = True
            html = render_to_string("games/partials/regions.html", context)
        self.send(text_data=html)

    def sync_presence(self, seat: int | None) -> None:
        """Count this socket while its viewer has no seat (someone may sit down or stand up
        before the start), and tell the table when the count changes."""
        spectator = seat is None
        if spectator == self.counted:
            return
        self.counted = spectator
        if spectator:
            changed = spectating.join(self.table_id, self.channel_name)
        else:
            changed = spectating.leave(self.table_id, self.channel_name)
        if changed:
            notify.spectators_changed(self.table_id)

    def send_flash(self, message: str) -> None:
        with translation.override(self.language):
            html = render_to_string("games/partials/flash.html",
                                    {"message": message, "oob": True})
        self.send(text_data=html)

    def seat_number(self) -> int | None:
        if self.user is None or not self.user.is_authenticated:
            return None
        return (Seat.objects.filter(table_id=self.table_id, user=self.user)
                .values_list("number", flat=True).first())


class LobbyConsumer(WebsocketConsumer):
    """``/ws/lobby/``: pushes the lobby's lists when a table opens, fills, starts or ends."""

    def connect(self) -> None:
        self.user = self.scope.get("user")
        self.language = scope_language(self.scope)
        async_to_sync(self.channel_layer.group_add)(notify.LOBBY_GROUP, self.channel_name)
        self.accept()
        self.send_lists()

    def disconnect(self, code: int) -> None:
        async_to_sync(self.channel_layer.group_discard)(notify.LOBBY_GROUP, self.channel_name)

    def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """The lobby takes no messages."""

    def lobby_changed(self, event: dict) -> None:
        self.send_lists()

    def send_lists(self) -> None:
        with translation.override(self.language):
            context = {**lobby_context(self.user), "oob": True}
            html = render_to_string("games/partials/lobby_lists.html", context)
        self.send(text_data=html)


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
    }
    return messages.get(result.code, _("That move is not allowed now."))
