"""The Celery app: broker is REDIS_URL (see settings), tasks come from each app's tasks.py.

Every worker that takes the default queue also runs the timer clock
(``games.play.clock.ClockStep``), which rings the deadlines of running matches. AI seats' decisions
go to a queue of their own (``settings.GAMES_AI_QUEUE``), taken by a worker of their own, so a
deployment is "worker, AI worker, beat" (deploy/, docs/AI.md).
"""

from __future__ import annotations

import logging
import os
from typing import Any

from celery import Celery
from celery.signals import (
    after_setup_logger,
    before_task_publish,
    celeryd_after_setup,
    task_postrun,
    task_prerun,
    worker_process_init,
)

from config import broker

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

# kombu's Redis transport with the fix that keeps a worker alive across a Redis restart.
broker.use()
app = Celery("club414")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# A dotted name, loaded when a worker is built (Django is set up by then), not at import time.
app.steps["worker"].add("games.play.clock:ClockStep")


@task_prerun.connect
@task_postrun.connect
def _give_back_connections(**_: object) -> None:
    """Give a task's database connection back to psycopg's pool (or close a broken one).

    Celery's Django fixup would close the whole pool around every task in a prefork worker —
    three new PostgreSQL sessions per task; ``CELERY_DB_REUSE_MAX`` (settings) turns that off,
    and this does the per-task part: a connection whose age is up (all of them, with the pool)
    goes back to the pool, an unusable one is dropped.
    """
    from django.db import close_old_connections

    close_old_connections()


#: What Celery writes in place of a task's arguments: in its "received", "succeeded" and failure
#: lines (and the JSON ``data`` they carry), a worker's DEBUG "TaskPool: Apply" line, a task's
#: repr and its events. Celery prints the arguments wherever a message header says nothing else.
ARGS_NOT_LOGGED = "(not logged)"


@before_task_publish.connect
def _no_arguments_in_logs(headers: dict[str, Any] | None = None, **_: object) -> None:
    """Every task this app sends, from any process (Daphne, a worker, beat, manage.py), carries
    ``ARGS_NOT_LOGGED`` as its ``argsrepr`` and ``kwargsrepr`` (task protocol 2's headers): no
    worker ever logs what a task was sent with (DESIGN.md rule 2). The arguments themselves are
    ids and versions (``games.play.wakeups``); this keeps a future one out of the logs too."""
    if headers is not None:
        headers["argsrepr"] = headers["kwargsrepr"] = ARGS_NOT_LOGGED


#: Celery's loggers of routine lines: a task received, a task succeeded, beat sending a task;
#: and the start-up chatter of each worker and pool process (the broker connection, mingle, the
#: other workers' sync, the heap frozen: about 20 INFO lines from `make run`'s three workers).
#: Each worker's "ready" line (``celery.apps.worker``) stays: it says the worker can take tasks.
ROUTINE_LOGGERS = (
    "celery.worker.strategy",
    "celery.app.trace",
    "celery.beat",
    "celery.worker.consumer",
    "celery.worker.control",
    "config.heap",
)


@after_setup_logger.connect
def _quiet_routine_lines(**_: object) -> None:
    """``WORKER_TASK_LOG_LEVEL`` (e.g. ``WARNING``; unset: the worker's ``-l`` level) is the
    level of ``ROUTINE_LOGGERS``: at INFO they write several lines per move, three every sweep
    and a dozen at start-up, which bury what an operator looks for. Failures are logged at
    ERROR either way."""
    level = os.environ.get("WORKER_TASK_LOG_LEVEL", "").strip().upper()
    if level:
        for name in ROUTINE_LOGGERS:
            logging.getLogger(name).setLevel(level)


@celeryd_after_setup.connect
def _reviews_take_idle_cpu(instance: Any = None, **_: object) -> None:
    """A worker that takes the review queue alone (``settings.GAMES_REVIEW_QUEUE``: the expert's
    round reviews, issue 20) runs under Linux's ``SCHED_IDLE`` policy, its pool processes too
    (forked after this, they inherit it): it gets a core only when nothing else wants one, so a
    review's seconds of CPU never slow an AI seat's decision or a web request
    (``bench/review_load.py``, docs/AI.md: at nice 0 a busy reviewer raised the AI's median
    decision time by a half or more, under ``SCHED_IDLE`` not measurably). Reviews wait, which
    is what they are for. Other workers are left as they are; ``GAMES_REVIEW_IDLE_CPU=0``
    leaves this one too."""
    from django.conf import settings

    queues = set(getattr(instance.app.amqp.queues, "consume_from", None) or ())
    idle = settings.GAMES_REVIEW_IDLE_CPU and hasattr(os, "SCHED_IDLE")
    if idle and queues == {settings.GAMES_REVIEW_QUEUE}:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))


@worker_process_init.connect
def _settle_heap(**_: object) -> None:
    """Each pool process freezes its start-up heap (``config.heap``): the moves it writes for
    timers and AI seats are pushed without a long collector pause."""
    from config import heap

    heap.settle()
