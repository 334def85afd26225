"""The bot API's request body limit: an action or a sit is well under 1 KB, so a body over
``BOTAPI_MAX_BODY_BYTES`` (default 4 KB) is refused 413 ``too_large`` before it is parsed,
authenticated or counted, and changes nothing.

Before, a 1.2 MB body on ``actions`` was parsed as JSON and validated whole, then answered
``409 stale``. Daphne has already buffered the body when the view runs (nginx caps it at 1 MB
in production, deploy/nginx.conf); what this spares is the JSON parse and the writer.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse


def body_size(request: HttpRequest) -> int:
    """The size of ``request``'s body in bytes: its declared Content-Length (Django reads no
    further), else the length of the body as read (a chunked upload: the server has already
    buffered it)."""
    try:
        return int(request.META.get("CONTENT_LENGTH") or "")
    except ValueError:
        return len(request.body)


def too_large() -> HttpResponse:
    """The 413 answer, in the API's JSON error shape."""
    limit = settings.BOTAPI_MAX_BODY_BYTES
    return JsonResponse(
        {"code": "too_large", "message": f"the request body is over {limit} bytes"}, status=413
    )


def limited(run: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Wrap an API operation (``ninja.decorators.decorate_view(limited)``): a body over
    ``BOTAPI_MAX_BODY_BYTES`` is answered 413 before ``run`` authenticates or parses it."""

    @functools.wraps(run)
    def checked(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        if body_size(request) > settings.BOTAPI_MAX_BODY_BYTES:
            return too_large()
        return run(request, *args, **kwargs)

    return checked
