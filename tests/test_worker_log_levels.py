"""The workers' log at `make run`'s levels (``WORKER_TASK_LOG_LEVEL=WARNING``): no routine line
per task or sweep and none of the start-up chatter (the broker connection, mingle, the other
workers' sync, the heap frozen: about 20 INFO lines from three workers), but each worker's
"ready" line and every warning (``config.celery._quiet_routine_lines``)."""

from __future__ import annotations

import logging

import pytest

from config import celery

CHATTER = (
    "celery.worker.consumer.connection",  # Connected to redis+socket://…
    "celery.worker.consumer.mingle",  # mingle: searching for neighbors / all alone
    "celery.worker.control",  # sync with review@…
    "config.heap",  # heap settled: … objects frozen
    "celery.worker.strategy",  # Task … received
    "celery.app.trace",  # Task … succeeded
    "celery.beat",  # Scheduler: Sending due task
)


@pytest.fixture
def levels():
    """The loggers' own levels, put back after the test (they are process-wide)."""
    names = [*celery.ROUTINE_LOGGERS, "celery.apps.worker", "root"]
    saved = {name: logging.getLogger(name).level for name in names}
    yield
    for name, level in saved.items():
        logging.getLogger(name).setLevel(level)


def test_start_up_chatter_is_quiet_and_the_ready_line_stays(levels, monkeypatch) -> None:
    monkeypatch.setenv("WORKER_TASK_LOG_LEVEL", "WARNING")
    logging.getLogger().setLevel(logging.INFO)  # a worker's `-l INFO` sets the root's
    celery._quiet_routine_lines()
    for name in CHATTER:
        logger = logging.getLogger(name)
        assert not logger.isEnabledFor(logging.INFO), name
        assert logger.isEnabledFor(logging.WARNING), name
    assert logging.getLogger("celery.apps.worker").isEnabledFor(logging.INFO)  # "… ready."
