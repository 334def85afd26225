"""No log line holds a card that is not public (issue 17 item 4; DESIGN.md rule 2): the site's
two Celery workers and Daphne, at DEBUG and at INFO, while a person plays over a real socket and
three expert AI seats hook and unhook in the claim windows it opens (she passes hers by herself,
an auto-pass). An expert's window answer waits its fixed pause as a task of its own
(``games.tasks.ai_answer``), decided before it is played: that task, its arguments and every
line about it must name no card.

The check is the strict one: no card code at all (``config.errors.CARD_TOKEN``, the notation of
RULES.md §0) in anything the three processes print, nor the deal's seed. Nothing the site logs
needs a card, public or not."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.db import connection
from django.test import Client
from websockets.sync.client import connect

from accounts.models import User
from config import health
from config.errors import CARD_TOKEN
from games.engine.deal import start_round
from games.live import redis_store
from games.models import Match, Move, Seat
from games.play import tables
from tests import servers
from tests.games.conftest import install_state
from tests.servers import wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.live]

#: ana (seat 0) leads the 9H; each expert seat holds a pair of 9s to hook it with and one card
#: more, so that every hook is decided (and waits its pause) before any of its cards is public.
HANDS = [("9H", "3C", "4C"), ("9D", "9D", "5C"), ("9C", "9C", "6C"), ("9S", "9S", "7C")]
#: Large enough that no other number in a log line is it by chance.
SEED = 914_271_385


@pytest.fixture(params=["DEBUG", "INFO"])
def stack(request, tmp_path: Path, settings) -> Iterator[tuple[str, list[Path], list]]:
    """Daphne and the two workers at log level ``request.param`` (Django's and Celery's), every
    stream to a file, AI pauses of 0.05 s. Yields (Daphne's URL, the log files: main worker, AI
    worker, Daphne's stderr and stdout; the processes, to stop before reading them whole)."""
    level = request.param
    env = servers.test_database_env(
        connection.settings_dict, DJANGO_LOG_LEVEL=level, GAMES_AI_DELAY_SECONDS="0.05"
    )
    env.pop("WORKER_TASK_LOG_LEVEL", None)  # Celery's routine lines at the worker's level
    settings.GAMES_AI_DELAY_SECONDS = 0.05
    logs = [tmp_path / name for name in ("main.log", "ai.log", "daphne.err", "daphne.out")]
    redis_store.client().delete(health.heartbeat_key())
    servers.purge_queues(env)
    port = servers.free_port()
    files = [path.open("w") for path in logs]
    procs = [
        servers.start_worker(env, "main", stdout=files[0], loglevel=level),
        servers.start_worker(env, "ai", stdout=files[1], loglevel=level),
        servers.start_daphne(port, env, files[3], files[2]),
    ]
    url = f"http://127.0.0.1:{port}"
    try:
        servers.wait_http(f"{url}/rules/", procs[2])
        assert wait_for(lambda: health.check_worker() == "ok", 120), [p.poll() for p in procs]
        yield url, logs, procs
    finally:
        servers.stop(*procs)
        for file in files:
            file.close()


def test_no_log_line_names_a_card_while_ai_seats_hook(stack, make_table):
    url, logs, procs = stack
    table = make_table(["ana", None, None, None], {"claim_window_seconds": 4, "turn_seconds": 20})
    Seat.objects.filter(table=table, ai_policy__gt="").update(ai_policy=Seat.Policy.EXPERT)
    # ana passes every window by herself (an auto-pass task): no window waits for its deadline.
    User.objects.filter(pk=table.host_id).update(auto_pass_hooks=True)
    match = tables.start(table.pk, table.host, seed=SEED)
    install_state(match, start_round(table.engine_options(), HANDS, 2, leader=0, seed=SEED))
    client = Client()
    client.force_login(table.host)
    cookie = f"sessionid={client.cookies['sessionid'].value}"
    request = urllib.request.Request(f"{url}/tables/{table.pk}/", headers={"Cookie": cookie})
    assert "9H" in urllib.request.urlopen(request, timeout=10).read().decode()  # her own hand

    with connect(
        f"ws://127.0.0.1:{url.rsplit(':', 1)[1]}/ws/table/{table.pk}/",
        origin=url,
        additional_headers={"Cookie": cookie},
    ) as ws:
        ws.recv(timeout=10)  # the snapshot
        ws.send(json.dumps({"action": "play", "cards": ["9H"], "version": 0, "client_id": "a"}))

        def hooked() -> bool:
            return Move.objects.filter(match=match, seat__gt=0, action__type="hook").exists()

        assert wait_for(hooked, 60), list(Move.objects.filter(match=match).values("action"))
        # Every expert answered the window, or the hook closed it for them.
        assert wait_for(lambda: Match.objects.get(pk=match.pk).phase != "window", 30)

    servers.stop(*procs)  # every line written out
    main_log = logs[0].read_text()
    assert "games.tasks.ai_answer" in main_log  # the decided answers went through the worker
    assert "games.tasks.ai_act" in logs[1].read_text()
    daphne_log = logs[2].read_text() + logs[3].read_text()
    assert "WSCONNECT" in daphne_log and "http.request" in daphne_log
    named = [
        f"{path.name}: {line}"
        for path in logs
        for line in path.read_text().splitlines()
        if CARD_TOKEN.search(line) or str(SEED) in line
    ]
    assert not named, "\n".join(named[:20])
