"""One log line per HTTP request: ``http.request`` with method, route, view, status and ms.

The route is the URL pattern that matched (``tables/<int:table_id>/``), never the path itself
or its query string: a path may carry a password-reset token, a query string anything. Lines
go through the ``LOGGING`` of settings (JSON on stderr). Probes of ``/healthz`` that pass are
logged at DEBUG, so a proxy checking every few seconds does not fill the log.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from typing import cast

from asgiref.sync import iscoroutinefunction
from django.http import HttpRequest, HttpResponse
from django.utils.decorators import sync_and_async_middleware

from config import health

log = logging.getLogger("config.requests")


def _log(request: HttpRequest, response: HttpResponse, started: float) -> None:
    match = getattr(request, "resolver_match", None)
    route = match.route if match is not None else ""
    level = logging.INFO
    if request.path == health.PATH:  # answered by health_middleware, before URL routing
        route = "healthz"
        if response.status_code == 200:
            level = logging.DEBUG
    log.log(
        level,
        "http.request",
        extra={
            "method": request.method,
            "route": route or "<no route>",
            "view": match.view_name if match is not None else "",
            "status": response.status_code,
            "ms": round((time.perf_counter() - started) * 1000, 1),
        },
    )


@sync_and_async_middleware
def request_log_middleware(
    get_response: Callable[[HttpRequest], HttpResponse | Awaitable[HttpResponse]],
) -> Callable[[HttpRequest], HttpResponse | Awaitable[HttpResponse]]:
    """Time each request from the first middleware to its response, and log it (first in
    ``MIDDLEWARE``, so redirects and refusals of later middleware are logged too)."""
    if iscoroutinefunction(get_response):
        get_async_response = cast(Callable[[HttpRequest], Awaitable[HttpResponse]], get_response)

        async def async_middleware(request: HttpRequest) -> HttpResponse:
            started = time.perf_counter()
            response = await get_async_response(request)
            _log(request, response, started)
            return response

        return async_middleware

    # Not a coroutine function: Django's handler chain gives its response itself.
    get_sync_response = cast(Callable[[HttpRequest], HttpResponse], get_response)

    def middleware(request: HttpRequest) -> HttpResponse:
        started = time.perf_counter()
        response = get_sync_response(request)
        _log(request, response, started)
        return response

    return middleware
