"""The bot API's errors: always JSON, ``{"code": "...", "message": "...", ...}``."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, ValidationError

from games.api.ratelimit import RateLimited, anonymous_limited


class Refused(Exception):
    """An endpoint's refusal (seat taken, match started, a bot at a rated table…): answered
    409 ``refused`` with the message, for people."""


def error(
    api: NinjaAPI, request: HttpRequest, status: int, code: str, message: str, **extra: Any
) -> HttpResponse:
    """A JSON error answer of ``api``: ``{"code", "message", **extra}`` with HTTP ``status``."""
    return api.create_response(request, {"code": code, "message": message, **extra}, status=status)


def install_handlers(api: NinjaAPI) -> None:
    """Answer ``api``'s failures as JSON errors (games.api.schemas declares each): 401
    unauthorized, 429 rate_limited (with Retry-After), 400 malformed with ``errors`` (where,
    never the input echoed back), 404 not_found, and ninja's HttpError by its status, an
    endpoint's Refused 409 refused."""

    @api.exception_handler(AuthenticationError)
    def _unauthorized(request: HttpRequest, exc: AuthenticationError) -> HttpResponse:
        response = error(
            api, request, 401, "unauthorized", "a valid token is needed: Bearer c414_…"
        )
        response["WWW-Authenticate"] = "Bearer"
        return response

    @api.exception_handler(RateLimited)
    def _rate_limited(request: HttpRequest, exc: RateLimited) -> HttpResponse:
        response = error(api, request, 429, "rate_limited", exc.message)
        response["Retry-After"] = str(exc.retry_after)
        return response

    @api.exception_handler(ValidationError)
    def _malformed(request: HttpRequest, exc: ValidationError) -> HttpResponse:
        return error(
            api,
            request,
            400,
            "malformed",
            "the request does not fit the schema",
            errors=_plain(exc.errors),
        )

    @api.exception_handler(Http404)
    def _not_found(request: HttpRequest, exc: Http404) -> HttpResponse:
        return error(api, request, 404, "not_found", "no such match or table")

    @api.exception_handler(Refused)
    def _refused(request: HttpRequest, exc: Refused) -> HttpResponse:
        return error(api, request, 409, "refused", str(exc))

    @api.exception_handler(HttpError)
    def _http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
        if exc.status_code == 400:  # ninja's: a body that is not JSON ("Cannot parse…")
            return error(
                api,
                request,
                400,
                "malformed",
                str(exc),
                errors=[{"loc": ["body"], "msg": str(exc)}],
            )
        code = {403: "forbidden", 404: "not_found"}.get(exc.status_code, "error")
        return error(api, request, exc.status_code, code, str(exc))


@csrf_exempt  # a bot's POST to a wrong address gets the JSON 404, not a CSRF page
@anonymous_limited
def unknown_path(request: HttpRequest) -> HttpResponse:
    """Any address under /api/v1/ that no endpoint serves (GET, HEAD or POST: any other method
    is 405, ``config.methods``): 404 ``not_found`` in
    the API's JSON error shape (config/urls.py routes it after the API), never Django's HTML
    404 page. Counted against the address's ``BOTAPI_ANONYMOUS_RATE`` (429 past it)."""
    return JsonResponse(
        {
            "code": "not_found",
            "message": "no such endpoint: the endpoints are listed at /api/v1/docs",
        },
        status=404,
    )


def _plain(errors: Any) -> list[dict[str, Any]]:
    """Validation errors as plain JSON (where, what), never the input echoed back. ``loc`` is
    where in the request: ``["body", "seat"]``, ``["path", "match_id"]``."""
    found = []
    for item in errors if isinstance(errors, list) else []:
        if isinstance(item, dict):
            loc = [str(x) for x in item.get("loc", ())]
            if loc[:2] == ["body", "body"]:
                # ninja puts the view's parameter name after "body"; every endpoint names its
                # one body parameter ``body``, which says nothing to a bot's author
                del loc[1]
            found.append({"loc": loc, "msg": str(item.get("msg", ""))})
    return found
