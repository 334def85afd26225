"""Oversized messages against a real Daphne process: a clean 1009 close, no error logged
(issue #9, item 8).

``config.asgi`` has Daphne's WebSocket protocol refuse a message over 4 KB from its frame header
with a 1009 close frame (``config.daphne_frames.close_cleanly_in_daphne``): before, a message over
Daphne's 1 MB limit dropped the connection (1006) while the consumer, still rendering its first
frame, logged "Exception inside application: Attempt to send on a closed protocol", and a
smaller one reached the consumer. Sent just after the connect, neither may log an exception.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.db import connection
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from games.models import Seat
from games.play import tables
from tests import servers
from tests.games.sockets.test_consumers import cookie_for

ROOT = Path(__file__).resolve().parents[3]
#: The module's tests go to one xdist worker, which starts its Daphne once (a module fixture).
pytestmark = pytest.mark.xdist_group("socket-daphne")


@pytest.fixture(scope="module")
def daphne(django_db_setup, django_db_blocker, tmp_path_factory) -> Iterator[tuple[int, Path]]:
    """A Daphne process serving the app on the test database: (port, its log file)."""
    with django_db_blocker.unblock():
        db = connection.settings_dict
    env = servers.test_database_env(db)
    port = servers.free_port()
    log = tmp_path_factory.mktemp("daphne") / "daphne.log"
    with log.open("wb") as out:
        proc = servers.start_daphne(port, env, out)
    try:
        try:
            servers.wait_http(f"http://127.0.0.1:{port}/rules/", proc)
        except RuntimeError as error:
            raise AssertionError(log.read_text()) from error
        yield port, log
    finally:
        servers.stop(proc)


def close_code_after_sending(url: str, message: str) -> int | None:
    """Connect, send ``message`` at once, read until the server closes: its close code."""
    with connect(
        url, origin="http://localhost", max_size=None, open_timeout=10, close_timeout=10
    ) as ws:
        ws.send(message)
        try:
            while True:
                ws.recv(timeout=10)
        except ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd is not None else None
    return None


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("size", [8 * 1024, 2 * 1024 * 1024])
@pytest.mark.parametrize("where", ["table", "lobby"])
def test_an_oversized_message_just_after_connect_closes_cleanly(daphne, make_user, size, where):
    """8 KB and 2 MB sent at once on a table or lobby socket: the server sends a 1009 close
    frame, and nothing is logged as an exception."""
    port, log = daphne
    path = "/ws/lobby/"
    if where == "table":
        table = tables.create_table(make_user(f"host{size}"), name="t", players=4, options={})
        path = f"/ws/table/{table.pk}/"
    logged = log.stat().st_size
    code = close_code_after_sending(f"ws://127.0.0.1:{port}{path}", "x" * size)
    assert code == 1009
    time.sleep(0.5)  # let the process log anything the close made it log
    with log.open("rb") as lines:
        lines.seek(logged)
        after = lines.read().decode(errors="replace")
    assert "Exception inside application" not in after and "Traceback" not in after, after


def new_log(log: Path, since: int) -> str:
    with log.open("rb") as lines:
        lines.seek(since)
        return lines.read().decode(errors="replace")


@pytest.mark.django_db(transaction=True)
def test_a_large_snapshot_still_goes_out_and_small_frames_are_counted_whole(daphne, make_user):
    """The 4 KB limit is on what a page sends, never on what it is sent: a seat's snapshot
    (well over 4 KB) reaches the page. A message split into small frames is limited
    as a whole: 8 KB in 1 KB frames is closed by the consumer (4009) before it is parsed."""
    port, log = daphne
    host = make_user("snapshot-host")
    table = tables.create_table(host, name="t", players=4, options={"turn_seconds": 300})
    tables.fill_with_ai(table.pk, host, Seat.Policy.HEURISTIC)
    tables.start(table.pk, host, seed=3)
    logged = log.stat().st_size
    url = f"ws://127.0.0.1:{port}/ws/table/{table.pk}/"
    cookie = cookie_for(host).decode()  # the host's seat: a snapshot with a hand of 27 cards
    with connect(
        url,
        origin="http://localhost",
        max_size=None,
        open_timeout=10,
        additional_headers={"Cookie": cookie},
    ) as ws:
        snapshot = ws.recv(timeout=10)
        assert 'id="hand"' in snapshot and len(snapshot.encode()) > 4096
        ws.send("x" * 1024 for _ in range(8))  # one message in eight frames
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                ws.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4009
    time.sleep(0.5)
    after = new_log(log, logged)
    assert "Exception inside application" not in after and "Traceback" not in after, after


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("path", ["/ws/table/abc/", "/ws/table/999999/"])
def test_an_unknown_socket_path_is_refused_quietly(daphne, make_user, path):
    """A signed-in page with a good Origin on a path no route serves (``abc``) is refused like
    a table that does not exist: HTTP 403, not 500, and nothing logged as an error
    (config.socket_fallback)."""
    port, log = daphne
    cookie = cookie_for(make_user(f"stray{len(path)}")).decode()
    logged = log.stat().st_size
    with pytest.raises(InvalidStatus) as refused:
        with connect(
            f"ws://127.0.0.1:{port}{path}",
            origin="http://localhost",
            open_timeout=10,
            additional_headers={"Cookie": cookie},
        ):
            pass
    assert refused.value.response.status_code == 403
    time.sleep(0.5)  # let the process log anything the refusal made it log
    after = new_log(log, logged)
    assert "ERROR" not in after and "Traceback" not in after and "No route" not in after, after
