"""A Daphne process's sockets kept present together (issue 19): a heartbeat that changes nothing
costs no thread and no Redis command; one pipeline per interval renews every socket of the
process, with the old expiry; a closed socket is gone at once; a process that dies stops
renewing, so its sockets lapse (a real Daphne, killed)."""

from __future__ import annotations

import asyncio
import json
import signal
import threading
import time
from collections.abc import Awaitable, Callable, Iterator

import pytest
import redis.asyncio
import redis.client
from asgiref.sync import sync_to_async
from django.db import connection, connections
from websockets.sync.client import connect as ws_connect

from accounts import presence
from games.live import audiences, notify, redis_store, spectating
from games.play import tables
from games.sockets import pool, renewals
from games.sockets.renewals import Renewals
from tests import servers
from tests.games.live.test_spectating import shown_count
from tests.games.sockets.settle import settled
from tests.games.sockets.test_consumers import connect, frame, is_spectator_count, setup_match

HEARTBEAT = json.dumps({"heartbeat": 1, "version": 0})


@pytest.fixture(autouse=True)
async def _close_db_connections():
    yield
    await sync_to_async(connections.close_all)()


class Calls:
    """Counts, without changing them, the sync Redis client's commands and pipelines, the
    asyncio client's pipelines, and the jobs given to the sockets' thread pool."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.sync_redis = self.async_pipelines = self.pool_jobs = 0
        for cls, name, counter in (
            (redis.client.Redis, "execute_command", "sync_redis"),
            (redis.client.Pipeline, "execute", "sync_redis"),
            (redis.asyncio.client.Pipeline, "execute", "async_pipelines"),
        ):
            monkeypatch.setattr(cls, name, self._counting(getattr(cls, name), counter))
        original_submit = pool.WRITER_POOL.submit

        def submit(*args, **kwargs):
            self.pool_jobs += 1
            return original_submit(*args, **kwargs)

        monkeypatch.setattr(pool.WRITER_POOL, "submit", submit)

    def _counting(self, method, counter: str):
        calls = self

        def counted(*args, **kwargs):
            setattr(calls, counter, getattr(calls, counter) + 1)
            return method(*args, **kwargs)

        return counted


def scores(key: str) -> dict[bytes, float]:
    return dict(redis_store.client().zrange(key, 0, -1, withscores=True))


def forget(table_id: int, *user_ids: int) -> None:
    """Delete the presence keys an earlier run left for these ids (test databases repeat them)."""
    redis_store.client().delete(
        audiences.registry_key(table_id),
        spectating.sockets_key(table_id),
        spectating.people_key(table_id),
        *(presence.where_key(user_id) for user_id in user_ids),
    )


def push_back(key: str, seconds: float) -> None:
    """Move every entry of ``key`` ``seconds`` closer to its expiry (as if not renewed)."""
    client = redis_store.client()
    client.zadd(key, {member: score - seconds for member, score in scores(key).items()})


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_heartbeat_costs_no_thread_and_no_redis_command(make_user, monkeypatch):
    """Heartbeats from seats and spectators, signed in or not: nothing leaves the event loop."""
    monkeypatch.setattr(renewals, "INTERVAL_SECONDS", 3600)  # no renewal falls in the window
    match, users = await sync_to_async(setup_match)(make_user)
    await sync_to_async(forget)(match.table_id, *(user.pk for user in users.values()))
    sockets = [
        await connect(match.table_id, users["ana"]),
        await connect(match.table_id, users["bo"]),
        await connect(match.table_id, users["watcher"]),
        await connect(match.table_id),
    ]
    for ws in sockets:
        await frame(ws)
    # The spectator count refreshes of the connects pushed and received, and nothing but
    # counts came (settle.settled: a barrier, not a quiet second).
    got = await settled(match.table_id, sockets)
    assert all(is_spectator_count(text) for texts in got for text in texts)
    calls = Calls(monkeypatch)
    for _ in range(3):
        for ws in sockets:
            await ws.send_to(HEARTBEAT)
    assert all(await asyncio.gather(*(ws.receive_nothing(timeout=0.2) for ws in sockets)))
    assert (calls.sync_redis, calls.async_pipelines, calls.pool_jobs) == (0, 0, 0)
    for ws in sockets:
        await ws.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_one_pipeline_renews_every_socket_of_the_process(make_user, monkeypatch):
    """Two seats and three spectators (two people) at one table: their audiences, places,
    people and "at table" entries, pushed 20 s toward expiry, come back in one pipeline, and
    each ends at the last heartbeat plus its TTL, as a heartbeat used to write it."""
    monkeypatch.setattr(renewals, "INTERVAL_SECONDS", 3600)  # the test's flush is the only one
    match, users = await sync_to_async(setup_match)(make_user)
    await sync_to_async(forget)(match.table_id, *(user.pk for user in users.values()))
    table = match.table_id
    seats = [await connect(table, users["ana"]), await connect(table, users["bo"])]
    watchers = [await connect(table, users["watcher"]) for _ in range(2)] + [await connect(table)]
    for ws in (*seats, *watchers):
        await frame(ws)
    keys = [
        audiences.registry_key(table),
        spectating.sockets_key(table),
        spectating.people_key(table),
        presence.where_key(users["ana"].pk),
        presence.where_key(users["bo"].pk),
    ]
    before = {key: await sync_to_async(scores)(key) for key in keys}
    assert [len(before[key]) for key in keys] == [3, 3, 2, 1, 1]  # s0, s1, w audiences
    # The spectator count refreshes of the connects pushed and received (settle.settled).
    got = await settled(table, [*seats, *watchers])
    assert all(is_spectator_count(text) for texts in got for text in texts)
    for key in keys:
        await sync_to_async(push_back)(key, 20)
    calls = Calls(monkeypatch)
    heard = time.time()
    for ws in (*seats, *watchers):
        await ws.send_to(HEARTBEAT)
        assert await ws.receive_nothing(timeout=0.05)
    assert await Renewals.current().flush() == 5
    assert (calls.async_pipelines, calls.sync_redis, calls.pool_jobs) == (1, 0, 0)
    ttl = {keys[0]: audiences.TTL_SECONDS}
    for key in keys:
        after = await sync_to_async(scores)(key)
        assert after.keys() == before[key].keys()
        for score in after.values():
            expected = heard + ttl.get(key, spectating.TTL_SECONDS)
            assert expected - 1 < score < expected + 1
    assert await sync_to_async(spectating.count)(table) == 2
    for ws in (*seats, *watchers):
        await ws.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_slow_count_refresh_is_not_overtaken_by_the_next(make_user, monkeypatch):
    """One table's count refreshes send in order: one scheduled while the one before still
    sends (its send held up here, as a busy box holds it) sends after it, so the pages end on
    the newer count, not the older one sent last."""
    monkeypatch.setattr(renewals, "COUNT_REFRESH_SECONDS", 0.05)  # (not the subject here)
    send_many, held = notify.send_many, threading.Event()

    def first_count_held(messages) -> None:
        messages = list(messages)
        if messages[0][1]["type"] == "spectators.count" and not held.is_set():
            held.set()
            time.sleep(0.5)  # the first count's send, late
        send_many(messages)

    monkeypatch.setattr(notify, "send_many", first_count_held)
    match, users = await sync_to_async(setup_match)(make_user)
    table = match.table_id
    ana = await connect(table, users["ana"])
    await frame(ana)
    watcher = await connect(table, users["watcher"])  # a refresh: one watching
    await frame(watcher)
    while not held.is_set():  # that refresh read its count (1) and is sending it
        await asyncio.sleep(0.01)
    other = await connect(table)  # the next refresh: two watching
    await frame(other)
    got = await settled(table, [ana, watcher, other])
    counts = [shown_count(text) for text in got[0] if is_spectator_count(text)]
    assert counts == [1, 2]
    for ws in (ana, watcher, other):
        await ws.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_silent_page_lapses_and_a_closed_socket_is_gone_at_once(make_user):
    """A socket whose page stopped sending heartbeats is not renewed (it lapses as before); a
    socket that closes leaves the count at once and no renewal brings it back."""
    match, users = await sync_to_async(setup_match)(make_user)
    await sync_to_async(forget)(match.table_id, *(user.pk for user in users.values()))
    table = match.table_id
    silent, closing = await connect(table), await connect(table, users["watcher"])
    for ws in (silent, closing):
        await frame(ws)
    assert await sync_to_async(spectating.count)(table) == 2
    renewals_now = Renewals.current()
    (consumer,) = [s for s in renewals_now.sockets if s.user_id is None]
    consumer.heard_at -= spectating.TTL_SECONDS + 1  # its last heartbeat is past the TTL
    await closing.disconnect()
    assert await sync_to_async(spectating.count)(table) == 1
    members = await sync_to_async(scores)(spectating.sockets_key(table))
    assert len(members) == 1  # the closed socket's place went with it
    soon = {member: time.time() + 2 for member in members}
    await sync_to_async(redis_store.client().zadd)(spectating.sockets_key(table), soon)
    assert await renewals_now.flush() == 1  # the silent page's audience only (45 s TTL)
    assert await sync_to_async(scores)(spectating.sockets_key(table)) == soon
    await silent.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_renewal_runs_by_itself_while_sockets_are_open(make_user, monkeypatch):
    """No heartbeat needed for the first TTL: the process's task renews on its own clock, and
    ends when the last socket closes."""
    monkeypatch.setattr(renewals, "INTERVAL_SECONDS", 0.2)
    match, users = await sync_to_async(setup_match)(make_user)
    await sync_to_async(forget)(match.table_id, *(user.pk for user in users.values()))
    watcher = await connect(match.table_id)
    await frame(watcher)
    key = spectating.sockets_key(match.table_id)
    await sync_to_async(push_back)(key, 25)
    ((first,),) = [list((await sync_to_async(scores)(key)).values())]

    async def renewed() -> bool:
        ((score,),) = [list((await sync_to_async(scores)(key)).values())]
        return score > first + 20

    # Polled, not slept on: it ends as soon as a renewal came (a few intervals on a quiet box)
    # and waits up to 30 s on a busy one; only a renewal that never comes fails it.
    assert await eventually(renewed)
    task = Renewals.current().task
    assert task is not None
    await watcher.disconnect()

    async def ended() -> bool:
        return task.done()

    assert await eventually(ended)


async def eventually(check: Callable[[], Awaitable[bool]], seconds: float = 30) -> bool:
    """Whether ``check`` comes true within ``seconds`` (asked every 50 ms)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while not await check():
        if loop.time() > deadline:
            return False
        await asyncio.sleep(0.05)
    return True


