"""Celery tasks of the leagues app: the periodic catch-up of results (``leagues.results``).

A result is recorded when ``match_finished`` arrives — at the end of a match, or, at a table
with a spectator delay, when the spectators' view reaches the end. A signal lost to a crash
between that commit and the recording would leave a fixture or a pairing waiting (and a
tournament round open) until someone ran ``leagues_catch_up``: the beat runs the same catch-up.
"""

from __future__ import annotations

import logging

from celery import shared_task

from leagues import results

log = logging.getLogger(__name__)


@shared_task(ignore_result=True)
def catch_up_results() -> int:
    """Record the public results still missing from fixtures and pairings; logs only when it
    recorded one (it runs every minute, so a quiet catch-up says nothing)."""
    done = results.do_catch_up()
    if done:
        log.warning("leagues: recorded %d result(s) whose signal was lost", done)
    return done
