"""The Celery app: broker is REDIS_URL (see settings), tasks come from each app's tasks.py.

Every worker also runs the timer clock (``games.timers.ClockStep``), which rings the deadlines
of running matches, so a deployment is still "worker + beat".
"""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("club414")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# A dotted name, loaded when a worker is built (Django is set up by then), not at import time.
app.steps["worker"].add("games.timers:ClockStep")
