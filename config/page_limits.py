"""Pages per address: at most ``SITE_PAGE_RATE`` HTTP requests from one client address (its
IPv6 /64) in a window, counted before any view works (issue 17 item 7: 80 clients reading one
heavy page stalled live play on the same process).

Counted in the site's Redis cache by ``config.rate_limits`` (one atomic step per request, so a
crowd arriving at once cannot overshoot); the address is ``config.client_address``'s (nginx's
``X-Real-IP`` only from a trusted proxy). Past the rate the answer is a small 429 page with
``Retry-After``, in the visitor's language; nothing else runs. Not counted: static files
(WhiteNoise answers them earlier), ``/healthz`` (answered earlier too) and the bot API, which has
its own limits per token and per address (``games.api.ratelimit``). WebSockets are not HTTP
requests and have their own caps (``games.sockets.socket_limits``). ``SITE_PAGE_RATE=off`` in
the environment turns the limit off; Redis out of reach lets requests through (logged), as
every limit does.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import cast

from asgiref.sync import iscoroutinefunction, sync_to_async
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils.decorators import sync_and_async_middleware

from config import rate_limits
from config.client_address import request_address

GROUP = "site.pages"

#: Paths with limits of their own.
EXEMPT_PREFIXES = ("/api/",)


def refusal(request: HttpRequest) -> HttpResponse | None:
    """The 429 answer when ``request``'s address went over ``SITE_PAGE_RATE``, else None (and
    the request counted)."""
    rate = settings.SITE_PAGE_RATE
    if not rate or request.path.startswith(EXEMPT_PREFIXES):
        return None
    address = request_address(request)
    if not address:
        return None
    usage = rate_limits.take(GROUP, address, rate)
    if usage is None or not usage.over:
        return None
    body = render_to_string("429.html", {"seconds": usage.retry_after}, request=None)
    response = HttpResponse(body, status=429)
    response["Retry-After"] = str(usage.retry_after)
    return response


@sync_and_async_middleware
def page_limits_middleware(
    get_response: Callable[[HttpRequest], HttpResponse | Awaitable[HttpResponse]],
) -> Callable[[HttpRequest], HttpResponse | Awaitable[HttpResponse]]:
    """Answer 429 to an address past ``SITE_PAGE_RATE`` (after LocaleMiddleware: the page is in
    the visitor's language)."""
    if iscoroutinefunction(get_response):
        get_async_response = cast(Callable[[HttpRequest], Awaitable[HttpResponse]], get_response)
        async_refusal = sync_to_async(refusal, thread_sensitive=False)

        async def async_middleware(request: HttpRequest) -> HttpResponse:
            return await async_refusal(request) or await get_async_response(request)

        return async_middleware

    # Not a coroutine function: Django's handler chain gives its response itself.
    get_sync_response = cast(Callable[[HttpRequest], HttpResponse], get_response)

    def middleware(request: HttpRequest) -> HttpResponse:
        return refusal(request) or get_sync_response(request)

    return middleware
