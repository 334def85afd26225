"""SQL statements per action, per connect and per push, so the cost cannot creep back.

Every action goes through the real writer (``services``) and its after-commit push to every
registered audience (four seats and the spectators, over the real Redis channel layer); the
count holds the writer's statements and the push's. A socket forwarding a pushed frame makes no
query at all: counted in every thread, not only the test's.
"""

from __future__ import annotations

import threading

import pytest
from asgiref.sync import sync_to_async
from django.db import connection, connections
from django.db.backends import utils
from django.test.utils import CaptureQueriesContext

from games.engine.deal import start_round
from games.live import audiences, notify, push
from games.live.audiences import Audience
from games.models import Match, Table
from games.play import deadlines, services, tables
from games.play.outcomes import Result
from tests.games.conftest import install_state
from tests.games.sockets.test_consumers import connect, frame

HANDS = [
    ("3S", "9H", "9C", "KD", "KH"),
    ("9D", "5H", "6H", "QC", "4S"),
    ("JS", "JH", "7D", "8D", "4H"),
    ("4C", "4D", "10S", "2C", "5S"),
]
#: The writer's statements (the lock, which checks the client id, seats, move, match), none for
#: the push.
MAX_PER_ACTION = 12


def four_people(make_user, prefix: str = "p", audiences_each: int = 2) -> tuple[Match, list]:
    """A started table of four people with chosen hands, and ``audiences_each`` languages
    registered for every seat and for the spectators."""
    players = 4
    people = [make_user(f"{prefix}{n}") for n in range(players)]
    table = tables.create_table(
        people[0],
        name="t",
        players=players,
        options={"claim_window_seconds": 60, "turn_seconds": 300},
    )
    for number, person in enumerate(people[1:], start=1):
        tables.take_seat(table.pk, person, number)
    match = tables.start(table.pk, people[0], seed=2)
    install_state(match, start_round(table.engine_options(), HANDS, 2, leader=1, seed=2))
    for language in ("en", "es", "id", "vi")[:audiences_each]:
        for n in (*range(players), None):
            audiences.register(table.pk, Audience(n, language))
    return match, people


def act(match: Match, person, payload: dict) -> Result:
    result = services.submit(match.pk, person, {"client_id": "", **payload})
    assert result.ok, result
    return result


@pytest.mark.django_db(transaction=True)
def test_each_kind_of_action_costs_a_few_statements_with_its_push(
    make_user, django_assert_max_num_queries
):
    """A play, a hook and passes (window answers), a window closing on its timer and a turn
    timing out each take at most ``MAX_PER_ACTION`` statements, push to ten audiences included."""
    match, people = four_people(make_user)
    with django_assert_max_num_queries(MAX_PER_ACTION):
        act(match, people[1], {"action": "play", "cards": ["9D"], "version": 0})  # opens a window
    with django_assert_max_num_queries(MAX_PER_ACTION):
        act(match, people[0], {"action": "hook", "cards": ["9H", "9C"], "version": 1})
    for seat in (2, 3):
        with django_assert_max_num_queries(MAX_PER_ACTION):
            act(match, people[seat], {"action": "pass", "version": 2})
    for phase in ("window", "play"):  # the unhook window on ana's pair closes, then a turn
        match.refresh_from_db()
        assert match.phase == phase
        match.deadline = match.deadline.replace(year=2000)
        match.save(update_fields=["deadline"])
        with django_assert_max_num_queries(MAX_PER_ACTION):
            assert deadlines.expire(match.pk, match.deadline_token)


@pytest.mark.django_db(transaction=True)
def test_the_count_does_not_grow_with_audiences_or_tables(make_user):
    """The same play costs the same statements with five audiences or twenty, and on a table
    among many."""
    counts = []
    for index, (languages, others) in enumerate(((1, 0), (4, 3))):
        for n in range(others):
            four_people(make_user, prefix=f"o{index}-{n}-")
        match, people = four_people(make_user, prefix=f"t{index}-", audiences_each=languages)
        with CaptureQueriesContext(connection) as captured:
            act(match, people[1], {"action": "play", "cards": ["9D"], "version": 0})
        counts.append(len(captured))
    assert counts[0] == counts[1] <= MAX_PER_ACTION


@pytest.mark.django_db(transaction=True)
def test_a_connect_snapshot_costs_a_few_statements(make_user, django_assert_max_num_queries):
    """A socket's first frame: table, seats, match and the last moves (plus the access check
    and seat lookup in the consumer)."""
    match, people = four_people(make_user)
    act(match, people[1], {"action": "play", "cards": ["9D"], "version": 0})
    with django_assert_max_num_queries(4):
        text, version, _revision = push.snapshot(match.table_id, 0, people[0], "en")
    assert version == 1 and 'id="hand"' in text
    with django_assert_max_num_queries(4):
        watched, _, _ = push.snapshot(match.table_id, None, None, "es")
    # A crowd: the next spectators of this process reuse that render (table and match only).
    with django_assert_max_num_queries(2):
        assert push.snapshot(match.table_id, None, people[2], "es")[0] == watched


class StatementCounter:
    """Counts statements run by any thread of this process while active."""

    def __init__(self) -> None:
        self.count = 0
        self._lock = threading.Lock()
        self._original = utils.CursorWrapper._execute

    def __enter__(self) -> StatementCounter:
        counter = self

        def counted(cursor, *args, **kwargs):
            with counter._lock:
                counter.count += 1
            return counter._original(cursor, *args, **kwargs)

        utils.CursorWrapper._execute = counted
        return self

    def __exit__(self, *exc) -> None:
        utils.CursorWrapper._execute = self._original


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_socket_forwards_a_pushed_frame_without_a_query(make_user):
    """Frames pushed to a seat's and the spectators' groups reach their sockets with no
    statement run in any thread (rule 2: no query in a socket's push path)."""
    match, people = await sync_to_async(four_people)(make_user)
    seat = await connect(match.table_id, people[0])
    watcher = await connect(match.table_id)
    first_seat, first_watcher = await frame(seat), await frame(watcher)
    assert 'id="hand"' in first_seat and 'id="hand"' in first_watcher
    version = match.version
    revision = await sync_to_async(lambda: Table.objects.get(pk=match.table_id).revision)()
    messages = [
        (
            audiences.group(match.table_id, Audience(0, "en")),
            {
                "type": "table.frame",
                "text": "<!--frame-->seat",
                "v": version + 1,
                "b": version,
                "r": revision,
                "full": False,
                "s": 0,
            },
        ),
        (
            audiences.group(match.table_id, Audience(None, "en")),
            {
                "type": "table.frame",
                "text": "<!--frame-->watch",
                "v": version + 1,
                "b": version,
                "r": revision,
                "full": False,
                "s": None,
            },
        ),
    ]
    with StatementCounter() as counter:
        await sync_to_async(notify.send_many)(messages)
        assert await frame(seat) == "<!--frame-->seat"
        assert await frame(watcher) == "<!--frame-->watch"
    assert counter.count == 0
    for ws in (seat, watcher):
        await ws.disconnect()
    await sync_to_async(connections.close_all)()
