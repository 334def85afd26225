"""Error reporting (config/errors.py): Sentry starts only with a DSN, and no event carries cards.

The DSN case sends a real event from a fresh process to a local HTTP server standing in for
Sentry's ingest endpoint, so the test reads exactly the bytes the SDK would put on the wire.
"""

from __future__ import annotations

import gzip
import http.server
import json
import os
import re
import threading
import zlib
from collections.abc import Iterator

import pytest

from config.errors import FILTERED, scrub
from tests.test_settings import run_django

# Card codes in every spelling a hand uses (RULES.md §0), standing alone.
CARD = re.compile(r"(?<![A-Za-z0-9])(?:(?:10|[2-9TJQKA])[SHDC]|BJ|RJ)(?![A-Za-z0-9])")


def test_sentry_is_not_started_without_a_dsn() -> None:
    """With SENTRY_DSN unset the SDK has no active client: nothing can leave the server."""
    code = (
        "import django; django.setup(); import sentry_sdk; from django.conf import settings; "
        "print(settings.SENTRY_ENABLED, sentry_sdk.get_client().is_active())"
    )
    result = run_django(["-c", code], DJANGO_DEBUG="1", SENTRY_DSN="")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["False", "False"]


def test_scrub_removes_cards_hands_and_seeds_at_any_depth() -> None:
    """Keys naming hands, cards, a seed or a state lose their values; card codes and seed
    numbers inside any string are replaced; everything else is kept as it was."""
    event = {
        "message": "seat 2 cannot play 9H, 10S and BJ (seed=987654)",
        "level": "error",
        "exception": {
            "values": [
                {
                    "type": "CodecError",
                    "value": "unknown card 'QD'",
                    "mechanism": {"type": "django", "handled": False},
                }
            ]
        },
        "extra": {
            "hand": ["3C", "4D"],
            "deal_seed": 42,
            "cards_left": 27,
            "match": 7,
            "statement": "SELECT 1",
        },
        "breadcrumbs": {
            "values": [
                {"category": "query", "message": "UPDATE games_match SET state = '{\"seed\": 5}'"},
                {"category": "log", "data": {"state": {"hands": [["AS"]]}, "version": 12}},
            ]
        },
    }
    assert scrub(event, {}) == {
        "message": f"seat 2 cannot play {FILTERED}, {FILTERED} and {FILTERED} (seed={FILTERED})",
        "level": "error",
        "exception": {
            "values": [
                {
                    "type": "CodecError",
                    "value": f"unknown card '{FILTERED}'",
                    "mechanism": {"type": "django", "handled": False},
                }
            ]
        },
        "extra": {
            "hand": FILTERED,
            "deal_seed": FILTERED,
            "cards_left": FILTERED,
            "match": 7,
            "statement": "SELECT 1",
        },
        "breadcrumbs": {
            "values": [
                {
                    "category": "query",
                    "message": f"UPDATE games_match SET state = '{{\"seed\": {FILTERED}}}'",
                },
                {"category": "log", "data": {"state": FILTERED, "version": 12}},
            ]
        },
    }


class _Ingest(http.server.BaseHTTPRequestHandler):
    """Sentry's envelope endpoint, as far as the SDK can tell: keeps every body it gets."""

    bodies: list[bytes] = []

    def do_POST(self) -> None:  # noqa: N802 - the http.server spelling
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        encoding = self.headers.get("Content-Encoding", "")
        if encoding == "gzip":
            body = gzip.decompress(body)
        elif encoding == "deflate":
            body = zlib.decompress(body)
        self.bodies.append(body)
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def ingest() -> Iterator[tuple[str, list[bytes]]]:
    _Ingest.bodies = []
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Ingest)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://public@127.0.0.1:{server.server_address[1]}/1", _Ingest.bodies
    server.shutdown()
    server.server_close()


