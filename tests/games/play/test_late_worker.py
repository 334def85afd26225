"""Late hooks against the real clock, with the site's workers running and with none (issue 17
item 1): the worker's timer and the writer race for a claim window just past its deadline.

Each try opens a real claim window (a person's 9H, ``CLAIM_SECONDS`` long, armed in the clock's
Redis set after commit), waits on the real clock until just after its deadline, and sends a
person's hook. Whoever gets the row first closes the window: the writer, refusing the hook
``late``, or the worker's timer, and then the hook is refused ``no_window`` (the window it
answers is gone). Either way the hook is refused and the window closes exactly once — checked
after the timers have had a second to ring late. The figures (who closed, how long after the
deadline) are printed for docs/RELIABILITY.md (``pytest -s``).
"""

from __future__ import annotations

import queue
import random
import statistics
import threading
import time
from dataclasses import dataclass
from datetime import datetime

import pytest
from django.db import connection
from django.utils import timezone

from games.engine.deal import start_round
from games.models import Match, Move
from games.play import services, tables
from tests.games.conftest import install_state

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.live]

#: Seat 0's 9H opens a window; seat 1 holds the 9D 9C to hook it.
HANDS = [("9H", "3C"), ("9D", "9C"), ("5H", "6C"), ("7S", "8C")]
TRIES = 100
CLAIM_SECONDS = 1
#: How far after the deadline a hook is sent (seconds): just after it.
LATEST_OFFSET = 0.02


@dataclass(frozen=True)
class Try:
    match_id: int
    deadline: datetime
    sent: datetime  # when the hook was handed to the writer
    code: str  # the refusal code ("" when it was taken)


def open_window(people: list) -> Match:
    """A fresh table of ``people`` with seat 0's 9H just played: a claim window of
    ``CLAIM_SECONDS`` open at version 1."""
    table = tables.create_table(
        people[0],
        name="late",
        players=4,
        options={"claim_window_seconds": CLAIM_SECONDS, "turn_seconds": 120},
    )
    for number in (1, 2, 3):
        tables.take_seat(table.pk, people[number], number)
    match = tables.start(table.pk, people[0], seed=3)
    install_state(match, start_round(table.engine_options(), HANDS, 2, leader=0))
    play = {"action": "play", "cards": ["9H"], "version": 0}
    assert services.submit(match.pk, people[0], play).ok
    return Match.objects.get(pk=match.pk)


def hook_late(people: list, rng: random.Random) -> list[Try]:
    """``TRIES`` windows, each hooked by seat 1 0–``LATEST_OFFSET`` s after its deadline: a
    thread opens the windows one after another while this one sends each hook, so the test
    lasts about ``TRIES`` openings (their deadlines come in the order they opened)."""
    opened: queue.Queue[Match | BaseException] = queue.Queue()

    def open_all() -> None:
        try:
            for _ in range(TRIES):
                opened.put(open_window(people))
        except BaseException as e:  # the hooks' side fails with it instead of waiting
            opened.put(e)
        finally:
            connection.close()

    opener = threading.Thread(target=open_all, name="open-windows")
    opener.start()
    tries: list[Try] = []
    try:
        while len(tries) < TRIES:
            window = opened.get(timeout=120)
            if isinstance(window, BaseException):
                raise window
            assert window.deadline is not None
            wait = (window.deadline - timezone.now()).total_seconds()
            time.sleep(max(0.0, wait + rng.uniform(0, LATEST_OFFSET)))
            sent = timezone.now()
            hook = {"action": "hook", "cards": ["9D", "9C"], "version": 1}
            result = services.submit(window.pk, people[1], hook)
            tries.append(Try(window.pk, window.deadline, sent, result.code))
    finally:
        opener.join()
    return tries


def ms(seconds: list[float]) -> str:
    if not seconds:
        return "-"
    values = sorted(1000 * s for s in seconds)
    return f"{values[0]:.1f} / {statistics.median(values):.1f} / {values[-1]:.1f} ms"


@pytest.mark.parametrize("workers", ["running", "none"])
def test_a_hundred_late_hooks_are_refused_and_each_window_closes_once(
    workers, request, make_user, settings
):
    """100/100 hooks sent just after their window's deadline are refused, with the main and AI
    workers running (the timer races the writer) and with no worker at all (the writer alone
    closes each window); every window closes exactly once, as a ``timeout``, and no hook is
    stored, also after the timers rang late."""
    settings.GAMES_MAX_HOSTED_TABLES = TRIES  # ana hosts every table here
    if workers == "running":
        request.getfixturevalue("worker")
    people = [make_user(name) for name in ("ana", "bo", "cy", "di")]
    tries = hook_late(people, random.Random(17))
    time.sleep(1.0)  # the late timers ring now, if they ring at all
    moves = {
        t.match_id: list(Move.objects.filter(match_id=t.match_id, seq__gt=1).order_by("seq"))
        for t in tries
    }
    by_writer = [t for t in tries if t.code == "late"]
    # The timer closed the window first: the hook then answers no window (``no_window``).
    by_clock = [t for t in tries if t.code and t.code != "late"]

    def closed_after(t: Try) -> float:
        return (moves[t.match_id][0].created_at - t.deadline).total_seconds()

    print(
        f"\nlate hooks, workers {workers}: {len(tries)} sent "
        f"{ms([(t.sent - t.deadline).total_seconds() for t in tries])} (min/median/max) after "
        f"the deadline; refused {len(by_writer) + len(by_clock)}/{len(tries)}: "
        f"{len(by_writer)} 'late' (the writer closed the window "
        f"{ms([closed_after(t) for t in by_writer])} after its deadline), "
        f"{len(by_clock)} {sorted({t.code for t in by_clock})} (the worker's timer had closed it "
        f"{ms([closed_after(t) for t in by_clock])} after); windows closed more than once: "
        f"{sum(len(m) != 1 for m in moves.values())}"
    )
    assert [t.code for t in tries if t.code not in ("late", "no_window")] == []
    assert len(by_writer) + len(by_clock) == TRIES
    for t in tries:
        [closed] = moves[t.match_id]
        assert (closed.seq, closed.seat, closed.action) == (2, None, {"type": "timeout"})
    if workers == "none":
        assert len(by_writer) == TRIES
