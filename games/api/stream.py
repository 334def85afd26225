"""``GET /api/v1/matches/<id>/stream``: a seat's events as newline-delimited JSON.

A long-lived response, one JSON object per line:

- ``{"type": "view", "version": v, "events": [...], ...}`` first, then each time the match
  moves: the seat's view, deadline and legal actions (``games.api.seat_state.seat_json``) and the
  events since the last line, as that seat may see them;
- ``{"type": "ping", "version": v}`` every ``PING_SECONDS`` while nothing moves;
- ``{"type": "end", "reason": ...}`` last: ``match_over``, ``abandoned``, ``unseated`` (the
  seat is no longer the person's) or ``revoked`` (the token was revoked: at once).

The stream is woken by ``games.live.push``: after each move it sends the table's bot group
(``games.live.audiences.bot_group``) the new version number alone — no card, no view — and the
stream then reads its own seat's view from the database. A revoked token's group
(``tokens.token_group``) ends it at once. Every wake-up and ping also re-reads the token, so a
lost message costs at most ``PING_SECONDS``.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator
from typing import Any

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest, JsonResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.views.decorators.http import require_GET

from accounts import tokens
from games.api import ratelimit, seat_state, seats
from games.live import audiences
from games.live.replay import load_state
from games.models import Match, Seat, Table

log = logging.getLogger(__name__)

#: A ``ping`` line after this many seconds without a move (and the token re-checked).
PING_SECONDS = 5.0


def _error(status: int, code: str, message: str) -> JsonResponse:
    response = JsonResponse({"code": code, "message": message}, status=status)
    if status == 401:
        response["WWW-Authenticate"] = "Bearer"
    return response


def _line(data: dict[str, Any]) -> bytes:
    return json.dumps(data, separators=(",", ":")).encode() + b"\n"


def _open(request: HttpRequest, match_id: int) -> tuple[int, int, int, int] | JsonResponse:
    """Check the token, its rate and the seat: ``(token id, user id, table id, seat number)``
    or the JSON error to answer."""
    header = request.headers.get("Authorization", "")
    scheme, _, raw = header.partition(" ")
    token = tokens.authenticate(raw.strip()) if scheme.lower() == "bearer" else None
    if token is None:  # counted against the address's rate, 401 until past it
        refused = ratelimit.anonymous_usage(request)
    else:
        refused = ratelimit.token_usage(request, token.pk)
    if refused is not None:
        return ratelimit.answer(refused)
    if token is None:
        return _error(401, "unauthorized", "a valid token is needed: Bearer c414_…")
    try:
        match, seat = seats.my_seat(match_id, token.user)
    except seats.NotFound:
        return _error(404, "not_found", "no such match or table")
    except seats.NotSeated as no_seat:
        return _error(403, "forbidden", no_seat.message)
    return token.pk, token.user_id, match.table_id, seat.number


def _lines_now(
    match_id: int, token_id: int, user_id: int, number: int, last: int
) -> tuple[list[dict[str, Any]], bool]:
    """The stream's next lines and whether they end it: a ``view`` line when the version moved
    past ``last``, then an ``end`` line when the stream must end; ``[]`` when nothing moved."""
    if not tokens.still_active(token_id):
        return [{"type": "end", "reason": "revoked"}], True
    match = Match.objects.select_related("table").get(pk=match_id)
    seat = Seat.objects.filter(table_id=match.table_id, number=number).held_by(user_id).first()
    if seat is None:
        return [{"type": "end", "reason": "unseated"}], True
    lines: list[dict[str, Any]] = []
    if match.version != last:
        state = load_state(match)
        events = seat_state.events_since(match, last, match.version, number) if last >= 0 else []
        lines.append(
            {
                "type": "view",
                "version": match.version,
                "events": events,
                **seat_state.seat_json(match, state, seat),
            }
        )
    if match.is_over:
        lines.append({"type": "end", "reason": "match_over", "winner_team": match.winner_team})
        return lines, True
    if match.table.status == Table.Status.ABANDONED:
        lines.append({"type": "end", "reason": "abandoned"})
        return lines, True
    return lines, False


async def _lines(
    match_id: int, token_id: int, user_id: int, table_id: int, number: int
) -> AsyncIterator[bytes]:
    """The stream's NDJSON lines (bytes, one JSON object and a newline each) until it ends."""
    layer = get_channel_layer()
    if layer is None:
        raise ImproperlyConfigured("the bot API's stream needs CHANNEL_LAYERS (config/settings.py)")
    channel = await layer.new_channel()
    groups = [audiences.bot_group(table_id), tokens.token_group(token_id)]
    for group in groups:
        await layer.group_add(group, channel)
    read = database_sync_to_async(_lines_now)
    last = -1
    try:
        while True:
            lines, done = await read(match_id, token_id, user_id, number, last)
            for data in lines:
                if data["type"] == "view":
                    last = data["version"]
                yield _line(data)
            if done:
                return
            try:
                message = await asyncio.wait_for(layer.receive(channel), PING_SECONDS)
            except TimeoutError:
                yield _line({"type": "ping", "version": last})
                continue
            if message.get("type") == "api.revoked":
                yield _line({"type": "end", "reason": "revoked"})
                return
    finally:
        for group in groups:
            try:
                await layer.group_discard(group, channel)
            except Exception:  # the client is gone; the group's expiry cleans up
                log.warning("stream: could not leave %s", group, exc_info=True)


@require_GET
async def stream(request: HttpRequest, match_id: int) -> HttpResponseBase:
    """The seat's event stream (see the module's docstring). 401/403/404/429 answer JSON."""
    # Like any view's work (in the request's thread); the stream's reads below each give
    # their connection back, so a long stream holds none.
    opened = await sync_to_async(_open)(request, match_id)
    if isinstance(opened, JsonResponse):
        return opened
    token_id, user_id, table_id, number = opened
    response = StreamingHttpResponse(
        _lines(match_id, token_id, user_id, table_id, number),
        content_type="application/x-ndjson",
    )
    response["Cache-Control"] = "no-store"
    response["X-Accel-Buffering"] = "no"  # nginx passes each line on at once
    return response
