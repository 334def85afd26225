"""Round reviews through a real Celery worker on the real Redis broker (issue 20): the review
worker takes its own queue, reviews a person's round once it ends, and a review lost with the
queue is made when the worker starts again (its sweep)."""

from __future__ import annotations

import time

import pytest
from amqp.exceptions import ChannelError
from django.db import connection
from kombu import Connection

from config import embedded_redis
from games.models import Match, RoundReview
from games.records import reviews
from tests import servers
from tests.games.drivers import first_round
from tests.servers import wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.live]


def play_first_round(make_user, prefix: str = "", seed: int = 414) -> Match:
    """Two people (ana, bo) and two AI seats: round 1 played to its end through the writer, the
    people sending their own moves (``drivers.first_round``)."""
    return first_round(make_user(f"ana{prefix}"), make_user(f"bo{prefix}"), seed=seed)


def queued(env: dict[str, str], queue: str) -> int:
    """Messages waiting in ``queue`` (an empty Redis queue has no key: 0)."""
    with Connection(embedded_redis.kombu_url(env["REDIS_URL"])) as broker:
        try:
            return broker.default_channel.queue_declare(queue=queue, passive=True).message_count
        except ChannelError:
            return 0


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


def test_the_main_and_ai_workers_leave_reviews_to_the_review_worker(make_user):
    """The site's main and AI workers (as in production: ``-X ai,review`` and ``-Q ai``) run
    while a round's review waits: neither takes it (so a review can never hold a deadline or an
    AI seat back); the review worker, once started, makes it."""
    from config import health
    from games.live import redis_store
    from games.play import wakeups

    env = servers.test_database_env(connection.settings_dict, GAMES_REVIEW_SAMPLES="6")
    match = play_first_round(make_user)
    redis_store.client().delete(health.heartbeat_key())
    workers = servers.start_workers(env)  # purges the queues first
    try:
        assert wait_for(lambda: health.check_worker() == "ok", 120), [w.poll() for w in workers]
        namespace = env.get("REDIS_NAMESPACE", "")
        wakeups.review_round(match.pk, 1)
        wakeups.rearm()  # a main-queue task sent after it: the main worker takes that one
        assert wait_for(lambda: queued(env, f"{namespace}celery") == 0, 60)
        assert wait_for(lambda: queued(env, f"{namespace}ai") == 0, 60)
        # The review, and the review sweeps the two workers sent as they started: all waiting.
        waiting = queued(env, f"{namespace}review")
        assert waiting >= 1
        time.sleep(3)
        assert queued(env, f"{namespace}review") == waiting
        assert not RoundReview.objects.filter(match=match).exists()
        workers.append(servers.start_worker(env, "review"))
        assert wait_for(lambda: RoundReview.objects.filter(match=match).count() == 2, 180)
    finally:
        servers.stop(*workers)
