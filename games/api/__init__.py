"""The bot API under /api/v1/ (django-ninja): the schema at ``openapi.json``, the browsable
docs at ``docs`` (docs/BOT_API.md says why django-ninja, and how to use each endpoint).

Every endpoint takes a personal access token (``Authorization: Bearer c414_…``,
``accounts.token_auth``), counts against that token's rate limit (``games.api.ratelimit``; a
request without a valid token, against its address's), and
answers JSON, errors included (``games.api.errors``): ``{"code": "...", "message": "..."}``
with the engine's stable refusal codes for actions. The schema declares every answer of every
operation (``games.api.schemas.answers``); tests/games/api/test_schema.py holds the app to it.
The endpoints are ``games.api.endpoints``; the event stream is ``games.api.stream``, which
config/urls.py routes before ``api.urls``.
"""

from __future__ import annotations

from ninja import NinjaAPI

from accounts.token_auth import TokenAuth
from games.api import ratelimit
from games.api.endpoints import router
from games.api.errors import install_handlers

api = NinjaAPI(
    title="414 Club bot API",
    version="1",
    # Swagger UI renders this as Markdown: the guide is a link (games.api.guide serves it).
    description=(
        "Play 414 with your own program. Guide: [docs/BOT_API.md](/api/v1/guide) "
        "(tokens, limits, errors, every endpoint, and a complete bot in examples/bot.py)."
    ),
    auth=TokenAuth(on_authenticated=ratelimit.count, on_refused=ratelimit.count_anonymous),
    # The schema and the docs need no token: they count against the address's rate.
    docs_decorator=ratelimit.anonymous_limited,
    urls_namespace="botapi",
)
install_handlers(api)
api.add_router("", router)
