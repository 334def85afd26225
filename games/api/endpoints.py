"""The bot API's endpoints (``games.api`` mounts them at /api/v1/ with token authentication).

The seat is always the token's person's own seat; reads go through the engine's per-seat view
(``games.api.seat_state``), writes through the one writer (``games.play.services.submit``). The
event stream is ``games.api.stream`` (declared here for the schema).
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpResponse
from ninja import Router, Status
from ninja.decorators import decorate_view
from ninja.errors import HttpError

from accounts.token_auth import TokenRequest
from games import access
from games.api import reviews, seat_state, seats
from games.api.body_limit import limited
from games.api.errors import Refused
from games.api.schemas import (
    NDJSON,
    ActionIn,
    ActionOut,
    ErrorOut,
    MalformedOut,
    MeOut,
    RefusalOut,
    ReviewsOut,
    SeatOut,
    SeatViewOut,
    SitIn,
    StreamLine,
    TablesOut,
    answers,
    json_answers,
)
from games.live.replay import load_state
from games.models import Match, Seat, Table
from games.play import outcomes, services, tables

router = Router()


# --- account and tables --------------------------------------------------------------------------


@router.get("/me", summary="My account and where I sit", response=answers({200: MeOut}))
def me(request: TokenRequest) -> dict[str, Any]:
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


@router.get("/tables", summary="Open tables I may sit at", response=answers({200: TablesOut}))
def open_tables(request: TokenRequest) -> dict[str, Any]:
    """Tables not started yet that the token's person may see (public ones, their own, those
    they sit at), newest first: seats with who sits there (bots marked), options, rated."""
    return {"tables": seats.open_tables(request.auth.user)}


def _sit(request: TokenRequest, table: Table, seat: int | None) -> dict[str, int]:
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
            if seat is not None:  # which numbering the named seat is in
                refusal = (
                    f"seat {seat} (seats count from 0: the table page's Seat {seat + 1}): {refusal}"
                )
            continue
        return {"table": table.pk, "seat": number}
    raise Refused(refusal)


@router.post(
    "/tables/{table_id}/sit",
    summary="Sit at an open table",
    response=answers({200: SeatOut, 404: ErrorOut, 409: ErrorOut}, parameters=True, body=True),
)
@decorate_view(limited)  # a body over a few KB: 413 before parsing
def sit(request: TokenRequest, table_id: int, body: SitIn) -> dict[str, int]:
    """Take seat ``seat`` (or the first empty one) at an open table the person may see. A bot
    account sits at casual tables only (or in a league that allows bots)."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None or not access.can_watch(request.auth.user, table):
        raise Http404
    return _sit(request, table, body.seat)


@router.post(
    "/invitations/{invite_code}/accept",
    summary="Accept an invitation to a private table",
    response=answers({200: SeatOut, 404: ErrorOut, 409: ErrorOut}, parameters=True, body=True),
)
@decorate_view(limited)  # a body over a few KB: 413 before parsing
def accept_invitation(request: TokenRequest, invite_code: str, body: SitIn) -> dict[str, int]:
    """Sit at the table of an invite link (``/tables/join/<invite_code>/``): seat ``seat`` or
    the first empty one."""
    table = Table.objects.filter(invite_code=invite_code).first()
    if table is None:
        raise Http404
    return _sit(request, table, body.seat)


@router.post(
    "/tables/{table_id}/leave",
    summary="Stand up from a table before its match starts",
    response=answers({200: SeatOut, 404: ErrorOut, 409: ErrorOut, 413: ErrorOut}, parameters=True),
)
@decorate_view(limited)  # a body over a few KB: 413 before parsing
def leave(request: TokenRequest, table_id: int) -> dict[str, int | None]:
    """Leave the table's seat before the start (after it: resign instead)."""
    table = Table.objects.filter(pk=table_id).first()
    if table is None or not access.can_watch(request.auth.user, table):
        raise Http404
    try:
        tables.leave_seat(table.pk, request.auth.user)
    except tables.TableError as e:
        raise Refused(str(e)) from None
    return {"table": table.pk, "seat": None}


