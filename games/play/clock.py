"""The clock of running matches: one Redis sorted set of deadlines, rung by the worker.

A match has one running deadline (``Match.deadline``/``deadline_token``, DESIGN.md rule 3). Most
deadlines are superseded within a second by the next action, so scheduling a Celery ETA task for
each one made the worker receive, hold (until its ETA) and run a no-op transaction for almost
every move. Here a deadline is one member of a sorted set instead:

- ``arm(match_id, token, deadline)`` (services, after commit) writes the match's member with the
  deadline as its score and its token beside it, in one round trip. A later ``arm`` of the same
  match overwrites both, so a superseded timer costs that one write and nothing else.
- ``Clock`` (a thread in the Celery worker's main process, started and stopped by
  ``ClockStep``) pops the members that are due and sends ``tasks.expire(match_id, token)``, the
  task that applies a deadline after re-checking the token under the row lock. Several workers
  may each run a clock: the pop is one atomic script, so exactly one of them takes a member.
- Redis keeps nothing on disk here. Whenever a clock starts, and whenever it finds the set's
  marker key gone (Redis restarted or was flushed), it sends ``tasks.rearm``, which arms every
  running match's deadline from the database again. The beat sweep
  (``games.play.deadlines.sweep_overdue``) stays the safety net for anything still lost.

Keys carry ``REDIS_NAMESPACE`` and the database name, so sites and test runs that share one
Redis never ring each other's timers.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from datetime import datetime
from functools import cache
from typing import Any, cast

import redis
from celery import bootsteps
from celery.worker import WorkController
from django.conf import settings
from redis.commands.core import Script

from config import health
from games.live import redis_store
from games.models import Match
from games.play import wakeups

log = logging.getLogger(__name__)

#: How often an idle clock looks at the set (seconds). It sleeps less when the next deadline is
#: sooner, so a deadline rings at most this late plus one task delivery (claim windows: 1-5 s).
POLL_SECONDS = 0.05
#: Members taken per pop; a full batch is followed at once by another pop.
BATCH = 200
#: How long a clock waits after a Redis error before trying again (seconds).
RETRY_SECONDS = 1.0

# Only arms a token not older than the one stored: arms run after commit in several processes
# (Daphne threads, worker children), so the arm of token 5 can reach Redis after the arm of
# token 6 and must not put the older deadline back.
_ARM = """
local old = redis.call('HGET', KEYS[2], ARGV[1])
if old and tonumber(old) > tonumber(ARGV[3]) then
  return 0
