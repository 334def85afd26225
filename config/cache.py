"""The site's cache: Django's Redis backend on ``REDIS_URL``, keys under ``KEY_PREFIX``.

The same Redis holds the channel layer, the Celery queue and the timer clock, and often other
sites or test runs beside them (``REDIS_NAMESPACE``). Django's ``RedisCache.clear()`` runs
FLUSHDB, which would wipe all of that; here ``clear()`` deletes only this cache's keys.
``count()`` is the atomic window counter the rate limits count with (``config.rate_limits``);
``slide()`` the sliding-window log the chat's limit counts with (at most n in *any* window).
"""

from __future__ import annotations

import re
import uuid

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

# A sliding-window log in a sorted set (score: the time in ms): drops the entries older than the
# window, and adds this one only when fewer than the limit remain, all in one step (no two
# requests read the same count). A refusal is not logged, so hammering does not stretch the
# wait. Returns the count with this request (limit + 1 when refused) and the milliseconds until
# the oldest entry leaves the window (0 when accepted). KEYS[1]: the log; ARGV: the time in ms,
# the window in ms, the limit, a member unique to this request.
_SLIDE = """
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local n = redis.call('ZCARD', KEYS[1])
if n >= limit then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  local left = window
  if oldest[2] then left = tonumber(oldest[2]) + window - now end
  return {n + 1, math.max(1, left)}
end
redis.call('ZADD', KEYS[1], now, ARGV[4])
redis.call('PEXPIRE', KEYS[1], window)
return {n + 1, 0}
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

    def slide(self, key: str, limit: int, window: float, now: float) -> tuple[int, float]:
        """Log one request in the sliding window ``key`` unless ``limit`` requests are already
        in the last ``window`` seconds (``now``: the time in seconds, ``time.time()``), in one
        atomic step. Returns the count with this request (over ``limit`` when refused, and then
        not logged) and the seconds until a place frees (0 when accepted). Raises
        redis.RedisError."""
        name = self.make_and_validate_key(key)
        client = self._cache.get_client(name, write=True)
        count, left_ms = client.eval(
            _SLIDE,
            1,
            name,
            int(now * 1000),
            max(1, int(window * 1000)),
            int(limit),
            uuid.uuid4().hex,
        )
        return int(count), int(left_ms) / 1000
