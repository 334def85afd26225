"""The bot API's endpoints in process, who may ask and how much: a valid token or a JSON 401,
the rate limits per token and per address, no CORS, a JSON 404 for any unknown address, and a
body over the limit refused before it is parsed (docs/BOT_API.md)."""

from __future__ import annotations

import json

import pytest

from tests.games.api.bot_match import HANDS, match_snapshot

pytestmark = pytest.mark.django_db


def test_no_valid_token_is_401_json_never_a_redirect(api, user):
    for client in (api(None), api(user)):
        client.headers["Authorization"] = client.headers.get("Authorization", "") + "bad"
        response = client.get("/me")
        assert response.status_code == 401
        assert response["Content-Type"].startswith("application/json")
        assert response.json()["code"] == "unauthorized"
    response = api(None).get("/matches/1/stream")
    assert response.status_code == 401 and response.json()["code"] == "unauthorized"


def test_floods_are_refused_per_token(api, table_with_bot, start_with_hands, settings):
    settings.BOTAPI_RATE = "5/m"
    table, bot = table_with_bot
    match = start_with_hands(table, HANDS, leader=1)
    client, other = api(bot), api(bot)
    statuses = [client.get("/me").status_code for _ in range(5)]
    assert statuses == [200] * 5
    before = match_snapshot(match)
    response = client.post(
        f"/matches/{match.pk}/actions", {"action": "play", "cards": ["6H"], "version": 0}
    )
    assert response.status_code == 429 and response.json()["code"] == "rate_limited"
    assert response["Retry-After"]
    assert match_snapshot(match) == before
    assert client.get(f"/matches/{match.pk}/stream").status_code == 429
    assert other.get("/me").status_code == 200  # another token has its own count


def test_requests_without_a_token_are_limited_per_address(api, user, table_with_bot, settings):
    """``BOTAPI_ANONYMOUS_RATE`` requests without a valid token per address (no token, an
    unknown one; the schema, the docs, the guide, unknown addresses): 401 (or their own answer)
    until then, then 429 ``rate_limited`` with a Retry-After, as JSON; another address is not
    affected, and a valid token from the same address still works (it counts on its own)."""
    settings.BOTAPI_ANONYMOUS_RATE = "4/m"
    table, bot = table_with_bot
    client = api(None).client

    def get(path: str, address: str = "198.51.100.7", token: str = ""):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return client.get(f"/api/v1{path}", REMOTE_ADDR=address, headers=headers)

    assert get("/me").status_code == 401
    assert get("/me", token="c414_not-a-token").status_code == 401
    assert get("/openapi.json").status_code == 200
    assert get("/nowhere").status_code == 404
    for path in ("/me", "/openapi.json", "/docs", "/guide", "/nowhere", "/matches/1/stream"):
        refused = get(path)
        assert refused.status_code == 429, path
        assert refused.json()["code"] == "rate_limited"
        assert 0 < int(refused["Retry-After"]) <= 60
    assert get("/me", token="c414_not-a-token").status_code == 429
    assert get("/me", address="198.51.100.8").status_code == 401
    good = api(bot).headers["Authorization"].removeprefix("Bearer ")
    assert get("/me", token=good).status_code == 200


def test_cors_is_off(api, user):
    response = api(user).get("/me", Origin="https://elsewhere.example")
    assert response.status_code == 200
    assert not [h for h in response.headers if h.lower().startswith("access-control-")]


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/nothing"),
        ("get", "/matches/1/score"),
        ("get", "/me/"),
        ("post", "/matches/1/act"),
        ("post", "/tables/1/stand"),
    ],
)
def test_an_unknown_path_is_a_json_404(api, user, method, path):
    """An address under /api/v1/ that no endpoint serves, with a token or without: the API's
    JSON error shape, never Django's HTML 404 page (nor a CSRF page for a POST)."""
    for client in (api(user), api(None)):
        response = getattr(client, method)(path)
        assert response.status_code == 404, response.content[:200]
        assert response["Content-Type"].startswith("application/json")
        assert response.json() == {
            "code": "not_found",
            "message": "no such endpoint: the endpoints are listed at /api/v1/docs",
        }


def test_a_body_over_the_limit_is_413_before_parsing(api, table_with_bot, start_with_hands):
    """A 1.2 MB action (valid JSON, a huge client_id) is refused 413 ``too_large`` before it is
    parsed or reaches the writer: before, it was parsed whole and answered 409 stale."""
    table, bot = table_with_bot
    match = start_with_hands(table, HANDS, leader=1)
    before = match_snapshot(match)
    action = {"action": "play", "cards": ["6H"], "version": 0}
    huge = json.dumps({**action, "client_id": "x" * 1_200_000})
    for client in (api(bot), api(None)):
        response = client.post(f"/matches/{match.pk}/actions", raw=huge)
        assert response.status_code == 413, response.content[:200]
        assert response.json() == {
            "code": "too_large",
            "message": "the request body is over 4096 bytes",
        }
    response = api(bot).post(f"/tables/{table.pk}/sit", raw=json.dumps({"pad": "x" * 5000}))
    assert response.status_code == 413
    assert match_snapshot(match) == before
    # Under 4 KB the body is read and judged: a 3,000-character id is malformed (ids are 64
    # characters at most), not too large; a 64-character one is taken.
    long_id = api(bot).post(f"/matches/{match.pk}/actions", {**action, "client_id": "c" * 3000})
    assert long_id.status_code == 400 and long_id.json()["code"] == "malformed"
    assert match_snapshot(match) == before
    ok = api(bot).post(f"/matches/{match.pk}/actions", {**action, "client_id": "c" * 64})
    assert ok.status_code == 200 and ok.json() == {"ok": True, "version": 1}


def test_a_body_without_a_declared_length_is_measured():
    """A chunked body (no Content-Length) is measured as read."""
    from django.test import RequestFactory

    from games.api.body_limit import body_size

    request = RequestFactory().post("/api/v1/x", "y" * 5000, content_type="application/json")
    del request.META["CONTENT_LENGTH"]
    assert body_size(request) == 5000
