"""Round reviews through a real Celery worker on the real Redis broker (issue 20): the review
worker takes its own queue, reviews a person's round once it ends, and a review lost with the
queue is made when the worker starts again (its sweep)."""

from __future__ import annotations

import os
import signal
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


def review_env(**extra: str) -> dict[str, str]:
    """The child processes' environment for this module's tests: 6 sampled deals a decision
    (what a review holds is tests/games/engine/review/; here, which worker makes it and when),
    and the review worker at the normal CPU policy. Its SCHED_IDLE policy is asserted in
    ``test_the_review_worker_reviews_a_finished_round_once`` alone: elsewhere it would make a
    test wait for the rest of a parallel suite to leave a core free (seen: 3 min instead of 1)."""
    return servers.test_database_env(
        connection.settings_dict,
        **{"GAMES_REVIEW_SAMPLES": "6", "GAMES_REVIEW_IDLE_CPU": "0", **extra},
    )


def queued(env: dict[str, str], queue: str) -> int:
    """Messages waiting in ``queue`` (an empty Redis queue has no key: 0)."""
    with Connection(embedded_redis.kombu_url(env["REDIS_URL"])) as broker:
        try:
            return broker.default_channel.queue_declare(queue=queue, passive=True).message_count
        except ChannelError:
            return 0


def normal_policy(pid: int) -> None:
    """Put every thread of process ``pid`` back under the normal CPU policy (SCHED_OTHER)."""
    for task in os.listdir(f"/proc/{pid}/task"):
        os.sched_setscheduler(int(task), os.SCHED_OTHER, os.sched_param(0))
    assert os.sched_getscheduler(pid) == os.SCHED_OTHER


def test_the_review_worker_reviews_a_finished_round_once(make_user):
    env = servers.test_database_env(connection.settings_dict, GAMES_REVIEW_SAMPLES="6")
    servers.purge_queues(env)
    worker = servers.start_worker(env, "review")
    try:
        # It takes the CPU no other process wants (config.celery: SCHED_IDLE), nothing more.
        assert wait_for(lambda: os.sched_getscheduler(worker.pid) == os.SCHED_IDLE, 120)
        # Then back to the normal policy: what follows (which reviews it makes, once) does not
        # depend on the policy, and under it this test would wait for the rest of a parallel
        # suite to leave a core free (the module's 115 s under `make test`, 9 s alone).
        normal_policy(worker.pid)
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
    env = review_env()
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

    env = review_env()
    match = play_first_round(make_user)
    redis_store.client().delete(health.heartbeat_key())
    workers = servers.start_workers(env)  # purges the queues first
    try:
        assert wait_for(lambda: health.check_worker() == "ok", 120), [w.poll() for w in workers]
        assert all(os.sched_getscheduler(w.pid) == os.SCHED_OTHER for w in workers)
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


