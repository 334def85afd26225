"""The bot API's rate limits, answered ``429 rate_limited`` with a ``Retry-After``:

- ``BOTAPI_RATE`` requests per token (``config.rate_limits``: a window opens with the token's
  first request, so a burst is counted whole, not split by a window aligned to the clock),
  every endpoint and the stream's opening included;
- ``BOTAPI_ANONYMOUS_RATE`` requests without a valid token per client address
  (``config.rate_limits``, counted before the request's work): no token or an unknown or revoked
  one (instead of 401 once past it), the schema, the docs and the guide, and any address under
  /api/v1/ that no endpoint serves. A valid token counts only against its own rate, wherever it
  comes from. The address is the one every limit uses (``config.client_address``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse

from accounts.models import AccessToken
from config import rate_limits
from config.client_address import request_address

TOKEN_GROUP = "botapi"
ANONYMOUS_GROUP = "botapi.anonymous"


class RateLimited(Exception):
    """The token (or, without one, the address) sent more requests than its rate allows;
    ``retry_after`` seconds until its window ends."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.message = message
        self.retry_after = max(1, int(retry_after))


def token_usage(request: HttpRequest, token_id: int) -> RateLimited | None:
    """Count ``request`` against token ``token_id``'s rate: the refusal when it went over."""
    usage = rate_limits.take(TOKEN_GROUP, f"token:{token_id}", settings.BOTAPI_RATE)
    if usage is None or not usage.over:
        return None
    return RateLimited(f"at most {settings.BOTAPI_RATE} per token", usage.retry_after)


def anonymous_usage(request: HttpRequest) -> RateLimited | None:
    """Count ``request``, which carries no valid token, against its address's rate: the
    refusal when it went over (None when Redis could not be asked: let it through)."""
    usage = rate_limits.take(
        ANONYMOUS_GROUP, request_address(request) or "unknown", settings.BOTAPI_ANONYMOUS_RATE
    )
    if usage is None or not usage.over:
        return None
    return RateLimited(
        f"at most {settings.BOTAPI_ANONYMOUS_RATE} requests without a valid token per address",
        usage.retry_after,
    )


def count(request: HttpRequest, token: AccessToken) -> None:
    """Count ``request`` against ``token``'s rate (``TokenAuth``'s ``on_authenticated``):
    raises RateLimited (answered 429) when it goes over."""
    refused = token_usage(request, token.pk)
    if refused is not None:
        raise refused


def count_anonymous(request: HttpRequest) -> None:
    """Count ``request``, refused a token (``TokenAuth``'s ``on_refused``), against its
    address's rate: raises RateLimited (answered 429) when it goes over; else it is answered 401."""
    refused = anonymous_usage(request)
    if refused is not None:
        raise refused


def answer(refused: RateLimited) -> JsonResponse:
    """The 429 answer in the API's JSON error shape, with its Retry-After."""
    response = JsonResponse({"code": "rate_limited", "message": refused.message}, status=429)
    response["Retry-After"] = str(refused.retry_after)
    return response


def anonymous_limited(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Wrap a view that needs no token (the schema, the docs, the guide, unknown addresses):
    each request counts against its address's ``BOTAPI_ANONYMOUS_RATE``, 429 past it."""

    @functools.wraps(view)
    def limited(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        refused = anonymous_usage(request)
        if refused is not None:
            return answer(refused)
        return view(request, *args, **kwargs)

    return limited
