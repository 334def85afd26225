"""``/healthz`` (config/health.py) on the real PostgreSQL and Redis, and a real Celery worker whose
timer clock writes the heartbeat."""

from __future__ import annotations

import json
import os
import time

import pytest
from django.test import Client

from config import health
from games.live import redis_store
from tests.servers import wait_for
from tests.test_settings import run_django

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _no_heartbeat() -> None:
    """Each test starts with no worker heartbeat in this run's namespace."""
    redis_store.client().delete(health.heartbeat_key())


def probe(client: Client | None = None):
    response = (client or Client()).get("/healthz")
    return response.status_code, response.json()


def test_a_running_worker_makes_every_part_ok(worker) -> None:
    """A real worker's clock writes the heartbeat within a few seconds of starting: 200, and
    every part "ok"."""
    assert wait_for(lambda: probe()[0] == 200, 30), probe()
    assert probe() == (200, {"status": "ok", "database": "ok", "redis": "ok", "worker": "ok"})
    stamp = float(redis_store.client().get(health.heartbeat_key()))
    assert abs(time.time() - stamp) < 10


def test_without_a_heartbeat_the_worker_part_fails() -> None:
    """No worker ever beat: 503, and only the worker part says why."""
    assert probe() == (
        503,
        {"status": "failing", "database": "ok", "redis": "ok", "worker": "failing: no heartbeat"},
    )


def test_a_stale_heartbeat_fails(settings) -> None:
    """A heartbeat older than HEALTH_WORKER_SECONDS is a dead worker; a fresh one passes."""
    settings.HEALTH_WORKER_SECONDS = 15
    health.beat(time.time() - 60)
    status, body = probe()
    assert status == 503 and body["status"] == "failing"
    assert body["worker"] == "failing: last heartbeat 60 s ago"
    health.beat()
    assert probe()[0] == 200


def test_redis_down_fails_redis_and_worker(settings) -> None:
    """Redis unreachable (nothing listens on that port): 503, Redis failing, the worker part
    unknown; the database still answers. A 503, never a 500."""
    health.beat()
    settings.REDIS_URL = "redis://127.0.0.1:1/0"
    status, body = probe()
    assert status == 503
    assert body["database"] == "ok"
    assert body["redis"] == "failing: ConnectionError"
    assert body["worker"] == "unknown: Redis ConnectionError"


def test_the_probe_is_one_query_and_no_session(django_assert_num_queries, user) -> None:
    """A probe costs one query, SELECT 1, even from a signed-in browser: no session is read,
    no user loaded, no cookie set, nothing varies on Cookie, and nothing caches the answer."""
    health.beat()
    signed_in = Client()
    signed_in.force_login(user)
    for client in (Client(), signed_in):
        with django_assert_num_queries(1):
            response = client.get("/healthz")
        assert response.status_code == 200
        assert not response.cookies
        assert "Cookie" not in response.get("Vary", "")
        assert "no-cache" in response["Cache-Control"]
    assert Client().head("/healthz").status_code == 200


def test_the_probe_is_not_redirected_to_https(settings) -> None:
    """With the production HTTPS redirect on, every page redirects but /healthz answers."""
    settings.SECURE_SSL_REDIRECT = True
    health.beat()
    client = Client()
    assert client.get("/rules/").status_code == 301
    assert client.get("/healthz").status_code == 200


def test_other_methods_are_refused() -> None:
    """POST is not a probe: 405, and it changes nothing."""
    assert Client().post("/healthz").status_code == 405


DATABASE_DOWN = """
import json, django
django.setup()
from django.test import RequestFactory
from config.health import healthz
response = healthz(RequestFactory().get("/healthz"))
print(response.status_code, json.dumps(json.loads(response.content), sort_keys=True))
"""


def test_a_database_that_cannot_be_opened_fails_the_database_part() -> None:
    """A database that cannot be reached (here an SQLite file in a directory that does not
    exist): 503 naming the database, never a 500; Redis still answers."""
    result = run_django(
        ["-c", DATABASE_DOWN],
        DJANGO_DEBUG="1",
        DATABASE_URL="sqlite:////nonexistent-club414/db.sqlite3",
        REDIS_URL=os.environ["REDIS_URL"],
    )
    assert result.returncode == 0, result.stderr
    status, body = result.stdout.strip().splitlines()[-1].split(" ", 1)
    assert status == "503"
    assert json.loads(body) == {
        "database": "failing: OperationalError",
        "redis": "ok",
        "status": "failing",
        "worker": "failing: no heartbeat",
    }
