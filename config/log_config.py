"""The logging configuration: one JSON line per record on stderr, for the site, the workers and
the launcher alike (config/settings.py reads the level once and builds ``LOGGING`` here).

No line ever holds a card, a hand, a seed or a state (DESIGN.md rule 2): the loggers that would
print one at DEBUG (SQL parameters, a template's whole context) are held at INFO whatever the
level.

A refused request is one line (``RefusalWithoutTraceback``): Django logs a ``PermissionDenied``
(403, ``django.request``, WARNING) or a ``SuspiciousOperation`` (400, ``django.security.*``) with
the exception's whole traceback, which filled ``make run``'s log on every refusal; a 5xx keeps
its traceback.
"""

from __future__ import annotations

import copy
import logging as stdlib_logging
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


class RefusalWithoutTraceback(stdlib_logging.Filter):
    """A record of a request answered 4xx (its ``status_code``, as Django's ``log_response`` and
    security logging give it) loses its traceback: the client's doing, not a fault. What was
    refused stays, as ``reason`` ("PermissionDenied: not your table"). Any other record, a 5xx
    one included, passes as it is. The handler gets a copy: other handlers see the original."""

    def filter(self, record: stdlib_logging.LogRecord) -> bool | stdlib_logging.LogRecord:
        status = getattr(record, "status_code", None)
        if not (isinstance(status, int) and 400 <= status < 500 and record.exc_info):
            return True
        one_line = copy.copy(record)
        kind, exc = record.exc_info[0], record.exc_info[1]
        name = kind.__name__ if kind is not None else "Exception"
        one_line.reason = f"{name}: {exc}" if exc is not None and str(exc) else name
        one_line.exc_info, one_line.exc_text, one_line.stack_info = None, None, None
        return one_line


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
        "filters": {
            # A refused request (4xx) without its traceback; 5xx keep theirs.
            "refusals": {"()": "config.log_config.RefusalWithoutTraceback"},
        },
        "handlers": {
            "stderr": {
                "class": "logging.StreamHandler",
                "stream": "ext://sys.stderr",
                "formatter": "json",
                "filters": ["refusals"],
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
