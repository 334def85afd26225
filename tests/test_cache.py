"""The cache (config/cache.py) is Django's Redis backend on REDIS_URL, keys under the site's
prefix, on the real Redis and on the embedded default's private one."""

from __future__ import annotations

import redis
from django.conf import settings
from django.core.cache import CacheHandler, cache

from config import embedded_redis
from games.live import redis_store
from tests.test_settings import read_settings


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


def test_the_embedded_default_caches_in_the_private_redis(tmp_path) -> None:
    """`make run` without REDIS_URL: the cache works on the private Redis's unix socket. The
    server is the real one the launcher starts; the cache is the one config/settings.py makes
    of its URL (read afresh with REDIS_URL set as scripts/run_dev.py sets it), built by
    Django's own cache handler in this process: no second process importing the project."""
    server = embedded_redis.start(tmp_path)
    try:
        default = read_settings(["CACHES"], REDIS_URL=server.url, DJANGO_DEBUG="1")["CACHES"]
        assert default["default"]["LOCATION"].startswith("unix://")
        embedded = CacheHandler(default)["default"]
        try:
            embedded.set("embedded", [4, 1, 4], 30)
            assert embedded.get("embedded") == [4, 1, 4]
            # The key is in the private server, under the site's prefix, not in REDIS_URL's.
            with redis.Redis(unix_socket_path=str(server.socket_path)) as private:
                assert private.exists(f"{default['default']['KEY_PREFIX']}:1:embedded") == 1
            embedded.clear()
            assert embedded.get("embedded") is None
        finally:
            embedded.close()
    finally:
        server.stop()
