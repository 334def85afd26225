"""The bot API's rate limit: ``BOTAPI_RATE`` requests per token (django-ratelimit, counted in
the cache), every endpoint and the stream's opening included."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest
from django_ratelimit.core import is_ratelimited

from accounts.models import AccessToken


class RateLimited(Exception):
    """The token sent more requests than ``BOTAPI_RATE`` allows."""


def over_rate(request: HttpRequest, token_id: int) -> bool:
    """Count ``request`` against token ``token_id``'s rate: whether it went over."""
    return is_ratelimited(
        request,
        group="botapi",
        key=lambda _group, _request: f"token:{token_id}",
        rate=settings.BOTAPI_RATE,
        increment=True,
    )


def refusal_message() -> str:
    """What a request over the rate is told."""
    return f"at most {settings.BOTAPI_RATE} per token"


def count(request: HttpRequest, token: AccessToken) -> None:
    """Count ``request`` against ``token``'s rate (``TokenAuth``'s ``on_authenticated``):
    raises RateLimited (answered 429) when it goes over."""
    if over_rate(request, token.pk):
        raise RateLimited
