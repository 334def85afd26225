"""The site's cache: Django's Redis backend on ``REDIS_URL``, keys under ``KEY_PREFIX``.

The same Redis holds the channel layer, the Celery queue and the timer clock, and often other
sites or test runs beside them (``REDIS_NAMESPACE``). Django's ``RedisCache.clear()`` runs
FLUSHDB, which would wipe all of that; here ``clear()`` deletes only this cache's keys.
"""

from __future__ import annotations

import re

from django.core.cache.backends.redis import RedisCache

_GLOB_SPECIAL = re.compile(r"([*?\[\]\\])")


class SiteRedisCache(RedisCache):
    """``django.core.cache.backends.redis.RedisCache`` whose ``clear()`` removes only the keys
    under this cache's ``KEY_PREFIX`` (SCAN and UNLINK, in batches; other keys untouched)."""

    # A bool like Django's own RedisCache.clear() (FLUSHDB's answer); django-stubs give it
    # BaseCache's None.
    def clear(self) -> bool:  # type: ignore[override]
        """Delete every key of this cache; returns True. Raises redis.RedisError."""
        pattern = _GLOB_SPECIAL.sub(r"\\\1", self.key_prefix) + ":*"
        client = self._cache.get_client(None, write=True)
        batch: list[bytes] = []
        for key in client.scan_iter(match=pattern, count=1000):
            batch.append(key)
            if len(batch) >= 1000:
                client.unlink(*batch)
                batch = []
        if batch:
            client.unlink(*batch)
        return True
