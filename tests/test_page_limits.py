"""Pages per address (config.page_limits): past ``SITE_PAGE_RATE`` an address gets a 429 page
with Retry-After in its language and no view runs; other addresses, static files, /healthz and
the bot API are not counted. Real Redis (the site's cache), a fresh count per test."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

pytestmark = pytest.mark.django_db


@pytest.fixture
def five_a_minute(settings) -> None:
    settings.SITE_PAGE_RATE = "5/m"


def test_an_address_past_the_rate_gets_a_429_and_no_view_runs(five_a_minute) -> None:
    client = Client(REMOTE_ADDR="198.51.100.7")
    assert [client.get("/").status_code for _ in range(5)] == [200] * 5
    with CaptureQueriesContext(connection) as queries:
        refused = client.get("/rules/")
    assert refused.status_code == 429
    assert 0 < int(refused["Retry-After"]) <= 60
    assert 'id="too-many-requests"' in refused.content.decode()
    assert len(queries) == 0  # refused before sessions, users or the view touch the database
    # Another address is not held back by it.
    assert Client(REMOTE_ADDR="198.51.100.8").get("/").status_code == 200


def test_the_refusal_is_in_the_visitors_language(five_a_minute) -> None:
    client = Client(REMOTE_ADDR="198.51.100.9", HTTP_ACCEPT_LANGUAGE="es")
    for _ in range(5):
        client.get("/")
    page = client.get("/").content.decode()
    assert 'lang="es"' in page and "Demasiadas" in page


def test_static_files_health_and_the_api_are_not_counted(five_a_minute) -> None:
    client = Client(REMOTE_ADDR="198.51.100.10")
    for _ in range(8):
        assert client.get("/healthz").status_code != 429  # 503 here: no worker runs
        assert client.get("/api/v1/openapi.json").status_code == 200
    assert client.get("/").status_code == 200


def test_off_lets_every_request_through(settings) -> None:
    settings.SITE_PAGE_RATE = ""
    client = Client(REMOTE_ADDR="198.51.100.11")
    assert {client.get("/").status_code for _ in range(20)} == {200}