end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
return 1
"""

# One script so that taking a member (its ZREM returning 1) and reading its token are one step:
# a second clock never sees the member, and an arm cannot slip in between the read and the
# removal (a plain ZRANGEBYSCORE then ZREM would delete a deadline re-armed in the gap). The
# marker key is recreated here; finding it missing means Redis lost the set.
_POP = """
local fresh = redis.call('SET', KEYS[3], '1', 'NX')
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[2])
local taken = {}
for _, member in ipairs(due) do
  if redis.call('ZREM', KEYS[1], member) == 1 then
    taken[#taken + 1] = member
    taken[#taken + 1] = redis.call('HGET', KEYS[2], member) or ''
    redis.call('HDEL', KEYS[2], member)
  end
end
local nxt = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return {fresh and 1 or 0, taken, nxt[2] or ''}
"""


def _redis() -> redis.Redis:
    return redis_store.client()


@cache
def _script(text: str) -> Script:
    # EVALSHA, the body sent again only after a NOSCRIPT (a restarted Redis forgets scripts).
    # Callers pass the client, so a script is never tied to the client it was first made with.
    return _redis().register_script(text)


def keys() -> tuple[str, str, str]:
    """The Redis keys of this site's clock: (deadlines sorted set, tokens hash, marker).

    The sorted set maps a match id to its deadline as a Unix timestamp (seconds); the hash maps
    the match id to the token of that deadline; the marker exists while Redis still holds them.
    """
    base = redis_store.key("timers")
    return f"{base}:due", f"{base}:tokens", f"{base}:alive"


def _timestamp(deadline: datetime) -> float:
    if deadline.tzinfo is None:
        raise ValueError("deadline must be an aware datetime")
    return deadline.timestamp()


def arm(match_id: int, token: int, deadline: datetime) -> None:
    """Set the match's one running timer: ``tasks.expire(match_id, token)`` at ``deadline``.

    Replaces any earlier timer of the match (unless that one carries a newer token), so the
    superseded deadline never rings. Call it after the commit that stored the deadline.

    Raises ValueError for a naive ``deadline``. A Redis error is logged, not raised: the move is
    already committed, and the beat sweep applies the deadline once it is overdue.
    """
    score = _timestamp(deadline)
    due, tokens, _ = keys()
    try:
        _script(_ARM)(keys=[due, tokens], args=[match_id, repr(score), token], client=_redis())
    except redis.RedisError:
        log.warning(
            "match %s: could not arm its timer; the sweep will catch it", match_id, exc_info=True
        )


def arm_many(timers: list[tuple[int, int, datetime]]) -> None:
    """``arm`` each ``(match_id, token, deadline)``, pipelined. Raises ValueError for a naive
    deadline and redis.RedisError when Redis cannot be reached (callers here can retry)."""
    due, tokens, _ = keys()
    pipe = _redis().pipeline(transaction=False)
    for match_id, token, deadline in timers:
        _script(_ARM)(
            keys=[due, tokens], args=[match_id, repr(_timestamp(deadline)), token], client=pipe
        )
    pipe.execute()


def rearm_from_db(chunk: int = 500) -> int:
    """Arm every running match's stored deadline again (after a worker start, a Redis restart).

    Overdue deadlines are armed too: the clock rings them at once. Returns how many were armed.
    Raises redis.RedisError if Redis cannot be reached (the task fails; the next clock start or
    Redis loss sends another).
    """
    running = Match.objects.filter(deadline__isnull=False, winner_team__isnull=True)
    armed = 0
    batch: list[tuple[int, int, datetime]] = []
    for row in running.values_list("pk", "deadline_token", "deadline").iterator(chunk):
        batch.append(cast(tuple[int, int, datetime], row))  # deadline__isnull=False, above
        if len(batch) >= chunk:
            arm_many(batch)
            armed, batch = armed + len(batch), []
    if batch:
        arm_many(batch)
        armed += len(batch)
    return armed


def pending() -> dict[int, tuple[int, float]]:
    """Every armed timer: ``{match_id: (token, deadline as a Unix timestamp)}`` (for tests and
    diagnostics; the clock does not use it). Raises redis.RedisError."""
    due, tokens, _ = keys()
    # redis-py types a reply as maybe awaitable; the sync client's is the value (bytes).
    scores = cast(list[tuple[bytes, float]], _redis().zrange(due, 0, -1, withscores=True))
    stored = cast(dict[bytes, bytes], _redis().hgetall(tokens))
    return {int(m): (int(stored.get(m, -1)), s) for m, s in scores}


class Clock:
    """Rings due deadlines: pops them from the set and calls ``fire(match_id, token)``.

    ``fire`` defaults to sending ``tasks.expire``, so the work runs in the worker's pool with its
    own database connection and one slow deadline never delays the others; the clock itself
    never touches the database. ``rearm``, called on the clock's first pop and whenever the set
    was lost, defaults to sending ``tasks.rearm``. ``poll_seconds`` is the longest sleep between
    two looks at the set; ``client`` a Redis client (default: the site's).
    """

    def __init__(
        self,
        fire: Callable[[int, int], object] = wakeups.expire,
        rearm: Callable[[], object] = wakeups.rearm,
        poll_seconds: float = POLL_SECONDS,
        client: redis.Redis | None = None,
    ) -> None:
        self.fire = fire
        self.rearm = rearm
        self.poll_seconds = poll_seconds
        self._client = client
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._needs_rearm = True
        self._failing = False
        self._scripts: dict[str, Script] = {}
        #: How many deadlines this clock rang (a figure for tests and the benchmark).
        self.fired = 0
        self._beaten = 0.0  # when this clock last wrote the worker heartbeat (Unix seconds)

    def _call(self, text: str, keys: list[str], args: list[str | int | float]) -> Any:
        if self._client is None:
            return _script(text)(keys=keys, args=args, client=_redis())
        if text not in self._scripts:
            self._scripts[text] = self._client.register_script(text)
        return self._scripts[text](keys=keys, args=args)

    def tick(self, now: float | None = None) -> float:
        """Pop and ring what is due at ``now`` (Unix seconds, default: the current time).

        Returns how long to sleep before the next tick (seconds). Raises redis.RedisError, or
        whatever ``fire``/``rearm`` raised; deadlines taken but not rung are armed again first,
        so the next tick rings them.
        """
        due, tokens, marker = keys()
        now = time.time() if now is None else now
        fresh, taken, next_score = self._call(_POP, [due, tokens, marker], [repr(now), BATCH])
        if fresh:
            # Redis lost the set (restart, flush): what was armed is only in the database now.
            self._needs_rearm = True
        rung = []
        pairs = [(int(taken[i]), taken[i + 1]) for i in range(0, len(taken), 2)]
        try:
            for match_id, token in pairs:
                if not token:
                    log.error("match %s: timer without a token; left to the sweep", match_id)
                    continue
                self.fire(match_id, int(token))
                rung.append(match_id)
                self.fired += 1
        except Exception:
            # Put back what was taken and not rung (a newer arm meanwhile wins).
            for match_id, token in pairs:
                if token and match_id not in rung:
                    self._call(_ARM, [due, tokens], [match_id, repr(now), token])
            raise
        if self._needs_rearm:
            self.rearm()
            self._needs_rearm = False
        if len(pairs) >= BATCH:
            return 0.0
        if not next_score:
            return self.poll_seconds
        return max(0.0, min(self.poll_seconds, float(next_score) - time.time()))

    def run(self) -> None:
        """Tick until ``stop()``, writing the worker heartbeat (``config.health.beat``) every
        ``HEARTBEAT_SECONDS`` while ticks succeed. An error is logged once per outage and retried
        every ``RETRY_SECONDS``."""
        while not self._stop.is_set():
            try:
                sleep = self.tick()
                if time.time() - self._beaten >= health.HEARTBEAT_SECONDS:
                    health.beat()  # /healthz: a worker rings deadlines and reaches Redis
                    self._beaten = time.time()
                if self._failing:
                    log.warning("timer clock: working again")
                    self._failing = False
            except Exception:
                if not self._failing:
                    log.exception("timer clock: cannot ring deadlines; retrying")
                    self._failing = True
                sleep = RETRY_SECONDS
            self._stop.wait(sleep)

    def start(self) -> None:
        """Run the clock in a daemon thread (daemon: a worker killed hard never hangs on it)."""
        self._stop.clear()
        self._thread = threading.Thread(target=self.run, name="timer-clock", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop the thread and wait for it (at most ``timeout`` seconds)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None


class ClockStep(bootsteps.StartStopStep):
    """Runs a ``Clock`` in the Celery worker's main process for the worker's lifetime.

    Added to the worker blueprint in ``config/celery.py``, so every ``celery worker`` that takes
    the default queue (including ``make run``'s) rings timers; nothing else needs deploying. It
    starts after the pool and an embedded beat (``-B``) have forked their first processes, so
    those are not forked beside the clock's thread (a child the pool replaces later is, as
    beside Celery's own threads: the thread holds no lock a child needs, and redis-py and kombu
    reset their pools after a fork).
    """

    requires = ("celery.worker.components:Pool", "celery.worker.components:Beat")

    def include_if(self, w: WorkController) -> bool:
        """Only in a worker that takes the default queue, where the clock's ``expire`` tasks go:
        the AI worker (``-Q <namespace>ai``) rings nothing, so its heartbeat cannot pass
        ``/healthz`` off as healthy while no worker would run the deadlines it rang."""
        return settings.CELERY_TASK_DEFAULT_QUEUE in w.app.amqp.queues.consume_from

    # celery-types says Step.create returns None; a StartStopStep's returns the object it
    # starts and stops (celery.bootsteps.StartStopStep.start calls self.obj.start()).
    def create(self, w: WorkController) -> Clock:  # type: ignore[override]
        return Clock()
