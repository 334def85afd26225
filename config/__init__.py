"""Project configuration: settings, URLs, the ASGI app and the Celery app."""

# Loaded with Django so that tasks' `.delay()` uses this app and its broker.
from config.celery import app as celery_app

__all__ = ["celery_app"]
