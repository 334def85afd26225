"""Celery's queues, task routes and beat schedule, built from values the settings read.

The settings (config/settings.py) read every knob from the environment once and pass it here;
this module only gives the values their shape (kombu queues, Celery's route and schedule
dicts), so the settings module stays a list of knobs. Imports kombu only: no Django.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from kombu import Exchange, Queue


def queues(names: Iterable[str]) -> list[Queue]:
    """One queue per name, each with its own direct exchange and routing key, as Celery would
    make for a missing queue: with one shared exchange and key, a message would reach both."""
    return [Queue(name, Exchange(name), routing_key=name) for name in names]


def routes(*, ai: str, review: str) -> dict[str, dict[str, str]]:
    """AI seats' decisions and their sweep on the ``ai`` queue (an expert searches for up to
    0.5 s: a burst never holds a deadline back), reviews and their sweep on the ``review``
    queue (seconds of CPU each, issue 20); every other task on the default queue."""
    return {
        "games.tasks.ai_act": {"queue": ai},
        "games.tasks.sweep_ai": {"queue": ai},
        "games.tasks.review_round": {"queue": review},
        "games.tasks.sweep_reviews": {"queue": review},
    }


def beat_schedule(
    *, sweep_seconds: float, review_sweep_seconds: float, catch_up_seconds: float
) -> dict[str, dict[str, Any]]:
    """The beat's periodic sweeps, every so many seconds (floats).

    Timers are Celery tasks; a restart of Redis or the worker can lose them. The sweeps apply
    any deadline overdue by more than 2 s (DESIGN.md rule 3), re-queue lost AI decisions, move
    delayed spectator views whose wake-up was lost, make the reviews a lost task left unmade
    (games.records.reviews), and count the statistics (games.records.player_stats) and league
    results (leagues.results) whose signal was lost: at the end of a match or, at a delayed
    table, when the spectators' view reached the end."""
    return {
        "sweep-overdue-timers": {"task": "games.tasks.sweep", "schedule": sweep_seconds},
        "sweep-lost-ai-decisions": {"task": "games.tasks.sweep_ai", "schedule": sweep_seconds},
        "sweep-lost-reviews": {
            "task": "games.tasks.sweep_reviews",
            "schedule": review_sweep_seconds,
        },
        "sweep-delayed-views": {"task": "games.tasks.sweep_delayed", "schedule": sweep_seconds},
        "player-stats-catch-up": {
            "task": "games.tasks.catch_up_player_stats",
            "schedule": catch_up_seconds,
        },
        "leagues-results-catch-up": {
            "task": "leagues.tasks.catch_up_results",
            "schedule": catch_up_seconds,
        },
    }
