"""Site pages that belong to no app: the rules of 414 for players."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
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
