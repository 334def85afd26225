"""Random messages over the table socket: four seats and a spectator send a few hundred plays,
passes, hooks, unhooks and returns, legal ones among random cards, versions and client ids,
well-formed or not, in random order, and the server stays whole.

After every message: each socket is still open; no frame names a card that its reader may not
see (a seat: its own hand, before or after the message, and the cards the stored moves
showed; the spectator: those cards alone); the match's version is the number of stored moves
(none lost, none duplicated) and the stored state's. Real ASGI application, Redis channel
layer and PostgreSQL, no worker (no AI seat, no timer: the sockets are the only input).
"""

from __future__ import annotations

import functools
import json
import random

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connection, transaction

from games.engine.codec import action_to_json, state_from_json
from games.engine.rules import legal_actions
from games.engine.state import State
from games.models import Match, Move
from games.play import tables
from games.sockets import socket_limits
from tests.games.sockets.test_consumers import (
    _close_db_connections,  # noqa: F401 - autouse fixture
    cards_in,
    connect,
    frame,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

PEOPLE = ("ana", "bo", "cy", "di")
ACTIONS = ("play", "pass", "hook", "unhook", "return", "", None, 7, "next_round", "timeout")
JUNK_CARDS = ("", "XX", "1S", "10", "S3", "3s", "BJBJ", "RJ ", "<b>3S</b>", "3S" * 40)
ALL_CARDS = [
    f"{rank}{suit}" for rank in "2 3 4 5 6 7 8 9 10 J Q K A".split() for suit in "SHDC"
] + ["BJ", "RJ"]


def start_match(make_user, seed: int) -> tuple[int, dict]:
    """Four people at a 4-seat table (no AI, so nothing moves but the sockets) and a watcher;
    the match dealt from ``seed``. The match's id and the users by name."""
    users = {name: make_user(f"{name}_fuzz") for name in (*PEOPLE, "watcher")}
    table = tables.create_table(
        users["ana"],
        name="fuzz",
        players=4,
        options={"claim_window_seconds": 60, "turn_seconds": 300},
    )
    for seat, name in enumerate(PEOPLE[1:], start=1):
        tables.take_seat(table.pk, users[name], seat)
    return tables.start(table.pk, users["ana"], seed=seed).pk, users


def random_message(rng: random.Random, state: State, seat: int | None) -> str:
    """One message a page (or someone forging one) might send: a legal action half the
    time when the seat has one; else mostly the right shape with cards of its own hand, of
    any hand or none, at the current version or another."""
    legal = legal_actions(state, seat) if seat is not None else []
    if legal and rng.random() < 0.5:
        action = action_to_json(rng.choice(legal))
        action.pop("seat")
        return json.dumps({"action": action.pop("type"), **action, "version": state.version})
    if rng.random() < 0.08:
        return rng.choice(["{not json", "[]", "null", '"play"', "{}", "[" * 50 + "]" * 50])
    own = list(state.hands[seat]) if seat is not None else []
    pool = own if own and rng.random() < 0.6 else ALL_CARDS + list(JUNK_CARDS)
    cards: object = rng.sample(pool, min(rng.choice((0, 1, 1, 2, 3)), len(pool)))
    if rng.random() < 0.15:
        cards = rng.choice(["3S", 3, {"c": "3S"}, None, [["3S"]], [3]])
    message: dict = {"action": rng.choice(ACTIONS), "cards": cards}
    if message["action"] == "return":
        message["card"] = rng.choice([*own, "XX", 3, None]) if own else "3S"
    message["version"] = rng.choice(
        [state.version] * 6
        + [state.version - 1, state.version + 1, -1, "x", str(state.version), 1.5, None, 10**30]
    )
    if rng.random() < 0.3:
        message["client_id"] = rng.choice(["c1", "c2", "", None, 7, ["x"], "é" * 64, "x" * 65])
    return json.dumps(message)


def match_record(match_id: int) -> tuple[int, State, set[str]]:
    """The match's version, its stored state, and the cards its stored moves showed, read in
    one snapshot (a push may still be committing the previous message's move)."""
    with transaction.atomic():
        connection.cursor().execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        match = Match.objects.get(pk=match_id)
        moves = list(Move.objects.filter(match_id=match_id).values_list("action", flat=True))
    shown = {card for action in moves for card in (action.get("cards") or [])}
    assert match.version == len(moves), "a move lost or stored twice"
    return match.version, state_from_json(match.state), shown


async def received(sockets: dict[str, WebsocketCommunicator]) -> dict[str, list[str]]:
    """Every frame the sockets hold now, without waiting for more."""
    got: dict[str, list[str]] = {name: [] for name in sockets}
    for name, ws in sockets.items():
        while not await ws.receive_nothing(timeout=0):
            got[name].append(await ws.receive_from())
    return got


# A fuzzer (400 messages, each answered and checked against the stored match): `slow`, as the
# form fuzzers' hundreds of posts are, ~10 s of CPU and test-fast's longest test; `make test`.
@pytest.mark.slow
@pytest.mark.parametrize("seed", [3])
async def test_random_messages_change_nothing_but_legal_moves_and_leak_nothing(
    make_user, monkeypatch, seed
):
    monkeypatch.setattr(
        socket_limits, "Bucket", functools.partial(socket_limits.Bucket, rate=1000)
    )  # the fuzz is about content: the flood limit has its own test
    match_id, users = await sync_to_async(start_match)(make_user, seed)
    table_id = await sync_to_async(lambda: Match.objects.get(pk=match_id).table_id)()
    sockets = {name: await connect(table_id, user) for name, user in users.items()}
    seats = {name: PEOPLE.index(name) if name in PEOPLE else None for name in sockets}
    try:
        rng = random.Random(seed)
        version, state, shown = await sync_to_async(match_record)(match_id)
        # Two decks hold two of each card; a frame may come after the state has moved on: a seat
        # may see any card that was ever in its hand, and any card a stored move showed.
        ever_mine = {
            name: set(state.hands[seat]) for name, seat in seats.items() if seat is not None
        }
        for _ in range(400):
            able = [
                n for n, seat in seats.items() if seat is not None and legal_actions(state, seat)
            ]
            sender = rng.choice(able if able and rng.random() < 0.5 else list(sockets))
            await sockets[sender].send_to(random_message(rng, state, seats[sender]))
            answer = await frame(sockets[sender])  # every message is answered: a frame or a flash
            frames = await received(sockets)
            frames[sender].insert(0, answer)
            version, state, shown = await sync_to_async(match_record)(match_id)
            assert state.version == version
            for name, seat in seats.items():
                if seat is not None:
                    ever_mine[name] |= set(state.hands[seat])
            for name, texts in frames.items():
                for text in texts:
                    leaked = cards_in(text) - ever_mine.get(name, set()) - shown
                    assert not leaked, (name, leaked, text[:300])
        for name, texts in (await received(sockets)).items():  # the last push's late frames
            assert not any(cards_in(t) - ever_mine.get(name, set()) - shown for t in texts), name
        for ws in sockets.values():
            # Still open and answering: a malformed message is answered, not a closed socket.
            await ws.send_to("{not json")
            while 'id="flash"' not in (text := await ws.receive_from(timeout=30)):
                assert text.startswith("<!--frame") or text.lstrip().startswith(
                    '<p id="spectators"'
                )
    finally:  # a failure leaves no consumer writing while the test database is flushed
        for ws in sockets.values():
            await ws.disconnect()
    assert version >= 60, f"{version} legal moves: the fuzz tested little but refusals"
