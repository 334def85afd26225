"""The bot API under /api/v1/ (django-ninja): the schema at ``openapi.json``, the browsable
docs at ``docs`` (docs/BOT_API.md says why django-ninja, and how to use each endpoint).

Every endpoint takes a personal access token (``Authorization: Bearer c414_…``), counts
against that token's rate limit, and answers JSON, errors included:
``{"code": "...", "message": "..."}`` with the engine's stable refusal codes for actions.
The seat is always the token's person's own seat; reads go through the engine's per-seat view
(``botapi.seat_state``), writes through the one writer (``games.services.submit``). The
event stream is ``botapi.stream`` (declared here for the schema).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django_ratelimit.core import is_ratelimited
from ninja import NinjaAPI, Schema, Status
from ninja.errors import AuthenticationError, HttpError, ValidationError
from ninja.security import HttpBearer

from botapi import seat_state, seats, tokens
from botapi.models import AccessToken
from games import access, services, tables
from games.models import Table

#: HTTP status for each refusal code of ``services.submit``; any other code is 409 Conflict.
REFUSAL_STATUS = {"malformed": 400, "not_seated": 403}


class RateLimited(Exception):
    """The token sent more requests than ``BOTAPI_RATE`` allows."""


class TokenAuth(HttpBearer):
    """``Authorization: Bearer <token>``: the request's ``auth`` is the ``AccessToken`` (its
    user loaded). Counts the request against the token's rate (django-ratelimit)."""

    def authenticate(self, request: HttpRequest, token: str) -> AccessToken | None:
        row = tokens.authenticate(token)
        if row is None:
            return None
        if is_ratelimited(
            request,
            group="botapi",
            key=lambda _group, _request: f"token:{row.pk}",
            rate=settings.BOTAPI_RATE,
            increment=True,
        ):
            raise RateLimited
        return row


api = NinjaAPI(
    title="414 Club bot API",
    version="1",
    description="Play 414 with your own program. Guide: docs/BOT_API.md.",
    auth=TokenAuth(),
    urls_namespace="botapi",
)


def error(request: HttpRequest, status: int, code: str, message: str, **extra: Any):
    """A JSON error answer: ``{"code", "message", **extra}`` with HTTP ``status``."""
    return api.create_response(request, {"code": code, "message": message, **extra}, status=status)


@api.exception_handler(AuthenticationError)
def _unauthorized(request, exc):
    response = error(request, 401, "unauthorized", "a valid token is needed: Bearer c414_…")
    response["WWW-Authenticate"] = "Bearer"
    return response


@api.exception_handler(RateLimited)
def _rate_limited(request, exc):
    response = error(request, 429, "rate_limited", f"at most {settings.BOTAPI_RATE} per token")
    response["Retry-After"] = "60"
    return response


@api.exception_handler(ValidationError)
def _malformed(request, exc):
    return error(
        request, 400, "malformed", "the request does not fit the schema", errors=_plain(exc.errors)
    )


@api.exception_handler(Http404)
def _not_found(request, exc):
    return error(request, 404, "not_found", "no such match or table")


@api.exception_handler(HttpError)
def _http_error(request, exc):
    code = {400: "malformed", 403: "forbidden", 404: "not_found"}.get(exc.status_code, "error")
    return error(request, exc.status_code, code, str(exc))


def _plain(errors: Any) -> list[dict[str, Any]]:
    """Validation errors as plain JSON (where, what), never the input echoed back."""
    found = []
    for item in errors if isinstance(errors, list) else []:
        if isinstance(item, dict):
            found.append(
                {"loc": [str(x) for x in item.get("loc", ())], "msg": str(item.get("msg", ""))}
            )
    return found


# --- schemas -------------------------------------------------------------------------------------


class ErrorOut(Schema):
    code: str
    message: str


class SitIn(Schema):
    seat: int | None = None


class ActionIn(Schema):
    action: str
    cards: list[str] | None = None
    card: str | None = None
    version: int
    client_id: str | None = None


class ActionOut(Schema):
    ok: bool
    version: int


class RefusalOut(Schema):
    ok: bool
    code: str
    message: str
    version: int


# --- account and tables --------------------------------------------------------------------------


@api.get("/me", summary="My account and where I sit")
def me(request: HttpRequest) -> dict[str, Any]:
    """The token's person: name, whether it is a bot account, the token's name and scope, and
    the tables they sit at that are open or playing (with the match id once it started)."""
    user = request.auth.user
    return {
        "id": user.pk,
        "username": user.username,
        "bot": user.is_bot,
        "token": {"name": request.auth.name, "scope": request.auth.scope},
        "seats": seats.my_tables(user),
    }


@api.get("/tables", summary="Open tables I may sit at")
def open_tables(request: HttpRequest) -> dict[str, Any]:
    """Tables not started yet that the token's person may see (public ones, their own, those
    they sit at), newest first: seats with who sits there (bots marked), options, rated."""
    return {"tables": seats.open_tables(request.auth.user)}


