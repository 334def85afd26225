"""The shared conformance checker passes, and the protocol answers bad requests with errors
(``../shared/conformance/README.md``)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine.conformance import answer

ROOT = Path(__file__).resolve().parents[3]
CHECKER = ROOT.parent / "shared" / "conformance" / "check.py"


def test_the_conformance_checker_passes_every_case():
    """``python ../shared/conformance/check.py`` from the project root: every case passes (at
    least the 274 public ones), none fails, exit status 0."""
    assert CHECKER.exists(), CHECKER
    proc = subprocess.run(
        [sys.executable, str(CHECKER), "--cmd", f"{sys.executable} -m games.engine.conformance"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    lines = proc.stdout.strip().splitlines()
    assert lines, proc.stderr
    match = re.fullmatch(r"(\d+) passed, (\d+) failed", lines[-1])
    assert match, proc.stdout[-2000:]
    assert int(match.group(2)) == 0, proc.stdout[-4000:]
    assert int(match.group(1)) >= 274
    assert proc.returncode == 0


def test_the_protocol_over_stdin_and_stdout():
    """One JSON reply line per request line, in order; a line that is not JSON gets an error."""
    requests = [
        {"op": "power_order", "level": "7"},
        "not json",
        {"op": "classify", "level": "5", "cards": ["4H", "5S", "6D"]},
    ]
    stdin = "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in requests)
    proc = subprocess.run(
        [sys.executable, "-m", "games.engine.conformance"],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0
    replies = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(replies) == 3
    assert replies[0] == {
        "order": ["2", "3", "4", "5", "6", "8", "9", "10", "J", "Q", "K", "A", "7", "BJ", "RJ"]
    }
    assert set(replies[1]) == {"error"}
    assert replies[2] == {"category": "straight"}


@pytest.mark.parametrize(
    "request_",
    [
        {"op": "shuffle"},
        {},
        [],
        "classify",
        None,
        {"op": "classify", "level": "5", "cards": ["4H", "1S"]},
        {"op": "classify", "level": "1", "cards": ["4H"]},
        {"op": "classify", "level": "5", "cards": "4H"},
        {"op": "beats", "level": "7", "top": ["3S", "4H"], "play": ["7S"]},
        {"op": "power_order", "level": "X"},
        {"op": "power_order", "level": "7", "options": {"bomb_order": "sideways"}},
        {"op": "power_order", "level": "7", "options": {"no_such_option": True}},
        {"op": "round", "players": 4, "hands": [["3S"], [], ["5S"], ["6S"]]},
        {"op": "round", "players": 2, "hands": [["3S", "3S"], ["5S"]]},
        {"op": "round", "players": 4, "hands": [["3S", "3S", "3S"], ["5S"], ["6S"], ["7S"]]},
        {"op": "round", "players": 4, "hands": [["3S"], ["5S"]]},
        {"op": "round", "players": 3, "hands": [["3S"], ["5S"], ["6S"]]},
        {"op": "round", "players": 4, "hands": [["3S"], ["5S"], ["6S"], ["7S"]], "leader": 9},
        {"op": "round", "players": 4, "hands": [["QX"], ["5S"], ["6S"], ["7S"]]},
        {"op": "round", "players": 4},
        {
            "op": "tribute",
            "players": 4,
            "level": "4",
            "finish_order": [2, 1, 0],
            "caught": [],
            "hands": [["3S"], ["4S"], ["5S"], ["6S"]],
        },
        {
            "op": "tribute",
            "players": 4,
            "level": "4",
            "finish_order": [2, 1, 0],
            "caught": [3],
            "hands": [["3S"], ["4S"]],
        },
    ],
)
def test_requests_that_cannot_be_served_get_an_error_reply(request_):
    """A bad op, hands, level or options (an empty hand, more copies than the decks hold, …) get
    ``{"error": …}``, never an exception."""
    reply = answer(request_)
    assert set(reply) == {"error"}
    assert isinstance(reply["error"], str) and reply["error"]


def test_a_bad_action_inside_a_round_is_an_ordinary_rejection():
    """Inside a round a bad action is a rejected action with a code; the rest still runs."""
    reply = answer(
        {
            "op": "round",
            "players": 4,
            "level": "2",
            "hands": [["9H", "3C"], ["9D", "9C"], ["5H"], ["6S"]],
            "actions": [
                {"seat": 1, "action": "play", "cards": ["9D"]},
                {"seat": 0, "action": "play", "cards": ["1S"]},
                {"seat": 0, "action": "play", "cards": ["9D"]},
                {"seat": 0, "action": "pass"},
                {"seat": 0, "action": "dance"},
                "nonsense",
                {"seat": 0, "action": "play", "cards": ["9H"]},
                {"seat": 1, "action": "hook", "cards": ["9D", "9C"]},
                {"seat": 1, "action": "hook", "cards": ["9D", "9C"]},
                {"action": "expire"},
                {"seat": 3, "action": "play", "cards": ["6S"]},
                {"seat": 0, "action": "play", "cards": ["3C"]},
            ],
        }
    )
    assert reply["results"] == [
        {"ok": False, "error": "not_your_turn"},
        {"ok": False, "error": "unknown_card"},
        {"ok": False, "error": "not_in_hand"},
        {"ok": False, "error": "leader_cannot_pass"},
        {"ok": False, "error": "malformed"},
        {"ok": False, "error": "malformed"},
        {"ok": True},
        {"ok": True},
        {"ok": False, "error": "finished"},
        {"ok": True},
        {"ok": True},
        {"ok": False, "error": "round_over"},
    ]
    assert reply["state"] == {
        "phase": "round_over",
        "turn": None,
        "window": None,
        "top": None,
        "hand_sizes": [1, 0, 1, 0],
        "finished": [1, 3],
        "caught": [0, 2],
        "levels": ["2", "4"],
        "next_level": "4",
        "match_winner": None,
    }
