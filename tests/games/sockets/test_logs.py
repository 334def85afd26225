"""Structured logs (LOGGING in settings): a live Daphne's stderr after a real page request and a
real play over a real WebSocket holds one JSON line for each, with their fields, and not one
card of the deal nor its seed in any line it printed."""

from __future__ import annotations

import json
import re
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db import connection
from django.test import Client
from websockets.sync.client import connect

from games.engine import legal_actions
from games.models import Match, Move, Seat
from games.play import services, tables
from tests import servers
from tests.test_settings import read_settings

ROOT = Path(__file__).resolve().parents[3]
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def daphne(tmp_path: Path) -> Iterator[tuple[str, Path, Path]]:
    """Daphne on the test database at DJANGO_LOG_LEVEL=INFO: (its URL, its stderr file, its
    stdout file — Daphne's own access log)."""
    db = connection.settings_dict
    env = servers.test_database_env(db, DJANGO_LOG_LEVEL="INFO")
    port = servers.free_port()
    err, out = tmp_path / "daphne.err", tmp_path / "daphne.out"
    with err.open("wb") as err_file, out.open("wb") as out_file:
        proc = servers.start_daphne(port, env, out_file, err_file)
    url = f"http://127.0.0.1:{port}"
    try:
        try:
            servers.wait_http(f"{url}/rules/", proc)
        except RuntimeError as error:
            raise AssertionError(err.read_text()) from error
        yield url, err, out
    finally:
        servers.stop(proc)


def lines_of(path: Path, event: str) -> list[dict]:
    """The JSON log lines of ``path`` whose message is ``event``."""
    found = []
    for line in path.read_text().splitlines():
        if line.startswith("{"):
            record = json.loads(line)
            if record.get("message") == event:
                found.append(record)
    return found


def wait_for(check, seconds: float = 20.0) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check():
            return True
        time.sleep(0.1)
    return False


def test_a_page_and_a_play_over_a_socket_log_their_fields_and_no_card(daphne, make_table):
    url, err, out = daphne
    table = make_table(["ana", "bo", "cy", "di"], {"claim_window_seconds": 60, "turn_seconds": 300})
    match = tables.start(table.pk, table.host)  # a random deal
    state = services.load_state(Match.objects.get(pk=match.pk))
    deal = {card for hand in state.hands for card in hand}
    seat = state.turn
    player = Seat.objects.get(table=table, number=seat).user
    client = Client()
    client.force_login(player)
    cookie = f"sessionid={client.cookies['sessionid'].value}"

    # A real HTTP request: the player's own table page, which shows their hand.
    request = urllib.request.Request(f"{url}/tables/{table.pk}/", headers={"Cookie": cookie})
    page = urllib.request.urlopen(request, timeout=10).read().decode()
    assert state.hands[seat][0] in page

    # A real play over a real socket.
    play = legal_actions(state, seat)[0]
    ws_url = f"ws://127.0.0.1:{url.rsplit(':', 1)[1]}/ws/table/{table.pk}/"
    with connect(ws_url, origin=url, additional_headers={"Cookie": cookie}) as ws:
        ws.recv(timeout=10)  # the snapshot
        ws.send(
            json.dumps(
                {
                    "action": "play",
                    "cards": list(play.cards),
                    "version": state.version,
                    "client_id": "logs-1",
                }
            )
        )
        assert wait_for(lambda: Move.objects.filter(match=match, client_id="logs-1").exists())
        assert wait_for(lambda: lines_of(err, "socket.answer"))

    [page_line] = [
        r for r in lines_of(err, "http.request") if r["route"] == "tables/<int:table_id>/"
    ]
    assert page_line["method"] == "GET" and page_line["status"] == 200
    assert page_line["view"] == "games:table" and page_line["level"] == "INFO"
    assert isinstance(page_line["ms"], float) and page_line["ms"] >= 0

    [action] = lines_of(err, "game.action")
    assert {k: action[k] for k in ("match", "version", "seat", "action", "outcome")} == {
        "match": match.pk,
        "version": state.version + 1,
        "seat": seat,
        "action": "play",
        "outcome": "ok",
    }
    assert action["logger"] == "games.play.services" and action["ms"] >= 0

    [answer] = lines_of(err, "socket.answer")
    assert {k: answer[k] for k in ("table", "match", "version", "seat", "action", "outcome")} == {
        "table": table.pk,
        "match": match.pk,
        "version": state.version + 1,
        "seat": seat,
        "action": "play",
        "outcome": "ok",
    }
    assert answer["ms"] >= action["ms"]

    # Nothing Daphne printed, on either stream, names a card of the deal or its seed.
    printed = err.read_text() + out.read_text()
    assert "http.request" in printed and "WSCONNECT" in printed  # both streams were captured
    for card in sorted(deal):
        named = re.findall(rf"(?<![A-Za-z0-9]){re.escape(card)}(?![A-Za-z0-9])", printed)
        assert not named, f"{card} appears in the log"
    assert str(state.seed) not in printed


def test_a_refused_action_logs_its_code_not_what_was_sent(make_table, caplog):
    """A malformed message is logged as action "unknown" with its outcome code: the log never
    repeats what a client wrote (it could be anything, cards included)."""
    table = make_table(["ana", "bo", "cy", "di"])
    match = tables.start(table.pk, table.host)
    with caplog.at_level("INFO", logger="games.play.services"):
        result = services.submit(match.pk, table.host, {"action": "9H 10S", "cards": ["BJ"]})
    assert result.code == "malformed"
    [record] = [r for r in caplog.records if r.getMessage() == "game.action"]
    assert (record.action, record.outcome, record.match, record.seat) == (
        "unknown",
        "malformed",
        match.pk,
        None,
    )
    assert "9H" not in repr(record.__dict__) and "BJ" not in repr(record.__dict__)


def test_the_level_comes_from_django_log_level() -> None:
    """DJANGO_LOG_LEVEL sets the level of the site's and Django's lines; a wrong value stops
    the process with a clear message instead of logging nothing."""
    values = read_settings(["LOGGING"], DJANGO_DEBUG="1", DJANGO_LOG_LEVEL="warning")
    assert values["LOGGING"]["root"]["level"] == "WARNING"
    assert values["LOGGING"]["loggers"]["django"]["level"] == "WARNING"
    assert values["LOGGING"]["loggers"]["django.db.backends"]["level"] == "INFO"
    # At DEBUG too, the loggers that print what they hold (SQL parameters, a template's
    # context with a player's hand) stay at INFO.
    loud = read_settings(["LOGGING"], DJANGO_DEBUG="1", DJANGO_LOG_LEVEL="DEBUG")["LOGGING"]
    assert loud["root"]["level"] == "DEBUG"
    assert loud["loggers"]["django.db.backends"]["level"] == "INFO"
    assert loud["loggers"]["django.template"]["level"] == "INFO"
    # No error mail (Django's AdminEmailHandler sends a request's POST, a played hand): errors go
    # to stderr, and to Sentry only when configured (config.errors scrubs cards from it).
    handlers = [h.get("class", "") for h in loud["handlers"].values()]
    assert handlers == ["logging.StreamHandler"]
    with pytest.raises(ImproperlyConfigured) as refused:  # as a process reads them on its start
        read_settings(["LOGGING"], DJANGO_DEBUG="1", DJANGO_LOG_LEVEL="loud")
    assert "DJANGO_LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL" in str(refused.value)
