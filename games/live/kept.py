"""Small partials' texts kept by their values: rendered once per language and values, reused.

A push renders the same few partials many times: the countdown sits in the status and in the
claim bar of every audience, the top play in every status, a seat's last step in its row seen
from every seat (issue #19). Such a partial sees *only* the values it is given, so its text is a
function of those values, the language and the escaping mode: that text is kept here, and a
later render with equal values (compared by ``repr``) reuses it. Both engines use it: Django's
``{% shared %}`` tag (``games.templatetags.shared``) and Jinja's ``shared()``
(``games.live.jinja``), with the same keys, so the page and the push share their texts.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.utils.safestring import SafeString, mark_safe

from games.live.speech import get_language

#: Texts kept, by (template, language, autoescape, repr of values). Bounded: cleared when full
#: (a countdown's values change with every move, so old entries are never asked for again).
MAX_KEPT = 2048
_kept: dict[tuple[str, str | None, bool, str], SafeString] = {}
_kept_lock = threading.Lock()


def forget() -> None:
    """Drop every kept text (a test counting renders starts from none)."""
    with _kept_lock:
        _kept.clear()


def text(
    name: str, values: dict[str, Any], autoescape: bool, render: Callable[[], str]
) -> SafeString:
    """The text of partial ``name`` with ``values`` in the active language: kept, or made by
    ``render`` (which must read nothing but ``values``) and kept."""
    key = (name, get_language(), autoescape, repr(values))
    kept = _kept.get(key)
    if kept is None:
        kept = mark_safe(render())
        with _kept_lock:
            if len(_kept) >= MAX_KEPT:
                _kept.clear()
            _kept[key] = kept
    return kept
