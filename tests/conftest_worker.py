"""A Redis namespace per pytest-xdist worker, set before Django reads its settings.

Loaded as a plugin (``-p tests.conftest_worker`` in pyproject's addopts), so it runs before
pytest-django imports ``config.settings``, which reads ``REDIS_NAMESPACE`` once to name the
Celery queues, the channel layer's prefix, the cache's prefix and every key of
``games.live.redis_store`` (timers, heartbeat…). Under ``pytest -n N`` each worker ``gwK`` then
appends ``gwK-`` to the run's namespace (the Makefile gives each run its own), as pytest-django
gives it its own database (``test_<name>_gwK``): the Daphne and Celery workers a test starts
inherit both, so no two workers ever take each other's tasks, timers or pushes.

Every run also gets a namespace of its own (``run<pid>-`` after the one it was given), set once
in the process that starts it and inherited by its xdist workers: the test databases are made
afresh each run, so their ids start at 1 again, and an earlier run's keys for the same ids (a
match's clock token, which only a newer token may replace) must never meet them. Run after run
with one fixed ``REDIS_NAMESPACE``, a match 1 once had its deadlines refused until the previous
run's match 1 timer rang (docs/PERFORMANCE.md, "The round test's lost timer").
"""

from __future__ import annotations

import os

_RUN = "CLUB414_TEST_RUN"
_worker = os.environ.get("PYTEST_XDIST_WORKER")
if _worker is None and _RUN not in os.environ:
    os.environ[_RUN] = str(os.getpid())
    os.environ["REDIS_NAMESPACE"] = f"{os.environ.get('REDIS_NAMESPACE', '')}run{os.getpid()}-"
if _worker and not os.environ.get("REDIS_NAMESPACE", "").endswith(f"{_worker}-"):
    os.environ["REDIS_NAMESPACE"] = f"{os.environ.get('REDIS_NAMESPACE', '')}{_worker}-"