# Raised inside a function whose locals hold a whole deal, with the cards in the message, an
# extra, a tag and a breadcrumb: everything the SDK could pick up.
REPORT = """
import django, json, logging, sentry_sdk
django.setup()
from django.conf import settings
options = sentry_sdk.get_client().options
print(json.dumps({"enabled": settings.SENTRY_ENABLED,
                  "active": sentry_sdk.get_client().is_active(),
                  "pii": options["send_default_pii"],
                  "locals": options["include_local_variables"],
                  "bodies": options["max_request_body_size"]}))
hands = [["9H", "10S", "BJ"], ["QD", "QD", "2C"]]
sentry_sdk.add_breadcrumb(category="game", message="dealt 9H 10S BJ", data={"hand": hands[0]})
sentry_sdk.set_extra("cards", hands[1])
sentry_sdk.set_tag("seed", "987654321")

def play(hands, seed=987654321):
    held = hands[0]
    raise ValueError(f"seat 0 holds {' '.join(held)}; seed={seed}")

try:
    play(hands)
except ValueError:
    sentry_sdk.capture_exception()
logging.getLogger("games").error("could not push QD QD 2C")
sentry_sdk.flush(10)
"""


def test_with_a_dsn_events_reach_sentry_without_cards_or_seed(ingest) -> None:
    """With SENTRY_DSN set the SDK starts without personal data, bodies or locals, and the
    events it sends (an exception, an error log line) hold no card of the deal and no seed."""
    dsn, bodies = ingest
    result = run_django(["-c", REPORT], DJANGO_DEBUG="1", SENTRY_DSN=dsn)
    assert result.returncode == 0, result.stderr
    options = json.loads(result.stdout.strip().splitlines()[0])
    assert options == {
        "enabled": True,
        "active": True,
        "pii": False,
        "locals": False,
        "bodies": "never",
    }
    sent = b"\n".join(bodies).decode()
    lines = [json.loads(line) for line in sent.splitlines() if line.startswith("{")]
    items = [line["type"] for line in lines if "type" in line and "event_id" not in line]
    # The exception and the error log line both arrived, cleaned.
    assert items.count("event") == 2, sent
    assert "ValueError" in sent and "could not push" in sent and FILTERED in sent
    assert CARD.findall(sent) == [], sent
    assert "987654321" not in sent


# A fresh process with the site's settings and LOGGING: one view refuses (PermissionDenied),
# one fails; Django's own handler answers and logs both.
REFUSE_AND_CRASH = """
import django
django.setup()
from django.core.exceptions import PermissionDenied
from django.test import Client, override_settings
from django.urls import path

def refuse(request):
    raise PermissionDenied("not your table")

def crash(request):
    raise ValueError("boom")

urlpatterns = [path("refuse/", refuse), path("crash/", crash)]
with override_settings(ROOT_URLCONF=__name__, ALLOWED_HOSTS=["testserver"]):
    client = Client(raise_request_exception=False)
    print(client.get("/refuse/").status_code, client.get("/crash/").status_code)
    print(client.get("/refuse/", headers={"host": "evil.example"}).status_code)
"""


def test_a_refused_request_is_one_line_and_a_server_error_keeps_its_traceback() -> None:
    """Every 403 was logged with the PermissionDenied's whole traceback (``make run``'s log
    filled with them): now it is one WARNING line of ``django.request`` saying what was
    refused, as is a disallowed host's 400 (``django.security``); a 500 keeps its traceback."""
    result = run_django(
        ["-c", REFUSE_AND_CRASH],
        DJANGO_DEBUG="1",
        SENTRY_DSN="",
        **{name: os.environ[name] for name in ("DATABASE_URL", "REDIS_URL") if name in os.environ},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["403", "500", "400"]
    records = [json.loads(line) for line in result.stderr.splitlines() if line.startswith("{")]
    refused = [r for r in records if r["message"] == "Forbidden (Permission denied): /refuse/"]
    assert len(refused) == 1, records
    assert refused[0]["level"] == "WARNING" and refused[0]["logger"] == "django.request"
    assert refused[0]["reason"] == "PermissionDenied: not your table"
    assert "exc_info" not in refused[0]
    host = [r for r in records if r["logger"] == "django.security.DisallowedHost"]
    assert len(host) == 1 and "exc_info" not in host[0], host
    assert host[0]["reason"].startswith("DisallowedHost: Invalid HTTP_HOST header")
    crashed = [r for r in records if r["message"] == "Internal Server Error: /crash/"]
    assert len(crashed) == 1 and crashed[0]["level"] == "ERROR"
    assert crashed[0]["exc_info"].startswith("Traceback (most recent call last)")
    assert crashed[0]["exc_info"].rstrip().endswith("ValueError: boom")
    assert [r for r in records if "exc_info" in r] == crashed  # the 500's traceback only
