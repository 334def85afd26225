"""A Redis namespace per pytest-xdist worker, set before Django reads its settings.

Loaded as a plugin (``-p tests.conftest_worker`` in pyproject's addopts), so it runs before
pytest-django imports ``config.settings``, which reads ``REDIS_NAMESPACE`` once to name the
Celery queues, the channel layer's prefix, the cache's prefix and every key of
``games.live.redis_store`` (timers, heartbeat…). Under ``pytest -n N`` each worker ``gwK`` then
appends ``gwK-`` to the run's namespace (the Makefile gives each run its own), as pytest-django
gives it its own database (``test_<name>_gwK``): the Daphne and Celery workers a test starts
inherit both, so no two workers ever take each other's tasks, timers or pushes.
"""

from __future__ import annotations

import os

_worker = os.environ.get("PYTEST_XDIST_WORKER")
if _worker and not os.environ.get("REDIS_NAMESPACE", "").endswith(f"{_worker}-"):
    os.environ["REDIS_NAMESPACE"] = f"{os.environ.get('REDIS_NAMESPACE', '')}{_worker}-"
