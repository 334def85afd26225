"""Timers and AI seats through a real Celery worker and the real Redis broker (DESIGN.md rule 3)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.db import connection

from games import services, tables
from games.engine.deal import start_round
from games.models import Match, Move, Seat

from .conftest import install_state

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def worker(settings):
    """A Celery worker process on the test database, its queue purged of older tests' tasks."""
    db = connection.settings_dict
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
    }
    celery = [sys.executable, "-m", "celery", "-A", "config"]
    subprocess.run(
        [*celery, "purge", "-f"], cwd=ROOT, env=env, check=True, capture_output=True, timeout=60
    )
    proc = subprocess.Popen(
        [
            *celery,
            "worker",
            "-P",
            "solo",
            "-l",
            "warning",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    settings.GAMES_AI_DELAY_SECONDS = 0.1
    yield proc
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()


def wait_for(check, seconds: float = 30.0) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check():
            return True
        time.sleep(0.1)
    return False


def test_a_claim_window_closes_on_time(worker, make_table):
    """Nobody answers a 1-second window: the worker closes it after its deadline, not before."""
    table = make_table(["ana", "bo", "cy", "di"], {"claim_window_seconds": 1, "turn_seconds": 120})
    match = tables.start(table.pk, table.host, seed=3)
    state = start_round(
        table.engine_options(),
        [("9H", "3C"), ("9D", "4C"), ("5H", "6C"), ("7S", "8C")],
        2,
        leader=0,
    )
    install_state(match, state)
    sent = time.monotonic()
    assert services.submit(
        match.pk, table.host, {"action": "play", "cards": ["9H"], "version": 0}
    ).ok
    assert Match.objects.get(pk=match.pk).phase == "window"
    assert wait_for(lambda: Match.objects.get(pk=match.pk).phase != "window", 20)
    waited = time.monotonic() - sent
    closed = services.load_state(Match.objects.get(pk=match.pk))
    assert (closed.phase, closed.turn, closed.top.cards) == ("play", 1, ("9H",))
    assert waited >= 0.95
    last = Move.objects.filter(match=match).order_by("-seq").first()
    assert last.seat is None and last.action == {"type": "timeout"}


def test_ai_seats_move_by_themselves(worker, make_user):
    """An all-AI table starts and its seats play through the worker, no person involved."""
    host = make_user("host")
    table = tables.create_table(
        host, name="demo", players=4, options={"claim_window_seconds": 1, "turn_seconds": 30}
    )
    tables.leave_seat(table.pk, host)
    tables.fill_with_ai(table.pk, host, Seat.Policy.HEURISTIC)
    match = tables.start(table.pk, host, seed=11)
    assert wait_for(lambda: Move.objects.filter(match=match, seat__isnull=False).count() >= 6)
    moves = Move.objects.filter(match=match, seat__isnull=False)
    assert {m.action["type"] for m in moves} <= {"play", "pass", "hook", "unhook"}
    replayed = services.load_state(Match.objects.get(pk=match.pk))
    assert replayed.version == Move.objects.filter(match=match).count()
