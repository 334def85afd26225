"""The lobby's public lists, rendered once per language and kept in the cache for a moment.

A flood of lobby pages (80 anonymous readers in issue 17) rendered the public lists — 4
statements and ~280 seats' rows — once per request, and that CPU was taken from live play. The
public lists are the same for every viewer of a language (``games.live.lobby``), so their HTML
is kept in the site's cache (Redis, shared by every process) for
``settings.GAMES_LOBBY_CACHE_SECONDS`` (2; 0: off).

A change is never hidden for those seconds: ``notify.lobby_changed`` — sent whenever a table
opens, fills, starts, ends a round or ends — bumps a version first (``invalidate``), and the
HTML is kept under the version read before it was rendered. A page rendered from rows read
before a change is therefore stored under the old version, which no reader asks for any more.
Only the spectator counts, which change without a notification, can be a moment old.

When a copy grows older than the limit, the first request to take the renewal (``cache.add``,
one per language and period) renders it again and the others are served the copy meanwhile:
80 readers whose copy expired at the same moment rendered the lists 80 times at once, the
lobby's slowest pages under a flood.
"""

from __future__ import annotations

import math
import time
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe

from accounts.models import User
from games.live import lobby

_VERSION_KEY = "lobby:public:version"
#: A copy is kept this many times its age limit: past the limit, while one request renews it,
#: the others are served the copy instead of all rendering the lists at once.
KEEP_FACTOR = 5


def _html_key(version: int, language: str) -> str:
    return f"lobby:public:{version}:{language}"


def seconds() -> float:
    """How long the lists are kept (0: not kept)."""
    return float(settings.GAMES_LOBBY_CACHE_SECONDS)


def page_context(user: User | AnonymousUser | None) -> dict[str, Any]:
    """What ``lobby_lists.html`` shows ``user``: the public lists' HTML (kept) and their own
    tables (read each time: 2 statements; none for an anonymous visitor)."""
    return {"public_html": public_html(), "my_tables": lobby.my_tables(user)}


def public_html() -> SafeString:
    """The public lists' HTML (``lobby.PUBLIC_TEMPLATE``, not out-of-band) in the active
    language: from the cache when a copy of the current version is there (no statement), else
    rendered (``lobby.public_context``) and kept. With the cache off, always rendered."""
    ttl = seconds()
    if ttl <= 0:
        return mark_safe(_render())  # noqa: S308 - the template's own output
    version = int(cache.get_or_set(_VERSION_KEY, 0, timeout=None) or 0)
    key = _html_key(version, translation.get_language() or settings.LANGUAGE_CODE)
    started = time.time()
    kept: tuple[float, str] | None = cache.get(key)
    if kept is not None:
        read_at, html = kept
        # Old: one request renews it (whoever takes the renewal), the others meanwhile get
        # the copy, which is of the current version: no change is hidden by it.
        renewal = f"{key}:renewing"
        if started - read_at < ttl or not cache.add(renewal, 1, timeout=math.ceil(ttl)):
            return mark_safe(html)  # noqa: S308 - the template's own output
    html = _render()
    cache.set(key, (started, str(html)), timeout=math.ceil(ttl * KEEP_FACTOR))
    return mark_safe(html)  # noqa: S308 - the template's own output


def invalidate() -> None:
    """The lobby changed: the kept lists of every language are stale. Bumps the version (one
    Redis step; the old copies expire on their own) — also where the cache is off here: another
    process (a page Daphne) may keep copies."""
    try:
        cache.incr(_VERSION_KEY)
    except ValueError:  # no version yet: nothing is kept under one either
        cache.add(_VERSION_KEY, 1, timeout=None)


def _render() -> str:
    return render_to_string(lobby.PUBLIC_TEMPLATE, {**lobby.public_context(), "oob": False})
