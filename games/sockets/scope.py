"""What a socket's ASGI scope says about who opened it: its session key, the person it
counts as among a table's spectators, and the language its frames are rendered in."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from typing import Any

from django.http import HttpRequest
from django.utils import translation

from accounts.middleware import saved_language


def session_key(scope: Mapping[str, Any]) -> str | None:
    """The socket's session key (from its cookie), or None."""
    session = scope.get("session")
    try:
        return getattr(session, "session_key", None) or None
    except Exception:  # a session backend that cannot be read counts as no session
        return None


#: The cookie table.js sets to a random id, so an anonymous visitor's tabs count once.
WATCHER_COOKIE = "club414_watcher"
_WATCHER_ID = re.compile(r"[A-Za-z0-9_-]{16,64}")


def person_of(scope: Mapping[str, Any], socket_id: str) -> str:
    """Who a socket belongs to, for the count: ``u:<user id>`` when signed in, else a digest of
    the session key (``s:…``, never the key itself), else of table.js's ``WATCHER_COOKIE``
    (``a:…``), else the socket alone (``c:<socket id>``: nothing tells its tabs apart)."""
    user = scope.get("user")
    if user is not None and user.is_authenticated:
        return f"u:{user.pk}"
    key = session_key(scope)
    if key:
        return "s:" + hashlib.sha256(key.encode()).hexdigest()[:32]
    watcher = (scope.get("cookies") or {}).get(WATCHER_COOKIE, "")
    if _WATCHER_ID.fullmatch(watcher):
        return "a:" + hashlib.sha256(watcher.encode()).hexdigest()[:32]
    return f"c:{socket_id}"


def scope_language(scope: Mapping[str, Any]) -> str:
    """The page's language as the pages pick it: a signed-in player's saved language, else the
    language cookie, else the browser's Accept-Language, else the default (a socket has no
    request of its own)."""
    saved = saved_language(scope.get("user"))
    if saved:
        return saved
    headers = dict(scope.get("headers") or [])
    request = HttpRequest()  # only what get_language_from_request reads
    request.COOKIES = scope.get("cookies") or {}
    request.META = {"HTTP_ACCEPT_LANGUAGE": headers.get(b"accept-language", b"").decode("latin-1")}
    return translation.get_language_from_request(request)
