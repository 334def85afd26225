"""Site pages that belong to no app: the rules of 414 for players, and /favicon.ico."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.shortcuts import render
from django.templatetags.static import static
from django.utils import translation
from django.views.decorators.http import require_GET

RULES_LANGUAGES = ("en", "es", "id", "vi")


@require_GET
def rules(request: HttpRequest) -> HttpResponse:
    """The rules (RULES.md, told for players), one hand-written page per language."""
    language = (translation.get_language() or "en").split("-")[0]
    if language not in RULES_LANGUAGES:
        language = "en"
    return render(request, f"rules/rules_{language}.html")


@require_GET
def favicon(request: HttpRequest) -> HttpResponsePermanentRedirect:
    """``/favicon.ico``, which browsers and crawlers ask for whatever the page links: a permanent
    redirect to the static icon (hashed and cached like every static file), not a 404."""
    return HttpResponsePermanentRedirect(static("favicon.ico"))
