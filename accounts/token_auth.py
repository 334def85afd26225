"""Personal access tokens as django-ninja authentication: ``Authorization: Bearer c414_…``."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest
from ninja.security import HttpBearer

from accounts import tokens
from accounts.models import AccessToken


class TokenAuth(HttpBearer):
    """``Authorization: Bearer <token>``: the request's ``auth`` is the active ``AccessToken``
    (its user loaded, ``tokens.authenticate``); no token, or an unknown or revoked one, is
    refused (ninja answers 401).

    ``on_authenticated(request, token)`` runs once the token is known, before the endpoint:
    the API counts the token's rate there (``games.api.ratelimit``); it may raise to refuse.
    """

    def __init__(
        self, on_authenticated: Callable[[HttpRequest, AccessToken], None] | None = None
    ) -> None:
        super().__init__()
        self.on_authenticated = on_authenticated

    def authenticate(self, request: HttpRequest, token: str) -> AccessToken | None:
        row = tokens.authenticate(token)
        if row is not None and self.on_authenticated is not None:
            self.on_authenticated(request, row)
        return row
