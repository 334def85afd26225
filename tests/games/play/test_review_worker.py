"""Round reviews through a real Celery worker on the real Redis broker (issue 20): the review
worker takes its own queue, reviews a person's round once it ends, and a review lost with the
queue is made when the worker starts again (its sweep)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone
from kombu import Connection

from config import embedded_redis
from games.engine.rules import seats_to_act
from games.models import Match, Round, RoundReview
from games.play import deadlines, services, stewarding
from games.records import reviews
from tests import servers
from tests.games.drivers import act_now
from tests.servers import wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.live]


def play_first_round(make_user) -> Match:
    """A table of two people (ana at seat 0, bo at seat 2, their seats played by the heuristic)
    and two AI seats; its first round played to its end in this process, through the writer
    (so its end asks for the review, as in production)."""
    ana, bo = make_user("ana"), make_user("bo")
    table = stewarding.open_table(
        ana,
        name="review table",
        options={"claim_window_seconds": 1},
        seats=[(ana, "heuristic"), (None, "heuristic"), (bo, "heuristic"), (None, "heuristic")],
        start=True,
        seed=414,
    )
    match_id = Match.objects.get(table=table).pk
    for _ in range(5000):
        if Round.objects.filter(match_id=match_id, number=1, ended_at__isnull=False).exists():
            return Match.objects.get(pk=match_id)
        match = Match.objects.get(pk=match_id)
        due = seats_to_act(services.load_state(match))[:1]
        if not any(act_now(match_id, seat, match.deadline_token) for seat in due):
            Match.objects.filter(pk=match_id).update(deadline=timezone.now() - timedelta(seconds=1))
            assert deadlines.expire(match_id, match.deadline_token), match.phase
    raise AssertionError("round 1 did not end")


def queued(env: dict[str, str], queue: str) -> int:
    with Connection(embedded_redis.kombu_url(env["REDIS_URL"])) as broker:
        return broker.default_channel.queue_declare(queue=queue, passive=True).message_count


def test_the_review_worker_reviews_a_finished_round_once(make_user):
    env = servers.test_database_env(connection.settings_dict, GAMES_REVIEW_SAMPLES="6")
    servers.purge_queues(env)
    worker = servers.start_worker(env, "review")
    try:
        match = play_first_round(make_user)
        assert wait_for(lambda: RoundReview.objects.filter(match=match).count() == 2, 180), (
            worker.poll()
        )
        made = RoundReview.objects.filter(match=match)
        assert sorted(made.values_list("seat", "user__username")) == [(0, "ana"), (2, "bo")]
        assert all(r.round_no == 1 and r.samples == 6 and r.data["decisions"] for r in made)
        assert reviews.make(match.pk, 1) == 0  # never a second one
        assert made.count() == 2
    finally:
        servers.stop(worker)


def test_a_review_lost_with_the_queue_is_made_when_the_worker_starts(make_user):
    env = servers.test_database_env(connection.settings_dict, GAMES_REVIEW_SAMPLES="6")
    servers.purge_queues(env)
    match = play_first_round(make_user)
    namespace = env.get("REDIS_NAMESPACE", "")
    assert queued(env, f"{namespace}review") == 1  # the round's review, on its own queue
    servers.purge_queues(env)  # lost (a broker restart)
    assert not RoundReview.objects.filter(match=match).exists()
    worker = servers.start_worker(env, "review")
    try:
        # Its start-up sweep finds the round without its reviews.
        assert wait_for(lambda: RoundReview.objects.filter(match=match).count() == 2, 180), (
            worker.poll()
        )
    finally:
        servers.stop(worker)
