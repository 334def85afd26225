"""What the site answers besides GET, HEAD and POST (config.methods): 405 with an Allow header,
before any view — and a form posted through a proxy on another port passes the CSRF check when
the proxy forwards the Host the browser sent (deploy/nginx.conf's $http_host)."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.test import Client
from django.urls import reverse

from tests.test_settings import production_env, read_settings

pytestmark = pytest.mark.django_db

PATHS = ["/", "/accounts/player/", "/accounts/login/", "/healthz", "/rules/"]
#: The bot API answers every method itself, each address with its own operations' methods.
API_PATHS = {"/api/v1/me": "GET", "/api/v1/tables/1/sit": "POST"}

METHODS = ["TRACE", "PUT", "DELETE", "PATCH", "OPTIONS", "PROPFIND"]


@pytest.mark.parametrize("method", METHODS)
def test_other_methods_are_405_with_allow(client, user, method):
    """TRACE on a profile page used to answer the page itself (its view takes any method)."""
    for path in PATHS:
        response = client.generic(method, path)
        assert response.status_code == 405, (method, path)
        assert response["Allow"] == "GET, HEAD, POST"
        assert b"player" not in response.content


@pytest.mark.parametrize("method", METHODS)
def test_the_api_answers_other_methods_with_each_operations_allow(client, method):
    """RFC 9110: Allow lists the methods of the resource asked for, not the site's."""
    for path, allow in API_PATHS.items():
        response = client.generic(method, path)
        assert (response.status_code, response["Allow"]) == (405, allow), (method, path)
        # as JSON, as every error of the API (docs/BOT_API.md), not ninja's text
        assert response["Content-Type"].startswith("application/json")
        assert response.json() == {
            "code": "method_not_allowed",
            "message": f"this address takes {allow} only",
        }


def test_an_api_address_asked_with_a_method_it_does_not_take_answers_json(client):
    response = client.post("/api/v1/me")
    assert (response.status_code, response["Allow"]) == (405, "GET")
    assert response.json()["code"] == "method_not_allowed"


def test_get_head_and_post_still_reach_the_views(client, user):
    assert client.get("/accounts/player/").status_code == 200
    assert client.head("/accounts/player/").status_code == 200
    assert client.post(reverse("login"), {"username": "x", "password": "y"}).status_code == 200


async def test_other_methods_are_405_under_asgi_too(async_client):
    response = await async_client.generic("TRACE", "/rules/")
    assert response.status_code == 405 and response["Allow"] == "GET, HEAD, POST"


def test_a_form_through_a_proxy_on_another_port_passes_csrf(user, password):
    """The browser at http://localhost:8080 (nginx on a port of its own) posts the log-in
    form with ``Origin: http://localhost:8080``. Forwarded with the port (``$http_host``),
    Django's CSRF check matches it; with the port dropped (``$host``, as before), 403."""
    for host, expected in (("localhost:8080", 302), ("localhost", 403)):
        client = Client(enforce_csrf_checks=True)
        client.get(reverse("login"), HTTP_HOST="localhost:8080")
        token = client.cookies["csrftoken"].value
        response = client.post(
            reverse("login"),
            {"username": user.username, "password": password, "csrfmiddlewaretoken": token},
            HTTP_HOST=host,
            HTTP_ORIGIN="http://localhost:8080",
        )
        assert response.status_code == expected, host


def test_a_trusted_origin_without_its_scheme_refuses_to_start():
    """Django matches CSRF_TRUSTED_ORIGINS as whole origins: a bare host name would never
    match, and Daphne runs no system check that says so. Settings refuse it as they are read
    (what stops a process's start: ``read_settings`` runs them afresh in this one)."""
    with pytest.raises(ImproperlyConfigured) as refused:
        read_settings(
            ["CSRF_TRUSTED_ORIGINS"],
            **production_env(),
            DJANGO_CSRF_TRUSTED_ORIGINS="club414.example:8443",
        )
    assert "needs its scheme, e.g. https://club414.example:8443" in str(refused.value)
    ok = read_settings(
        ["CSRF_TRUSTED_ORIGINS"],
        **production_env(),
        DJANGO_CSRF_TRUSTED_ORIGINS="https://club414.example:8443",
    )
    assert ok == {"CSRF_TRUSTED_ORIGINS": ["https://club414.example:8443"]}