def test_ai_seats_and_timers_keep_their_pace_while_the_review_queue_is_full(
    make_user, make_table, settings
):
    """The site's three workers as in production (main, AI, review: prefork, the review one a
    single process). Two finished rounds' reviews are queued, each sent six times over (real
    review tasks: the first of each reviews, the rest find it made); the review worker takes
    one and is held there (SIGSTOP: a review as long as it may be, the rest of the queue
    waiting behind it). Meanwhile an all-AI table's seats play on, through the AI worker, and a
    people's 1-second claim window closes on its deadline, through the main worker: neither
    waits behind a review. Let go, the review worker makes each review once. Nothing here
    depends on the machine's speed: the assertions are about which queue waits."""
    from config import health
    from games.live import redis_store
    from games.models import Move, Seat
    from games.play import tables, wakeups
    from tests.games.play.test_worker import open_window, signal_tree

    env = review_env(GAMES_AI_DELAY_SECONDS="0.1")
    settings.GAMES_AI_DELAY_SECONDS = 0.1
    namespace = env.get("REDIS_NAMESPACE", "")
    servers.purge_queues(env)
    rounds = [play_first_round(make_user, str(n), seed=414 + n) for n in range(2)]
    for match in rounds:
        for _ in range(5):
            wakeups.review_round(match.pk, 1)
    assert queued(env, f"{namespace}review") == 12
    redis_store.client().delete(health.heartbeat_key())
    review = servers.start_worker(env, "review", pool="prefork", concurrency=1)
    workers = [review]
    try:
        assert wait_for(lambda: queued(env, f"{namespace}review") < 12, 120), review.poll()
        signal_tree(review, signal.SIGSTOP)  # busy with a review for as long as it takes
        made = RoundReview.objects.count()
        waiting = queued(env, f"{namespace}review")
        assert waiting > 0, waiting
        workers += [
            servers.start_worker(env, q, pool="prefork", concurrency=2) for q in ("main", "ai")
        ]
        assert wait_for(lambda: health.check_worker() == "ok", 120), [w.poll() for w in workers]
        # An all-AI table plays on through the AI worker.
        host = make_user("host")
        table = tables.create_table(
            host, name="ai", players=4, options={"claim_window_seconds": 1, "turn_seconds": 30}
        )
        # AI seats before the host stands up: a table left with every seat empty closes.
        tables.fill_with_ai(table.pk, host, Seat.Policy.HEURISTIC)
        tables.leave_seat(table.pk, host)
        tables.fill_with_ai(table.pk, host, Seat.Policy.HEURISTIC)
        ai_match = tables.start(table.pk, host, seed=11)
        ai_moves = Move.objects.filter(match=ai_match, seat__isnull=False)
        assert wait_for(lambda: ai_moves.count() >= 12, 120), [w.poll() for w in workers]
        # A people's claim window closes on its deadline through the main worker.
        people = make_table(["ana9", "bo9", "cy9", "di9"], {"claim_window_seconds": 1})
        window = open_window(people)
        sent = time.monotonic()
        assert wait_for(lambda: Match.objects.get(pk=window.pk).phase != "window", 60)
        assert time.monotonic() - sent >= 0.95  # on its deadline, not before
        last = Move.objects.filter(match=window).order_by("-seq").first()
        assert last.seat is None and last.action == {"type": "timeout"}
        # All that while the reviews waited: the queue as it was (the main worker's start-up
        # sweep added its own), nothing reviewed.
        assert queued(env, f"{namespace}review") >= waiting
        assert RoundReview.objects.count() == made
        signal_tree(review, signal.SIGCONT)
        for match in rounds:
            assert wait_for(
                lambda m=match: RoundReview.objects.filter(match=m).count() == 2, 300
            ), review.poll()
        assert wait_for(lambda: queued(env, f"{namespace}review") == 0, 120)
        assert RoundReview.objects.filter(match__in=rounds).count() == 4  # each once
    finally:
        for proc in workers:
            signal_tree(proc, signal.SIGCONT)
        servers.stop(*workers)


def _blocked_inserts() -> int:
    """Sessions waiting on a lock to insert a review (the review worker, held mid-task)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
            "AND query LIKE 'INSERT INTO \"games_roundreview\"%%'"
        )
        return cursor.fetchone()[0]


def test_a_review_cut_short_by_a_killed_worker_is_made_once_when_it_starts_again(make_user):
    """The review worker takes a round's review and, with the review made but not yet stored
    (its insert waits on a lock this test holds: mid-task, whatever the machine's speed), is
    killed (SIGKILL, as an out-of-memory kill would). Nothing was stored, and Celery does not
    run the task again (acknowledged as it started: ``acks_late`` is off). Started again, the
    worker's start-up sweep makes the round's reviews, once."""
    from django.db import connections

    from tests.games.play.test_worker import signal_tree

    env = review_env()
    servers.purge_queues(env)
    match = play_first_round(make_user)
    locker = connections.create_connection("default")
    locker.set_autocommit(False)
    worker = None
    try:
        with locker.cursor() as cursor:
            cursor.execute('LOCK TABLE "games_roundreview" IN EXCLUSIVE MODE')  # reads go on
        worker = servers.start_worker(env, "review", pool="prefork", concurrency=1)
        assert wait_for(lambda: _blocked_inserts() >= 1, 180), worker.poll()
        signal_tree(worker, signal.SIGKILL)
        worker.wait(30)
        # Its database session goes with it (PostgreSQL would see the client gone only once
        # the lock is free, and then finish the insert: ended here, as a dead client's is).
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE "
                "wait_event_type = 'Lock' AND query LIKE 'INSERT INTO \"games_roundreview\"%%'"
            )
        assert wait_for(lambda: _blocked_inserts() == 0, 30)
    finally:
        locker.rollback()
        locker.close()
        if worker is not None and worker.poll() is None:
            servers.stop(worker)
    assert not RoundReview.objects.filter(match=match).exists()
    worker = servers.start_worker(env, "review")
    try:
        assert wait_for(lambda: RoundReview.objects.filter(match=match).count() == 2, 180), (
            worker.poll()
        )
        assert reviews.make(match.pk, 1) == 0  # never a second one
        assert RoundReview.objects.filter(match=match).count() == 2
    finally:
        servers.stop(worker)