# --- a match, from my seat -----------------------------------------------------------------------


def _my_seat(request: TokenRequest, match_id: int) -> tuple[Match, Seat]:
    """The match and the token's person's seat at it; Http404 (no such match, or not
    watchable), HttpError 403 (no seat there)."""
    try:
        return seats.my_seat(match_id, request.auth.user)
    except seats.NotFound:
        raise Http404 from None
    except seats.NotSeated as refused:
        raise HttpError(403, refused.message) from None


@router.get(
    "/matches/{match_id}/view",
    summary="My seat's view and legal actions",
    response=answers({200: SeatViewOut, 403: ErrorOut, 404: ErrorOut}, parameters=True),
    exclude_unset=True,  # a legal action has only its own fields: {"action": "pass"}
)
def view(request: TokenRequest, match_id: int) -> dict[str, Any]:
    """The engine's view of my seat (my hand, every seat's card count, the top play, the open
    window, levels, finish order, tributes, the cards played this round), the running
    deadline, and my legal actions now, in the form ``actions`` takes them."""
    match, seat = _my_seat(request, match_id)
    return seat_state.seat_json(match, load_state(match), seat)


@router.post(
    "/matches/{match_id}/actions",
    summary="Act for my seat",
    # 400: the body does not fit the schema, or the writer found the action malformed (a play
    # without cards); 403: no seat at the match, or (the seat gone meanwhile) the writer's.
    response=answers(
        {
            200: ActionOut,
            400: MalformedOut | RefusalOut,
            403: ErrorOut | RefusalOut,
            404: ErrorOut,
            409: RefusalOut,
        },
        parameters=True,
        body=True,
    ),
)
@decorate_view(limited)  # a body over a few KB: 413 before parsing
def act(request: TokenRequest, match_id: int, body: ActionIn) -> Status[dict[str, Any]]:
    """Submit ``action`` (play, pass, hook, unhook, return, resign) made against ``version``,
    with a ``client_id`` of your choice (a resend with the same id is answered ``duplicate``
    and not applied twice). Goes through the same writer as the table page; a refusal changed
    nothing and carries the engine's code (``stale``, ``not_your_turn``, ``does_not_beat``…)."""
    match, _seat = _my_seat(request, match_id)
    payload = body.model_dump(exclude_none=True)
    result = services.submit(match.pk, request.auth.user, payload)
    if result.ok:
        return Status(200, {"ok": True, "version": result.version})
    status = outcomes.http_status(result.code)
    return Status(
        status,
        {"ok": False, "code": result.code, "message": result.message, "version": result.version},
    )


@router.get(
    "/matches/{match_id}/reviews",
    summary="The expert's reviews of the rounds I may read",
    response=answers({200: ReviewsOut, 404: ErrorOut}, parameters=True),
    exclude_unset=True,  # a move has only its own fields: a pass has no cards
)
def round_reviews(request: TokenRequest, match_id: int) -> dict[str, Any]:
    """The expert's review of each person's round (issue 20; docs/AI.md): my own seat's once
    each round is over, everyone's once the match is over (where I may see the match at all:
    404 otherwise). Each decision judged from what that seat knew: its own hand, the move
    played, the expert's move, the loss and its mark. Bot accounts are not reviewed."""
    try:
        return reviews.reviews_json(match_id, request.auth.user)
    except reviews.NotFound:
        raise Http404 from None


@router.get(
    "/matches/{match_id}/stream",
    summary="My seat's events, as newline-delimited JSON",
    response=NDJSON[StreamLine],
    openapi_extra=json_answers(answers({403: ErrorOut, 404: ErrorOut}, parameters=True)),
)
def stream_schema(request: TokenRequest, match_id: int) -> HttpResponse:
    """A long-lived ``application/x-ndjson`` response: one JSON object per line — a ``view``
    line (the seat's view, deadline, legal actions and the events since the last line) each
    time the match's version moves, a ``ping`` line every few seconds, and an ``end`` line
    when the match ends, the seat is no longer the person's, or the token is revoked.
    Served by ``games.api.stream``, which config/urls.py routes first: this entry only documents
    it in the schema."""
    raise Http404
