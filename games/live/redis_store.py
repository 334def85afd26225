"""The one Redis client the games app uses for its own keys (presence, audiences), and how
those keys are named so that sites and test runs sharing one Redis never meet."""

from __future__ import annotations

from functools import cache

import redis
from django.conf import settings


@cache
def _client(url: str) -> redis.Redis:
    return redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)


def client() -> redis.Redis:
    """A client for ``settings.REDIS_URL`` (a connection pool per process, thread-safe)."""
    return _client(settings.REDIS_URL)


def key(kind: str, *parts: object) -> str:
    """``<REDIS_NAMESPACE>club414:<database name>:<kind>:<parts…>``, as the cache's prefix: the
    namespace and the database name keep apart sites (and test runs) that share one Redis."""
    name = settings.DATABASES["default"]["NAME"]
    return settings.REDIS_NAMESPACE + ":".join(["club414", str(name), kind, *map(str, parts)])
