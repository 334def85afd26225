"""Celery: count the finished matches whose ``match_finished`` signal was lost."""

from __future__ import annotations

import logging
from datetime import timedelta

from celery import shared_task

from stats import record

log = logging.getLogger(__name__)

#: How far back the periodic catch-up looks: a lost signal is found within minutes, and older
#: matches are the ``stats_catch_up`` command's (it reads every finished match).
CATCH_UP_WINDOW = timedelta(days=1)


@shared_task(ignore_result=True)
def catch_up() -> int:
    """Count the matches of the last day still without statistics; logs only when it did."""
    done = record.do_catch_up(CATCH_UP_WINDOW)
    if done:
        log.warning("stats: counted %d finished match(es) whose signal was lost", done)
    return done
