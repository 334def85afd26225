"""Celery wake-ups: thin wrappers around services, guarded by the token they were set for."""

from __future__ import annotations

from celery import shared_task
from celery.signals import worker_ready

from games import services


@shared_task(ignore_result=True)
def expire(match_id: int, token: int) -> bool:
    """A deadline (turn, claim window, tribute return, next round) rang."""
    return services.expire(match_id, token)


@shared_task(ignore_result=True)
def ai_act(match_id: int, seat: int, token: int) -> bool:
    """An AI seat's pause is over: it acts if the match is still where it was."""
    return services.ai_act(match_id, seat, token)


@shared_task(ignore_result=True)
def auto_pass(match_id: int, seat: int, token: int) -> bool:
    """A person's auto-pass of a claim window (their preference), after the usual pause."""
    return services.auto_pass(match_id, seat, token)


@shared_task(ignore_result=True)
def sweep() -> int:
    """Catch deadlines whose tasks were lost (a crash, a restart)."""
    return services.sweep_overdue()


@worker_ready.connect
def _sweep_on_start(**_: object) -> None:
    sweep.delay()
