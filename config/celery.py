"""The Celery app: broker is REDIS_URL (see settings), tasks come from each app's tasks.py."""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("club414")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
