"""The table socket's message protocol (``games.sockets.protocol.parse_message``), alone."""

from __future__ import annotations

import json

import pytest

from games.sockets.protocol import parse_message

PLAY = {"action": "play", "cards": ["5H"], "version": 3}


@pytest.mark.parametrize("client_id", [{"id": "c1"}, ["c1"], [], {}, 7, 0, 7.5, True, False])
def test_a_client_id_that_is_not_a_string_makes_the_message_unreadable(client_id):
    """As the bot API's schema (``client_id: str | None``): anything else is refused whole."""
    assert parse_message(json.dumps({**PLAY, "client_id": client_id})) is None


@pytest.mark.parametrize("client_id", ["c1", "", None])
def test_a_string_or_null_client_id_is_kept(client_id):
    assert parse_message(json.dumps({**PLAY, "client_id": client_id})) == {
        **PLAY,
        "client_id": client_id,
    }


def test_a_message_without_a_client_id_is_read():
    assert parse_message(json.dumps({"action": "pass", "version": "4"})) == {
        "action": "pass",
        "version": 4,
    }


@pytest.mark.parametrize("version", ["²", "١٢", "3²"])
def test_a_version_of_digits_other_than_ascii_stays_a_string_for_the_writer_to_refuse(version):
    """``str.isdigit`` takes these and ``int`` refuses "²": read as it came, never a crash."""
    assert parse_message(json.dumps({"action": "pass", "version": version})) == {
        "action": "pass",
        "version": version,
    }
