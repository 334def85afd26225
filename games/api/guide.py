"""The bot API's guide, docs/BOT_API.md, served as plain text at /api/v1/guide so the
browsable docs (/api/v1/docs) can link to it: the site has no other copy of it on the web."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_safe

from games.api.ratelimit import anonymous_limited

GUIDE = Path(settings.BASE_DIR) / "docs" / "BOT_API.md"


@require_safe
@anonymous_limited
def guide(request: HttpRequest) -> HttpResponse:
    """docs/BOT_API.md as ``text/plain; charset=utf-8`` (Markdown, readable as it is in a
        browser or with curl); no token needed, like the schema (both count against the address's
    ``BOTAPI_ANONYMOUS_RATE``). GET and HEAD only (405 else)."""
    return HttpResponse(GUIDE.read_text(encoding="utf-8"), content_type="text/plain; charset=utf-8")
