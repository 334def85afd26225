"""The cache (config/cache.py) is Django's Redis backend on REDIS_URL, keys under the site's
prefix, on the real Redis and on the embedded default's private one."""

from __future__ import annotations

from django.conf import settings
from django.core.cache import cache

from games.live import redis_store
from tests.test_settings import run_django


def test_the_cache_lives_in_redis_under_the_site_prefix() -> None:
    """A value set through Django's cache is a key in REDIS_URL's Redis, under the prefix that
    carries REDIS_NAMESPACE and the database's name."""
    prefix = settings.CACHES["default"]["KEY_PREFIX"]
    # The database name as settings read it (pytest renames the database afterwards).
    assert prefix.startswith(f"{settings.REDIS_NAMESPACE}club414:") and prefix.endswith(":cache")
    cache.set("probe", {"answer": 414}, 60)
    assert cache.get("probe") == {"answer": 414}
    assert redis_store.client().exists(f"{prefix}:1:probe") == 1
    cache.delete("probe")
    assert cache.get("probe") is None


def test_clear_removes_only_this_caches_keys() -> None:
    """clear() empties the cache and leaves every other key of the shared Redis (the channel
    layer's, the broker's, the clock's, another run's) where it was."""
    other = f"{settings.REDIS_NAMESPACE}club414:other-site:cache:1:kept"
    redis_store.client().set(other, "still here", ex=60)
    cache.set_many({"a": 1, "b": [2, 3]}, 60)
    try:
        assert cache.clear() is True
        assert cache.get_many(["a", "b"]) == {}
        assert redis_store.client().get(other) == b"still here"
    finally:
        redis_store.client().delete(other)


EMBEDDED = """
import os, sys, tempfile
from pathlib import Path
from config import embedded_redis
server = embedded_redis.start(Path(tempfile.mkdtemp()))
os.environ["REDIS_URL"] = server.url  # as scripts/run_dev.py does
try:
    import django; django.setup()
    from django.core.cache import cache
    from django.conf import settings
    cache.set("embedded", [4, 1, 4], 30)
    print(settings.CACHES["default"]["LOCATION"].startswith("unix://"), cache.get("embedded"))
    cache.clear()
    print(cache.get("embedded"))
finally:
    server.stop()
"""


def test_the_embedded_default_caches_in_the_private_redis() -> None:
    """`make run` without REDIS_URL: the cache works on the private Redis's unix socket."""
    result = run_django(["-c", EMBEDDED], DJANGO_DEBUG="1")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["True [4, 1, 4]", "None"]
