"""A "your turn" notice holds only while the turn is its player's (issue #18 §2): it goes when the
turn leaves their seat (here the clock decides for them) and when the match ends, through the real
writer and its after-commit push (``accounts.turns``), the queued task run eagerly in this thread
(``accounts.tasks.turn_notices_gone``)."""

from __future__ import annotations

import contextlib
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts import notices
from games.engine.deal import start_round
from games.models import Match, Seat
from games.play import deadlines, services, tables
from leagues.models import Notice
from tests.games.conftest import FINISH_QUICK, finished_table, install_state, people_of

# The eager task gives its connection back: no test transaction around it.
pytestmark = pytest.mark.django_db(transaction=True)


@contextlib.contextmanager
def eager_tasks():
    """Celery runs a queued task in this thread (the real task code, no worker needed)."""
    from config.celery import app

    app.conf.task_always_eager = True
    try:
        yield
    finally:
        app.conf.task_always_eager = False


def act(match: Match, user, **payload) -> None:
    version = Match.objects.get(pk=match.pk).version
    assert services.submit(match.pk, user, {"version": version, **payload}).ok


def turn_notices(user) -> int:
    return Notice.objects.filter(user=user, kind=Notice.Kind.YOUR_TURN).count()


def test_the_notice_goes_when_the_turn_leaves_an_absent_player(make_table):
    table = make_table(["ana", "bo", None, None], {"claim_window_seconds": 0})
    match = tables.start(table.pk, table.host, seed=1)
    hands = [("3S", "9H"), ("9D", "5H"), ("JS", "JH"), ("4C", "4D")]
    install_state(match, start_round(table.engine_options(), hands, 2, leader=0, seed=1))
    people = people_of(table)
    bo = people[1]
    with eager_tasks():
        act(match, people[0], action="play", cards=["3S"])  # the turn reaches bo, away
        assert turn_notices(bo) == 1
        Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - timedelta(seconds=1))
        match = Match.objects.get(pk=match.pk)
        assert deadlines.expire(match.pk, match.deadline_token)  # the clock decides for bo
    assert services.load_state(Match.objects.get(pk=match.pk)).turn != 1
    assert turn_notices(bo) == 0


def test_every_turn_notice_of_the_table_goes_when_the_match_ends():
    """Team 1 wins the match in one trick (as the ``bomb_to_win`` fixture plays it); bo and di
    had turn notices from earlier."""
    table = finished_table(["ana", "bo", "cy", "di"], FINISH_QUICK)
    match = tables.start(table.pk, table.host, seed=11)
    hands = [("5S", "5H", "5D"), ("3D", "4D"), ("JH",), ("3C", "QC")]
    state = start_round(table.engine_options(), hands, 3, (3, 2), leader=2, seed=11)
    install_state(match, state)
    Match.objects.filter(pk=match.pk).update(level_team0=3)
    match.rounds.update(level=3, levels_before=[3, 2])
    people = people_of(table)
    for number in (1, 3):
        notices.your_turn(table, people[number])
    act(match, people[2], action="play", cards=["JH"])
    act(match, people[3], action="play", cards=["QC"])
    assert turn_notices(people[1]) == 1
    with eager_tasks():
        act(match, people[0], action="play", cards=["5S", "5H", "5D"])
    assert Match.objects.get(pk=match.pk).winner_team == 0
    assert not Notice.objects.filter(kind=Notice.Kind.YOUR_TURN).exists()
    assert Seat.objects.filter(table=table).count() == 4