def _sit(request: HttpRequest, table: Table, seat: int | None):
    """Take ``seat``, or (None) the person's own seat, else the first empty seat that is still
    empty when its lock is taken: bots sitting at once each get their own."""
    user = request.auth.user
    if seat is None:
        mine = table.seats.filter(user=user).values_list("number", flat=True).first()
        empty = table.seats.filter(user__isnull=True, ai_policy="").order_by("number")
        candidates = [mine] if mine is not None else list(empty.values_list("number", flat=True))
    else:
        candidates = [seat]
    refusal = "no empty seat at this table"
    for number in candidates:
        try:
            tables.take_seat(table.pk, user, number)
        except tables.TableError as e:
            refusal = str(e)
            continue
        return {"table": table.pk, "seat": number}
    return error(request, 409, "refused", refusal)


@api.post(
    "/tables/{table_id}/sit",
    summary="Sit at an open table",
    response={200: dict, 404: ErrorOut, 409: ErrorOut},
)
def sit(request: HttpRequest, table_id: int, body: SitIn):
    """Take seat ``seat`` (or the first empty one) at an open table the person may see. A bot
    account sits at casual tables only (or in a league that allows bots)."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None or not access.can_watch(request.auth.user, table):
        raise Http404
    return _sit(request, table, body.seat)


@api.post(
    "/invitations/{invite_code}/accept",
    summary="Accept an invitation to a private table",
    response={200: dict, 404: ErrorOut, 409: ErrorOut},
)
def accept_invitation(request: HttpRequest, invite_code: str, body: SitIn):
    """Sit at the table of an invite link (``/tables/join/<invite_code>/``): seat ``seat`` or
    the first empty one."""
    table = Table.objects.filter(invite_code=invite_code).first()
    if table is None:
        raise Http404
    return _sit(request, table, body.seat)


@api.post(
    "/tables/{table_id}/leave",
    summary="Stand up from a table before its match starts",
    response={200: dict, 404: ErrorOut, 409: ErrorOut},
)
def leave(request: HttpRequest, table_id: int):
    """Leave the table's seat before the start (after it: resign instead)."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None or not access.can_watch(request.auth.user, table):
        raise Http404
    try:
        tables.leave_seat(table.pk, request.auth.user)
    except tables.TableError as e:
        return error(request, 409, "refused", str(e))
    return {"table": table.pk, "seat": None}


# --- a match, from my seat -----------------------------------------------------------------------


def _my_seat(request: HttpRequest, match_id: int):
    try:
        return seats.my_seat(match_id, request.auth.user)
    except seats.NotFound:
        raise Http404 from None
    except seats.NotSeated:
        raise HttpError(403, "you have no seat at this match") from None


@api.get(
    "/matches/{match_id}/view",
    summary="My seat's view and legal actions",
    response={200: dict, 403: ErrorOut, 404: ErrorOut},
)
def view(request: HttpRequest, match_id: int):
    """The engine's view of my seat (my hand, every seat's card count, the top play, the open
    window, levels, finish order, tributes, the cards played this round), the running
    deadline, and my legal actions now, in the form ``actions`` takes them."""
    match, seat = _my_seat(request, match_id)
    return seat_state.seat_json(match, services.load_state(match), seat)


@api.post(
    "/matches/{match_id}/actions",
    summary="Act for my seat",
    response={200: ActionOut, 400: RefusalOut, 403: RefusalOut, 404: ErrorOut, 409: RefusalOut},
)
def act(request: HttpRequest, match_id: int, body: ActionIn):
    """Submit ``action`` (play, pass, hook, unhook, return, resign) made against ``version``,
    with a ``client_id`` of your choice (a resend with the same id is answered ``duplicate``
    and not applied twice). Goes through the same writer as the table page; a refusal changed
    nothing and carries the engine's code (``stale``, ``not_your_turn``, ``does_not_beat``…)."""
    match, _seat = _my_seat(request, match_id)
    payload = body.model_dump(exclude_none=True)
    result = services.submit(match.pk, request.auth.user, payload)
    if result.ok:
        return Status(200, {"ok": True, "version": result.version})
    status = REFUSAL_STATUS.get(result.code, 409)
    return Status(
        status,
        {"ok": False, "code": result.code, "message": result.message, "version": result.version},
    )


@api.get(
    "/matches/{match_id}/stream",
    summary="My seat's events, as newline-delimited JSON",
    response={200: str, 403: ErrorOut, 404: ErrorOut},
)
def stream_schema(request: HttpRequest, match_id: int) -> HttpResponse:
    """A long-lived ``application/x-ndjson`` response: one JSON object per line — a ``view``
    line (the seat's view, deadline, legal actions and the events since the last line) each
    time the match's version moves, a ``ping`` line every few seconds, and an ``end`` line
    when the match ends, the seat is no longer the person's, or the token is revoked.
    Served by ``botapi.stream``, which config/urls.py routes first: this entry only documents
    it in the schema."""
    raise Http404
