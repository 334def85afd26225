"""Reading settings from the environment: the typed helpers config/settings.py uses, so each
knob is parsed once, at start-up, and a malformed value stops the process with a clear error
(ImproperlyConfigured) rather than a 500 on the first request that reads it."""

from __future__ import annotations

import os

from django.core.exceptions import ImproperlyConfigured

from config import rate_limits


def env_bool(name: str, default: bool = False) -> bool:
    """``name`` as a flag: 1, true, yes or on (any case); ``default`` when unset or empty."""
    value = os.environ.get(name, "").strip().lower()
    if not value:
        return default
    return value in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    """``name`` as a comma-separated list, blanks dropped; ``default`` (as written in the
    environment) when unset, so a name set empty is the empty list."""
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def env_rate(name: str, default: str) -> str:
    """A rate limit such as ``10/h`` (config.rate_limits), refused at start-up when malformed
    rather than with a 500 on the first request it counts."""
    value = os.environ.get(name, "").strip() or default
    try:
        rate_limits.parse_rate(value)
    except ValueError as e:
        raise ImproperlyConfigured(f"{name}: {e}") from None
    return value
