"""Personal access tokens as django-ninja authentication: ``Authorization: Bearer c414_…``."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest
from ninja.security import HttpBearer

from accounts import tokens
from accounts.models import AccessToken


class TokenRequest(HttpRequest):
    """A request ``TokenAuth`` let through: ninja sets ``auth`` to what it returned."""

    auth: AccessToken


class TokenAuth(HttpBearer):
    """``Authorization: Bearer <token>``: the request's ``auth`` is the active ``AccessToken``
    (its user loaded, ``tokens.authenticate``); no token, or an unknown or revoked one, is
    refused (ninja answers 401).

    ``on_authenticated(request, token)`` runs once the token is known, before the endpoint:
    the API counts the token's rate there (``games.api.ratelimit``); it may raise to refuse.
    ``on_refused(request)`` runs when the request has no valid token (none, another scheme, an
    unknown or revoked one), before it is answered 401: the API counts the address's rate
    there; it may raise to refuse otherwise.
    """

    def __init__(
        self,
        on_authenticated: Callable[[HttpRequest, AccessToken], None] | None = None,
        on_refused: Callable[[HttpRequest], None] | None = None,
    ) -> None:
        super().__init__()
        self.on_authenticated = on_authenticated
        self.on_refused = on_refused

    def __call__(self, request: HttpRequest) -> AccessToken | None:
        # Read the header here rather than in ninja's HttpBearer, which logs a header of
        # another scheme whole when DEBUG is on: "Basic <base64 of name:password>" would reach
        # the log as it came.
        scheme, _, credential = request.headers.get(self.header, "").partition(" ")
        token: AccessToken | None = None
        if scheme.lower() == self.openapi_scheme:
            token = self.authenticate(request, credential)
        if token is None and self.on_refused is not None:
            self.on_refused(request)
        return token

    def authenticate(self, request: HttpRequest, token: str) -> AccessToken | None:
        row = tokens.authenticate(token)
        if row is not None and self.on_authenticated is not None:
            self.on_authenticated(request, row)
        return row
