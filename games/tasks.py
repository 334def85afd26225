"""Celery tasks: thin wrappers around ``games.play`` and ``games.live``, each guarded by the
token (or version) it was sent for. ``games.play.wakeups`` alone sends them, by name.

A match's running deadline is not a task of its own: ``games.play.clock`` keeps it in a Redis
sorted set, and the worker's clock sends ``expire`` once it is due. AI seats and auto-passes stay
countdown tasks (each does real work when it runs); one lost with a worker or a broker is made
by the next ``sweep``.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from celery import shared_task
from celery.signals import worker_ready

from games.live import delay
from games.play import clock, deadlines, rematches, wakeups
from games.records import player_stats, reviews

log = logging.getLogger(__name__)


@shared_task(ignore_result=True)
def expire(match_id: int, token: int) -> bool:
    """A deadline (turn, claim window, tribute return, next round) rang."""
    return deadlines.expire(match_id, token)


@shared_task(ignore_result=True)
def ai_act(match_id: int, seat: int, token: int) -> bool:
    """An AI seat's moment came: it decides and acts, or sends its window answer on after
    its fixed pause (``deadlines.ai_act``)."""
    return deadlines.ai_act(match_id, seat, token)


@shared_task(ignore_result=True)
def ai_answer(match_id: int, seat: int, token: int, *_older: object) -> bool:
    """An AI seat's window answer for the moment ``token``, decided and kept aside by
    ``ai_act`` (``deadlines.keep_answer``), once its pause is over: applied if the window is
    still the one it answers (``deadlines.ai_answer``). Its arguments name the moment, never
    the answer (its cards are not public yet). Cheap, so it runs on the main queue; lost with a
    worker, the AI sweep decides the seat again. A message queued by an older release carried
    the answer itself as a fourth argument (``_older``): it is not read, so such a message finds
    no kept answer and the sweep decides that seat again."""
    return deadlines.ai_answer(match_id, seat, token)


@shared_task(ignore_result=True)
def auto_pass(match_id: int, seat: int, token: int) -> bool:
    """A person's auto-pass of a claim window (their preference), after the usual pause."""
    return deadlines.auto_pass(match_id, seat, token)


@shared_task(ignore_result=True)
def sweep() -> int:
    """Catch what a crash or a restart lost: deadlines overdue (``deadlines.sweep_overdue``) and
    auto-passes whose countdown task vanished (``deadlines.sweep_lost_decisions``). AI seats'
    lost decisions are ``sweep_ai``'s, on the AI queue.

    Also settles rematches whose answer time ended (``rematches.sweep_expired``: their wake-up
    was lost). Returns how many matches, seats or rematches moved; logs a line only when
    something did (it runs every few seconds, so a quiet sweep says nothing).
    """
    expired = deadlines.sweep_overdue()
    decided = deadlines.sweep_lost_decisions(who="auto_pass")
    settled = rematches.sweep_expired()
    if expired or decided or settled:
        log.warning(
            "sweep: applied %d overdue deadline(s) and %d lost auto-pass(es); "
            "settled %d rematch(es) past their answer time",
            expired,
            decided,
            settled,
        )
    return expired + decided + settled


@shared_task(ignore_result=True)
def rematch_expire(rematch_id: int) -> bool:
    """A rematch's answer time is over: settle it without those who did not answer."""
    return rematches.expire(rematch_id)


@shared_task(ignore_result=True)
def sweep_ai() -> int:
    """Make the AI seats' decisions whose countdown task vanished (a crash, a broker restart):
    routed to the AI queue (``settings.CELERY_TASK_ROUTES``), so the searches it may run never
    hold the main worker's deadlines back. Returns how many seats acted; logs a line only then."""
    decided = deadlines.sweep_lost_decisions(who="ai")
    if decided:
        log.warning("sweep: made %d lost AI decision(s)", decided)
    return decided


@shared_task(ignore_result=True)
def rearm() -> int:
    """Arm the clock with every running match's deadline from the database (sent by a clock
    when it starts and when Redis lost the set). Returns how many were armed."""
    return clock.rearm_from_db()


@shared_task(ignore_result=True)
def review_round(match_id: int, round_no: int) -> int:
    """A round is over: the expert reviews its people's seats (``records.reviews.make``; issue
    20). Routed to the review queue (``settings.CELERY_TASK_ROUTES``), whose worker takes
    nothing else: a review's seconds of CPU never hold a deadline or an AI seat back."""
    return reviews.make(match_id, round_no)


@shared_task(ignore_result=True)
def sweep_reviews() -> int:
    """Make the round reviews a lost task or a worker restart left unmade (on the review
    queue); logs a line only when it made some."""
    made = reviews.sweep()
    if made:
        log.warning("sweep: made %d lost round review(s)", made)
    return made


@worker_ready.connect
def _sweep_on_start(**_: object) -> None:
    sweep.delay()
    sweep_ai.delay()
    sweep_reviews.delay()


@shared_task(ignore_result=True)
def advance(match_id: int) -> bool:
    """A delayed table's spectators' view is due to move on (``games.live.delay.advance``)."""
    step = delay.advance(match_id)
    if step is not None:
        wakeups.delayed_view(match_id, step.due)
    return bool(step and step.new > step.old)


@shared_task(ignore_result=True)
def sweep_delayed() -> int:
    """Move the spectators' views whose wake-up was lost (``games.live.delay.sweep_overdue``)."""
    return delay.sweep_overdue(arm=wakeups.delayed_view)


#: How far back the periodic catch-up looks: a lost signal is found within minutes, and older
#: matches are the ``stats_catch_up`` command's (it reads every finished match).
CATCH_UP_WINDOW = timedelta(days=1)


@shared_task(ignore_result=True)
def catch_up_player_stats() -> int:
    """Count the matches of the last day still without statistics; logs only when it did."""
    done = player_stats.do_catch_up(CATCH_UP_WINDOW)
    if done:
        log.warning("stats: counted %d finished match(es) whose signal was lost", done)
    return done
