"""Fixtures for the bot API tests: tokens, an API client, and a table where a bot sits (the
other tables come from tests/games)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client

from accounts import tokens
from accounts.models import User


@pytest.fixture
def table_with_bot(make_table):
    """``(table, bot)``: a table of four with ana at seat 0 and the user "bot" at seat 1, two
    seats open, 120-second turns (the hands: ``bot_match.HANDS``)."""
    table = make_table(["ana", "bot", None, None], {"turn_seconds": 120})
    return table, User.objects.get(username="bot")


@pytest.fixture
def token_for() -> Callable[..., str]:
    """``token_for(user)``: a fresh play token of ``user`` (the token's text)."""

    def make(user, name: str = "bot") -> str:
        return tokens.create(user, name)[1]

    return make


class Api:
    """A test client that speaks to /api/v1/ with one token (or none)."""

    def __init__(self, token: str | None) -> None:
        self.client = Client()
        self.headers = {"Authorization": f"Bearer {token}"} if token else {}

    def get(self, path: str, **headers):
        return self.client.get(f"/api/v1{path}", headers={**self.headers, **headers})

    def post(self, path: str, data=None, raw: str | None = None, **headers):
        import json

        body = raw if raw is not None else json.dumps(data if data is not None else {})
        return self.client.post(
            f"/api/v1{path}",
            body,
            content_type="application/json",
            headers={**self.headers, **headers},
        )


@pytest.fixture
def api(token_for) -> Callable[..., Api]:
    """``api(user)``: an API client holding a new token of ``user``; ``api(None)``: none."""

    def make(user=None) -> Api:
        return Api(token_for(user) if user is not None else None)

    return make


@pytest.fixture(scope="session")
def openapi() -> dict:
    """The bot API's OpenAPI schema, as ``/api/v1/openapi.json`` serves it."""
    return Client().get("/api/v1/openapi.json").json()


@pytest.fixture
def assert_declared(openapi) -> Callable[..., dict]:
    """``assert_declared(response, "/matches/{match_id}/actions", "post")``: the answer's status
    is one the operation declares, in the declared media type, its body valid against the
    declared schema (jsonschema); returns the body."""
    import jsonschema

    def check(response, path: str, method: str) -> dict:
        declared = openapi["paths"][f"/api/v1{path}"][method]["responses"]
        status = str(response.status_code)
        assert status in declared, f"{status} is not declared: {sorted(declared)}"
        (media_type, content), *_ = declared[status]["content"].items()
        assert response["Content-Type"].split(";")[0] == media_type
        body = response.json()
        jsonschema.validate(body, {**content["schema"], "components": openapi["components"]})
        return body

    return check
