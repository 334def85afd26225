"""A signed-in player's saved language applies to every page (after LocaleMiddleware)."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.utils import translation

from accounts.models import User


class UserLanguageMiddleware:
    """Activate ``request.user.language`` when it is set: it wins over the language cookie and
    the browser's Accept-Language. The cookie is brought in line, so the table's WebSocket and
    the pages seen after logging out follow the same choice.

    Runs after AuthenticationMiddleware; LocaleMiddleware (before it) still sets the response's
    Content-Language from the language active when the response is made.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        language = saved_language(getattr(request, "user", None))
        if language and language != getattr(request, "LANGUAGE_CODE", None):
            translation.activate(language)
            request.LANGUAGE_CODE = language
        response = self.get_response(request)
        if (
            language
            and request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) != language
            and settings.LANGUAGE_COOKIE_NAME not in response.cookies
        ):
            remember_language(response, language)
        return response


def saved_language(user: User | AnonymousUser | None) -> str:
    """The user's saved language if it is one the site offers, else ""."""
    if user is None or not user.is_authenticated:
        return ""
    language = getattr(user, "language", "") or ""
    return language if language in dict(settings.LANGUAGES) else ""


def remember_language[R: HttpResponseBase](response: R, language: str) -> R:
    """Store ``language`` in the cookie LocaleMiddleware reads, or forget it when empty."""
    if language:
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            language,
            max_age=settings.LANGUAGE_COOKIE_AGE,
            path=settings.LANGUAGE_COOKIE_PATH,
            domain=settings.LANGUAGE_COOKIE_DOMAIN,
            secure=settings.LANGUAGE_COOKIE_SECURE,
            httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
            # django-stubs' plugin reads the setting ("Lax") as str; set_cookie takes literals.
            samesite=settings.LANGUAGE_COOKIE_SAMESITE,  # type: ignore[arg-type]
        )
    else:
        response.delete_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            path=settings.LANGUAGE_COOKIE_PATH,
            domain=settings.LANGUAGE_COOKIE_DOMAIN,
        )
    return response