# --- a real Daphne process: its sockets lapse when it dies ---------------------------------------


@pytest.fixture
def daphne(django_db_setup, django_db_blocker, tmp_path) -> Iterator[tuple[int, object]]:
    with django_db_blocker.unblock():
        db = connection.settings_dict
    port = servers.free_port()
    with (tmp_path / "daphne.log").open("wb") as out:
        proc = servers.start_daphne(port, servers.test_database_env(db), out)
    try:
        servers.wait_http(f"http://127.0.0.1:{port}/rules/", proc)
        yield port, proc
    finally:
        servers.stop(proc)


@pytest.mark.django_db(transaction=True)
def test_a_daphne_process_renews_its_sockets_until_it_dies(daphne, make_user):
    """A spectator on a real Daphne, silent after its connect: its entry pushed to within 3 s
    of expiry is renewed by the process within one interval; once the process is killed
    (no goodbye) nothing renews it and it lapses."""
    port, proc = daphne
    table = tables.create_table(make_user("host"), name="t", players=4, options={})
    key = spectating.sockets_key(table.pk)
    forget(table.pk)
    url = f"ws://127.0.0.1:{port}/ws/table/{table.pk}/"
    with ws_connect(url, origin="http://localhost", open_timeout=30) as socket:
        socket.recv(timeout=30)
        (score,) = scores(key).values()
        redis_store.client().zadd(key, {m: time.time() + 3 for m in scores(key)})
        time.sleep(renewals.INTERVAL_SECONDS + 1)
        (renewed,) = scores(key).values()
        assert renewed == pytest.approx(score, abs=1)  # heard at its connect, + TTL again
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        for each in (key, spectating.people_key(table.pk)):
            redis_store.client().zadd(each, {m: time.time() + 1 for m in scores(each)})
        time.sleep(renewals.INTERVAL_SECONDS + 1)
        assert spectating.count(table.pk) == 0
        assert all(s < time.time() for s in scores(key).values())
