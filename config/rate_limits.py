"""Rate limits that count before the work: sign-ups and failed log-ins per address
(``accounts.throttle``), unauthenticated bot API requests per address (``games.api.ratelimit``).

A limit is a rate in django-ratelimit's notation, ``"count/period"`` (``"10/h"``, ``"30/15m"``,
``"5/10s"``). ``take`` counts one request against ``(group, key)`` in the site's Redis cache
and says whether it went over, in one atomic step (``config.cache.SiteRedisCache.count``:
INCRBY, and the window's expiry when the count is new, in one script). So a request counts
*before* it does its work, and however many arrive at once, exactly ``count`` of them get
through: reading the count first and adding to it after the work (as sign-up did, with the
password hashing in between) let 25 requests at a time read the same count. A request whose
work turned out not to count (a log-in that succeeded) ``give_back``\\s its place.

``take`` counts in a fixed window: it opens with its first count and lasts the period;
``Usage.retry_after`` is what is left of it, the ``Retry-After`` of a refusal. When Redis cannot
be reached the limits let requests through (logged): an outage of the cache must not stop people
signing up or logging in. ``take_sliding`` counts in a sliding window instead
(``SiteRedisCache.slide``, a sorted set of the requests' times): at most ``count`` in *any*
``period``, so a burst across the edge of a fixed window (5 at its end, 5 at the next one's
start) cannot pass; the table chat uses it. Keys carry ``RATELIMIT_CACHE_PREFIX`` as
django-ratelimit's do (the tests give each test its own).
"""

from __future__ import annotations

import logging
import math
import re
import time
from dataclasses import dataclass
from typing import cast

from django.conf import settings
from django.core.cache import caches

from config.cache import SiteRedisCache

log = logging.getLogger(__name__)

_RATE = re.compile(r"^\s*(\d+)\s*/\s*(\d*)\s*([smhd])\s*$", re.IGNORECASE)
_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


@dataclass(frozen=True)
class Usage:
    """A window's count after this request, its limit, and the whole seconds left in it."""

    count: int
    limit: int
    retry_after: int

    @property
    def over(self) -> bool:
        """Whether this request went over the limit (it is refused)."""
        return self.count > self.limit


def parse_rate(rate: str) -> tuple[int, int]:
    """``"10/h"`` → ``(10, 3600)``; ``"30/15m"`` → ``(30, 900)``. Raises ValueError."""
    found = _RATE.match(rate or "")
    if found is None:
        raise ValueError(f"not a rate like 10/h or 30/15m: {rate!r}")
    count, multiple, unit = found.groups()
    return int(count), int(multiple or 1) * _SECONDS[unit.lower()]


def _key(group: str, key: str, period: int) -> str:
    prefix = getattr(settings, "RATELIMIT_CACHE_PREFIX", "rl:")
    return f"{prefix}{group}:{period}:{key}"


def _count(group: str, key: str, rate: str, amount: int) -> Usage | None:
    limit, period = parse_rate(rate)
    # The site's cache (config.cache.SiteRedisCache, settings.CACHES) counts atomically.
    cache = cast(SiteRedisCache, caches[getattr(settings, "RATELIMIT_USE_CACHE", "default")])
    try:
        count, left = cache.count(_key(group, key, period), amount, period)
    except Exception:  # redis.RedisError, OSError: the limit lets the request through
        log.warning("rate limit %s unavailable", group, exc_info=True)
        return None
    return Usage(count=count, limit=limit, retry_after=max(1, math.ceil(left)))


def take(group: str, key: str, rate: str) -> Usage | None:
    """Count one request of ``key`` (an address) against ``group``'s ``rate``; refuse it when
    ``usage.over``. None when Redis could not be asked (let it through)."""
    return _count(group, key, rate, 1)


def give_back(group: str, key: str, rate: str) -> None:
    """Take back a place ``take`` counted (the request turned out not to count). Nothing when
    its window has closed meanwhile."""
    _count(group, key, rate, -1)


def take_sliding(group: str, key: str, rate: str, now: float | None = None) -> Usage | None:
    """Count one request of ``key`` against ``group``'s ``rate`` in a sliding window: refused
    (``usage.over``, and then not counted) when ``count`` requests were already taken in the
    last ``period`` seconds before ``now`` (``time.time()`` when None). ``retry_after``: whole
    seconds until a place frees. None when Redis could not be asked (let it through)."""
    limit, period = parse_rate(rate)
    cache = cast(SiteRedisCache, caches[getattr(settings, "RATELIMIT_USE_CACHE", "default")])
    try:
        count, left = cache.slide(
            _key(group, key, period) + ":log", limit, period, time.time() if now is None else now
        )
    except Exception:  # redis.RedisError, OSError: the limit lets the request through
        log.warning("rate limit %s unavailable", group, exc_info=True)
        return None
    return Usage(count=count, limit=limit, retry_after=max(1, math.ceil(left)))
