"""The bot API on a live Daphne and Celery worker (docs/BOT_API.md): four bots driven only
through the API play a quick match's whole first round, its claim windows, round end and the
next deal's tribute, until one resigns for its team; their streams and views never hold another
seat's card; a revoked token stops at once, its open stream included; the example bot plays a
round and stops at the match's end. (A round, not a whole match: the rounds after the second
deal add only time; the end of a match played out is tests/games/play/test_match_end_worker.py.)
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

import pytest
from django.db import connection
from playwright.sync_api import expect

from accounts import tokens
from games.live import replay
from games.models import Match, Move, Seat, Table
from games.play import stewarding, tables
from tests import servers

from .helpers import (
    log_in_as,
    open_started_table,
    play_until,
    stop_tables_after_the_test,  # noqa: F401 (fixture)
)

pytestmark = pytest.mark.django_db(transaction=True)

QUICK = {"target_level": "3", "claim_window_seconds": 3, "turn_seconds": 60}
MATCH_SECONDS = 420


def _example():
    spec = importlib.util.spec_from_file_location(
        "example_bot", servers.ROOT / "examples" / "bot.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _into_round_two(table: Table) -> bool:
    """The table's match has played its first round and the second round's tribute: round 2 is
    in play (or the match is already over)."""
    match = Match.objects.filter(table=table).first()
    return match is not None and (match.is_over or (match.round_no >= 2 and match.phase == "play"))


def _resign_by_api(base: str, token: str, table: Table) -> None:
    """The bot of ``token`` resigns for its team through the API: every stream's last line is
    ``end`` with reason ``match_over``."""
    match = Match.objects.get(table=table)
    body = {"action": "resign", "version": match.version, "client_id": "resign"}
    answer = _example().Api(base, token).call("POST", f"/matches/{match.pk}/actions", body)
    assert "code" not in answer or match.is_over, answer


def _bots_at_a_table(make_user, options: dict, names: list[str]) -> tuple[Table, list[str]]:
    """A casual table its host opened without sitting at it (every seat empty: a host who
    stood up from their own table would have closed it), and a token per bot account."""
    host = make_user(f"host-{names[0]}")
    table = stewarding.open_table(host, name="bots", options=options, seats=[(None, "")] * 4)
    return table, [tokens.create(make_user(n, is_bot=True), "bot")[1] for n in names]


class RecordingBot(threading.Thread):
    """One bot on the API (the example's ``choose``), keeping every byte it was sent."""

    def __init__(self, base: str, token: str, table_id: int) -> None:
        super().__init__(daemon=True)
        self.api = _example().Api(base, token)
        self.choose = _example().choose
        self.table_id = table_id
        self.lines: list[bytes] = []  # every stream line, as sent
        self.views: list[bytes] = []  # every GET .../view answer
        self.end: dict | None = None
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            self.play()
        except BaseException as e:  # noqa: BLE001 - reported by the test
            self.error = e
        finally:
            connection.close()  # this thread's: the test database is dropped at the end

    def play(self) -> None:
        sat = self.api.call("POST", f"/tables/{self.table_id}/sit", {})
        assert "seat" in sat, sat
        while not (
            match_id := Match.objects.filter(table_id=self.table_id)
            .values_list("pk", flat=True)
            .first()
        ):
            time.sleep(0.2)
        with self.api.request("GET", f"/matches/{match_id}/stream", timeout=60) as response:
            assert response.headers["Content-Type"] == "application/x-ndjson"
            for raw in response:
                self.lines.append(raw)
                line = json.loads(raw)
                if line["type"] == "end":
                    self.end = line
                    return
                if line["type"] != "view":
                    continue
                if len(self.lines) % 25 == 0:  # now and then, the plain view too
                    with self.api.request("GET", f"/matches/{match_id}/view") as view:
                        self.views.append(view.read())
                action = self.choose(line)
                if action:
                    body = {
                        **action,
                        "version": line["version"],
                        "client_id": f"{id(self)}-{len(self.lines)}",
                    }
                    self.api.call("POST", f"/matches/{match_id}/actions", body)


def _hidden_cards(match: Match, version: int, seat: int, public: set[str]) -> set[str]:
    """Cards that only other seats hold at ``version``: not in the seat's hand, not played this
    round, not a tribute card, not named by a public event (``public``)."""
    state = replay.state_at(match, version)
    mine = set(state.hands[seat])
    shown = set(state.hands[seat]) | public
    for t in state.tributes:
        shown |= {t.card, t.returned} - {None}
    from games.engine.views import played_cards

    shown |= set(played_cards(state))
    others = {c for s, hand in enumerate(state.hands) if s != seat for c in hand}
    return others - mine - shown


def _check_no_other_cards(match: Match, seat: int, payload: bytes) -> int:
    data = json.loads(payload)
    if data.get("type") not in (None, "view"):
        return 0
    version = data["version"] if "version" in data else data["view"]["version"]
    public = set()
    for event in data.get("events", []):
        if event["type"] == "answer" and event["seat"] != seat:
            assert "cards" not in event, event  # another seat's claim: who, never what
        for key in ("cards", "card"):
            value = event.get(key)
            public |= set(value) if isinstance(value, list) else ({value} if value else set())
    hidden = _hidden_cards(match, version, seat, public)
    text = payload.decode()
    leaked = [c for c in hidden if f'"{c}"' in text]
    assert not leaked, (seat, version, leaked)
    return len(hidden)


def test_four_bots_play_a_quick_match_to_its_end(live_url, make_user, new_page):
    """Beside a person playing at another table in chromium, four API bots play a quick match
    through a whole round and the next deal's tribute, until one resigns; every byte they were
    sent is scanned for other seats' cards."""
    person = new_page()
    log_in_as(person, "human", landing=None)
    open_started_table(person, claim_seconds=3, turn_seconds=60)
    table, bot_tokens = _bots_at_a_table(make_user, QUICK, ["b0", "b1", "b2", "b3"])
    bots = [RecordingBot(live_url, t, table.pk) for t in bot_tokens]
    for bot in bots:
        bot.start()
    end = time.monotonic() + 30
    while Seat.objects.filter(table=table, user__isnull=True).exists() and time.monotonic() < end:
        time.sleep(0.2)
    assert [b.error for b in bots] == [None] * 4
    tables.start(table.pk, table.host, seed=414)  # the host presses Start; the rest is the API
    # The person plays their own table meanwhile, through the page (its socket and pushes).
    assert play_until(person, lambda _page: _into_round_two(table), MATCH_SECONDS)
    _resign_by_api(live_url, bot_tokens[1], table)
    play_until(person, lambda _page: not any(b.is_alive() for b in bots), 60)
    for bot in bots:
        bot.join(5)
    human_moves = Move.objects.filter(match__table__seats__user__username="human", seat=0)
    assert human_moves.exists()
    assert [b.error for b in bots] == [None] * 4
    match = Match.objects.get(table=table)
    assert match.is_over, f"match at version {match.version}, phase {match.phase}"
    assert [b.end["reason"] for b in bots] == ["match_over"] * 4
    assert {b.end["winner_team"] for b in bots} == {match.winner_team}
    seats = {
        s.user.username: s.number for s in Seat.objects.filter(table=table).select_related("user")
    }
    checked = 0
    for name, bot in zip(["b0", "b1", "b2", "b3"], bots, strict=True):
        views = [json.loads(x) for x in bot.lines if json.loads(x)["type"] == "view"]
        versions = [v["version"] for v in views]
        assert versions == sorted(set(versions)) and versions[-1] == match.version
        assert all(v["view"]["seat"] == seats[name] for v in views)
        for payload in bot.lines + bot.views:
            checked += _check_no_other_cards(match, seats[name], payload)
    assert checked > 1000  # the scan looked at many hidden cards, not at none


def test_a_revoked_token_stops_at_once_with_its_stream(live_url, make_user):
    table, (token,) = _one_bot(make_user)
    api = _example().Api(live_url, token)
    assert api.call("POST", f"/tables/{table.pk}/sit", {"seat": 1})["seat"] == 1
    tables.fill_with_ai(table.pk, table.host, Seat.Policy.HEURISTIC)
    match = tables.start(table.pk, table.host, seed=5)
    response = api.request("GET", f"/matches/{match.pk}/stream", timeout=30)
    first = json.loads(response.readline())
    assert first["type"] == "view" and first["view"]["seat"] == 1
    revoked_at = time.monotonic()
    tokens.revoke(Seat.objects.get(table=table, number=1).user, _token_row(token).pk)
    while True:
        line = json.loads(response.readline())
        if line["type"] == "end":
            break
    took = time.monotonic() - revoked_at
    assert line["reason"] == "revoked" and took < 2.0, (line, took)
    assert response.readline() == b""  # the response is over
    response.close()
    with pytest.raises(urllib.error.HTTPError) as refused:
        api.request("GET", "/me")
    assert refused.value.code == 401 and json.load(refused.value)["code"] == "unauthorized"


def _one_bot(make_user) -> tuple[Table, list[str]]:
    host = make_user("host-rv")
    table = tables.create_table(host, name="one bot", players=4, options={"turn_seconds": 120})
    return table, [tokens.create(make_user("rv", is_bot=True), "bot")[1]]


def _token_row(raw: str):
    from accounts.models import AccessToken

    return AccessToken.objects.get(digest=tokens.digest(raw))


def test_the_example_bot_plays_a_match(live_url, make_user):
    table, bot_tokens = _bots_at_a_table(make_user, QUICK, ["e0", "e1", "e2", "e3"])
    procs = [
        subprocess.Popen(
            [sys.executable, str(servers.ROOT / "examples" / "bot.py"), live_url, t, str(table.pk)],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for t in bot_tokens
    ]
    try:
        end = time.monotonic() + 60
        while Seat.objects.filter(table=table, user__isnull=True).exists():
            assert time.monotonic() < end, "the example bots did not sit"
            time.sleep(0.2)
        tables.start(table.pk, table.host, seed=7)
        assert servers.wait_for(lambda: _into_round_two(table), MATCH_SECONDS)
        _resign_by_api(live_url, bot_tokens[0], table)
        outputs = [p.communicate(timeout=60)[0] for p in procs]
    finally:
        servers.stop(*procs, seconds=5)
    assert [p.returncode for p in procs] == [0] * 4, outputs
    assert all('"reason": "match_over"' in out for out in outputs), outputs
    assert Match.objects.get(table=table).is_over


def test_the_api_docs_page_works_under_the_policy(new_page, live_url):
    """Swagger UI from ninja's static files renders the schema in chromium with no policy
    violation and no request leaving the site; its guide line links to the guide."""
    from tests.e2e.test_csp import assert_no_violation, watch

    page = new_page()
    heard = watch(page)
    elsewhere: list[str] = []
    page.on(
        "request",
        lambda r: None if r.url.startswith((live_url, "data:")) else elsewhere.append(r.url),
    )
    response = page.goto("/api/v1/docs")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("414 Club bot API")
    expect(
        page.locator(".opblock-summary-path", has_text="/api/v1/matches/{match_id}/actions")
    ).to_have_count(1)
    # The guide is a link to the copy the site serves, not a bare path to look for.
    guide = page.locator(".swagger-ui .info a", has_text="docs/BOT_API.md")
    expect(guide).to_have_attribute("href", "/api/v1/guide")
    assert page.request.get(live_url + "/api/v1/guide").text().startswith("# The bot API")
    assert_no_violation(page, heard, "API docs")
    assert not elsewhere, elsewhere
