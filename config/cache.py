"""The site's cache: Django's Redis backend on ``REDIS_URL``, keys under ``KEY_PREFIX``.

The same Redis holds the channel layer, the Celery queue and the timer clock, and often other
sites or test runs beside them (``REDIS_NAMESPACE``). Django's ``RedisCache.clear()`` runs
FLUSHDB, which would wipe all of that; here ``clear()`` deletes only this cache's keys.
``count()`` is the atomic window counter the rate limits count with (``config.rate_limits``).
"""

from __future__ import annotations

import re

from django.core.cache.backends.redis import RedisCache

_GLOB_SPECIAL = re.compile(r"([*?\[\]\\])")

# Adds ``amount`` to the counter and gives it ``window`` ms to live when it has no expiry yet
# (it was just made): one step, so no two requests read the same count and no counter is left
# without an expiry. A negative amount (a count given back) never makes a counter, nor takes one
# below 0. Returns the count and the milliseconds left.
_COUNT = """
local amount = tonumber(ARGV[1])
if amount < 0 and redis.call('EXISTS', KEYS[1]) == 0 then
  return {0, 0}
end
local n = redis.call('INCRBY', KEYS[1], amount)
if n < 0 then
  redis.call('SET', KEYS[1], 0, 'KEEPTTL')
  n = 0
end
local left = redis.call('PTTL', KEYS[1])
if left < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  left = tonumber(ARGV[2])
end
return {n, left}
"""


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

    def count(self, key: str, amount: int, window: float) -> tuple[int, float]:
        """Add ``amount`` (1, or -1 to give one back) to the counter ``key`` in one atomic
        step; a new counter lives ``window`` seconds from its first count. Returns the count
        and the seconds left in its window (0 when nothing was counted). Raises
        redis.RedisError."""
        name = self.make_and_validate_key(key)
        client = self._cache.get_client(name, write=True)
        count, left_ms = client.eval(_COUNT, 1, name, int(amount), max(1, int(window * 1000)))
        return int(count), int(left_ms) / 1000
