"""Methods the site answers: GET, HEAD and POST, nothing else (``ALLOWED_METHODS``).

Any other method — TRACE, PUT, DELETE, PATCH, OPTIONS, a made-up one — is answered ``405
Method Not Allowed`` with ``Allow: GET, HEAD, POST`` before any view runs: a view without a
method decorator (a profile page, say) would otherwise answer TRACE with the page. nginx
refuses them the same way in production (deploy/nginx.conf); this covers a request that
reaches Daphne directly. WebSockets are not HTTP requests here and never meet it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import cast

from asgiref.sync import iscoroutinefunction
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed, JsonResponse
from django.utils.decorators import sync_and_async_middleware

#: Every method a page, a form or the bot API uses.
ALLOWED_METHODS = ("GET", "HEAD", "POST")


#: Paths that answer every method themselves, with each operation's own ``Allow``: the bot
#: API (django-ninja) knows which methods each of its addresses takes, as RFC 9110 wants.
OWN_ANSWER_PREFIXES = ("/api/",)


def refusal(request: HttpRequest) -> HttpResponse | None:
    """The 405 answer when ``request``'s method is not one of ``ALLOWED_METHODS`` (and its path
    does not answer for itself), else None."""
    if request.method in ALLOWED_METHODS or request.path.startswith(OWN_ANSWER_PREFIXES):
        return None
    response = HttpResponseNotAllowed(ALLOWED_METHODS, b"405 Method Not Allowed\n")
    response["Content-Type"] = "text/plain; charset=utf-8"
    return response


def as_json(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """A 405 of a path that answers for itself (the bot API: django-ninja writes its 405 as
    text) as the API's JSON error, ``{"code": "method_not_allowed", "message": …}``, with the
    same ``Allow``; any other response as it is."""
    if response.status_code != 405 or not request.path.startswith(OWN_ANSWER_PREFIXES):
        return response
    if response.get("Content-Type", "").startswith("application/json"):
        return response
    allow = response.get("Allow", "")
    body = {"code": "method_not_allowed", "message": f"this address takes {allow} only"}
    answer = JsonResponse(body, status=405)
    answer["Allow"] = allow
    return answer


@sync_and_async_middleware
def methods_middleware(
    get_response: Callable[[HttpRequest], HttpResponse | Awaitable[HttpResponse]],
) -> Callable[[HttpRequest], HttpResponse | Awaitable[HttpResponse]]:
    """Answer any method but GET, HEAD and POST with 405 and its Allow header; the bot API's
    own 405s in JSON (``as_json``)."""
    if iscoroutinefunction(get_response):
        get_async_response = cast(Callable[[HttpRequest], Awaitable[HttpResponse]], get_response)

        async def async_middleware(request: HttpRequest) -> HttpResponse:
            return refusal(request) or as_json(request, await get_async_response(request))

        return async_middleware

    # Not a coroutine function: Django's handler chain gives its response itself.
    get_sync_response = cast(Callable[[HttpRequest], HttpResponse], get_response)

    def middleware(request: HttpRequest) -> HttpResponse:
        return refusal(request) or as_json(request, get_sync_response(request))

    return middleware
