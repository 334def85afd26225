"""``/healthz``: is this site able to serve play? For the proxy and the operator's probes.

Three checks, each cheap: the database answers ``SELECT 1``, Redis answers ``PING``, and a
Celery worker's timer clock (``games.play.clock.Clock``) wrote its heartbeat lately. The clock
writes the heartbeat (``beat``) every ``HEARTBEAT_SECONDS`` after a good look at its deadlines,
so a fresh heartbeat means a worker is up, reaches Redis and rings turn timers, claim windows
and AI seats. With several workers, any one of them keeps it fresh.

``health_middleware`` answers ``/healthz`` right after the security middlewares, before
sessions, languages, CSRF and users: a probe reads no session, loads no user and renders no
template. It answers plain HTTP even when the site redirects everything else to HTTPS
(``SECURE_REDIRECT_EXEMPT`` in settings).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from games.live import redis_store

#: Where the probe answers.
PATH = "/healthz"
#: How often a worker's clock writes its heartbeat (seconds).
HEARTBEAT_SECONDS = 2.0
#: The heartbeat key expires after this long without a write (seconds); past
#: ``settings.HEALTH_WORKER_SECONDS`` it already counts as stale.
HEARTBEAT_TTL_SECONDS = 300


def heartbeat_key() -> str:
    """The Redis key of this site's worker heartbeat: a Unix timestamp (seconds, as text)."""
    return f"{settings.REDIS_NAMESPACE}{redis_store.key('worker', 'heartbeat')}"


def beat(now: float | None = None) -> None:
    """Record that a worker's clock is alive at ``now`` (Unix seconds, default: the time).

    Raises redis.RedisError when Redis cannot be reached (the clock treats it as any other
    Redis error of its loop).
    """
    stamp = time.time() if now is None else now
    redis_store.client().set(heartbeat_key(), repr(stamp), ex=HEARTBEAT_TTL_SECONDS)


def check_database() -> str:
    """``"ok"``, or why the database did not answer ``SELECT 1``."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as error:  # any failure is an answer here, never a 500
        return f"failing: {type(error).__name__}"
    return "ok"


def check_redis() -> str:
    """``"ok"``, or why Redis did not answer ``PING``."""
    try:
        redis_store.client().ping()
    except Exception as error:
        return f"failing: {type(error).__name__}"
    return "ok"


def check_worker(now: float | None = None) -> str:
    """``"ok"`` when a worker's heartbeat is at most ``settings.HEALTH_WORKER_SECONDS`` old at
    ``now`` (Unix seconds, default: the time), else what is wrong with it."""
    try:
        stored = redis_store.client().get(heartbeat_key())
    except Exception as error:
        return f"unknown: Redis {type(error).__name__}"
    if stored is None:
        return "failing: no heartbeat"
    try:
        age = (time.time() if now is None else now) - float(stored)
    except ValueError:
        return "failing: unreadable heartbeat"
    if age > settings.HEALTH_WORKER_SECONDS:
        return f"failing: last heartbeat {age:.0f} s ago"
    return "ok"


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    """``GET /healthz``: 200 ``{"status": "ok", "database": "ok", "redis": "ok",
    "worker": "ok"}`` when every check passes, else 503 with ``"status": "failing"`` and the
    failing part's reason in its place (e.g. ``"worker": "failing: no heartbeat"``). HEAD
    answers the same status; other methods get 405."""
    checks = {"database": check_database(), "redis": check_redis(), "worker": check_worker()}
    healthy = all(value == "ok" for value in checks.values())
    return JsonResponse(
        {"status": "ok" if healthy else "failing", **checks}, status=200 if healthy else 503
    )


def health_middleware(
    get_response: Callable[[HttpRequest], HttpResponse],
) -> Callable[[HttpRequest], HttpResponse]:
    """Answer ``PATH`` with ``healthz`` before the middlewares below it in ``MIDDLEWARE``
    (sessions, languages, CSRF, users) see the request; pass everything else on."""

    def middleware(request: HttpRequest) -> HttpResponse:
        if request.path == PATH:
            return healthz(request)
        return get_response(request)

    return middleware
