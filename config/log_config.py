"""The logging configuration: one JSON line per record on stderr, for the site, the workers and
the launcher alike (config/settings.py reads the level once and builds ``LOGGING`` here).

No line ever holds a card, a hand, a seed or a state (DESIGN.md rule 2): the loggers that would
print one at DEBUG (SQL parameters, a template's whole context) are held at INFO whatever the
level.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ImproperlyConfigured

LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


def level(value: str) -> str:
    """``DJANGO_LOG_LEVEL`` as a level name (any case; INFO when empty); ImproperlyConfigured
    when it is none of LEVELS."""
    name = value.strip().upper() or "INFO"
    if name not in LEVELS:
        raise ImproperlyConfigured(
            f"DJANGO_LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL, not {name!r}"
        )
    return name


def logging(level: str) -> dict[str, Any]:
    """Django's ``LOGGING`` dict for ``level`` (one of LEVELS)."""
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {
            "json": {
                "()": "pythonjsonlogger.json.JsonFormatter",
                "fmt": "%(asctime)s %(levelname)s %(name)s %(process)d %(message)s",
                "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"},
            },
        },
        "handlers": {
            "stderr": {
                "class": "logging.StreamHandler",
                "stream": "ext://sys.stderr",
                "formatter": "json",
            },
        },
        "root": {"handlers": ["stderr"], "level": level},
        "loggers": {
            # Replaces Django's own console and mail handlers: one format, one stream.
            "django": {"handlers": ["stderr"], "level": level, "propagate": False},
            # Never DEBUG: its lines are SQL with parameters, and a match's state holds every
            # hand.
            "django.db.backends": {"level": "INFO"},
            # Never DEBUG: a variable a template cannot resolve is logged with the whole context
            # it rendered, a player's hand included (the worker renders every seat's frame).
            "django.template": {"level": "INFO"},
        },
    }
