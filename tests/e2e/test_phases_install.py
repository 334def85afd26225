"""A phase the browser tests install (``phases.install``) stays put while they measure it: the
sweep of lost AI decisions, which a Celery worker runs as it starts (``games.tasks``), finds no
AI seat to answer for in it, so a live stack starting beside a test never moves it on (a
spectator's claim window once closed half-way through its sizes). No browser: the sweep runs
here, on the installed rows."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import User
from games.engine.state import WINDOW
from games.models import Match
from games.play import deadlines

from .helpers import started_table
from .phases import claim_window, install

pytestmark = pytest.mark.django_db


def test_the_sweep_leaves_an_installed_claim_window_alone() -> None:
    host = User.objects.create_user("phase_host", password="x" * 12)
    table = started_table(host, claim_seconds=10, turn_seconds=60, name="phases")
    # The match began a minute ago: a moment without a move of its own counts from then.
    Match.objects.filter(table=table).update(started_at=timezone.now() - timedelta(minutes=1))
    install(table, claim_window(table.engine_options()))
    before = Match.objects.get(table=table)
    assert deadlines.sweep_lost_decisions(who="ai") == 0
    after = Match.objects.get(table=table)
    assert (after.phase, after.version) == (WINDOW, before.version)
