"""The writer's fixed statements (``games.play.writes``) write what ``Model.save`` would: the
move's row, and the match's state with exactly the columns a move changed."""

from __future__ import annotations

import re
import threading
import time

import pytest
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import User
from games.engine import legal_actions
from games.engine.actions import Play
from games.live.replay import load_state
from games.models import Match, Move, Seat
from games.play import services, tables, writes


@pytest.fixture
def match(make_user) -> Match:
    people = [make_user(f"w{n}") for n in range(4)]
    table = tables.create_table(people[0], name="t", players=4, options={"turn_seconds": 300})
    for number, person in enumerate(people[1:], start=1):
        tables.take_seat(table.pk, person, number)
    return tables.start(table.pk, people[0], seed=5)


@pytest.mark.django_db
def test_a_match_read_from_the_database_has_no_changed_column(match):
    fresh = Match.objects.get(pk=match.pk)
    assert writes.changed_columns(fresh) == []
    fresh.phase, fresh.deadline_token = "round_over", fresh.deadline_token + 7
    assert writes.changed_columns(fresh) == ["phase", "deadline_token"]


@pytest.mark.django_db
def test_a_list_changed_in_place_reads_as_changed(match):
    fresh = Match.objects.get(pk=match.pk)
    fresh.timeouts_in_row.append(1)
    assert writes.changed_columns(fresh) == ["timeouts_in_row"]


@pytest.mark.django_db
def test_save_match_updates_only_the_changed_columns_and_the_state(match):
    fresh = Match.objects.get(pk=match.pk)
    fresh.state = {**fresh.state, "note": "x"}
    fresh.round_no = 3
    deadline = timezone.now()
    fresh.deadline = deadline
    with CaptureQueriesContext(connection) as queries:
        assert writes.save_match(fresh) == 3
    assert len(queries) == 1
    sql = queries[0]["sql"]
    assert '"state" =' in sql and '"round_no" =' in sql and '"deadline" =' in sql
    assert '"phase" =' not in sql and '"version" =' not in sql
    again = Match.objects.get(pk=match.pk)
    assert (again.state["note"], again.round_no, again.deadline) == ("x", 3, deadline)
    assert writes.changed_columns(fresh) == []  # what it wrote is now the row's


@pytest.mark.django_db
def test_insert_move_writes_the_row_and_the_constraints_still_hold(match):
    now = timezone.now()
    writes.insert_move(match.pk, 99, 1, 2, {"type": "pass"}, [{"type": "x"}], "c-1", now)
    move = Move.objects.get(match=match, seq=99)
    assert (
        move.round_no,
        move.seat,
        move.action,
        move.events,
        move.client_id,
        move.created_at,
    ) == (
        1,
        2,
        {"type": "pass"},
        [{"type": "x"}],
        "c-1",
        now,
    )
    assert writes.client_id_seen(match.pk, "c-1")
    assert not writes.client_id_seen(match.pk, "c-2")
    with pytest.raises(IntegrityError), transaction.atomic():
        writes.insert_move(match.pk, 100, 1, 2, {"type": "pass"}, [], "c-1", now)  # resent
    with pytest.raises(IntegrityError), transaction.atomic():
        writes.insert_move(match.pk, 99, 1, 3, {"type": "pass"}, [], "", now)  # same seq


@pytest.mark.django_db
def test_save_match_with_a_move_logs_it_in_the_same_statement(match):
    """On PostgreSQL the move's ``INSERT`` rides in the match's ``UPDATE``: one statement writes
    both rows as ``insert_move`` and ``save_match`` do; its constraints still hold."""
    fresh = Match.objects.get(pk=match.pk)
    fresh.state, fresh.version = {**fresh.state, "note": "y"}, 7
    now = timezone.now()
    move = writes.MoveRow(match.pk, 7, 1, 2, {"type": "pass"}, [{"type": "x"}], "c-9", now)
    with CaptureQueriesContext(connection) as queries:
        assert writes.save_match(fresh, move) == 2
    assert len(queries) == 1 and queries[0]["sql"].startswith("WITH")
    logged = Move.objects.get(match=match, seq=7)
    assert (logged.round_no, logged.seat, logged.action, logged.events) == (
        1,
        2,
        {"type": "pass"},
        [{"type": "x"}],
    )
    assert (logged.client_id, logged.created_at, logged.by_ai) == ("c-9", now, False)
    again = Match.objects.get(pk=match.pk)
    assert (again.state["note"], again.version) == ("y", 7)
    fresh.version = 8
    for resent in (move._replace(seq=8), move._replace(client_id="")):  # same client id; seq
        with pytest.raises(IntegrityError), transaction.atomic():
            writes.save_match(fresh, resent)
    assert Match.objects.get(pk=match.pk).version == 7  # rolled back with the move


@pytest.mark.django_db
def test_a_move_through_the_writer_is_logged_once_and_saved(match):
    table = match.table
    state = load_state(match)
    seat = state.turn
    person = table.seats.get(number=seat).user
    play = next(a for a in legal_actions(state, seat) if isinstance(a, Play))
    payload = {"action": "play", "cards": list(play.cards), "version": 0, "client_id": "once"}
    assert services.submit(match.pk, person, payload).ok
    assert services.submit(match.pk, person, payload).code == "duplicate"
    match.refresh_from_db()
    assert match.version == 1
    assert Move.objects.filter(match=match).count() == 1
    assert load_state(match).version == 1


@pytest.mark.django_db
def test_lock_match_reads_what_the_orm_reads(match):
    with transaction.atomic():
        orm = Match.objects.select_for_update().select_related("table").get(pk=match.pk)
        fixed = writes.lock_match(match.pk)
    for field in Match._meta.concrete_fields:
        assert getattr(fixed, field.attname) == getattr(orm, field.attname), field.name
    for field in type(orm.table)._meta.concrete_fields:
        assert getattr(fixed.table, field.attname) == getattr(orm.table, field.attname)
    assert type(fixed.state) is dict and fixed.table.pk == match.table_id
    assert not fixed._state.adding and writes.changed_columns(fixed) == []
    with pytest.raises(Match.DoesNotExist), transaction.atomic():
        writes.lock_match(match.pk + 1000)


@pytest.mark.django_db
def test_a_value_saved_by_the_orm_then_set_back_is_written_again(match):
    fresh = Match.objects.get(pk=match.pk)
    first = fresh.deadline_token
    fresh.deadline_token = first + 5
    fresh.save(update_fields=["deadline_token"])
    fresh.deadline_token = first  # back to the value read: the row holds first + 5
    assert writes.changed_columns(fresh) == ["deadline_token"]
    writes.save_match(fresh)
    assert Match.objects.get(pk=match.pk).deadline_token == first
    fresh.refresh_from_db()
    assert writes.changed_columns(fresh) == []


def _same_seats(fixed: list[Seat], orm: list[Seat]) -> None:
    assert [s.pk for s in fixed] == [s.pk for s in orm]  # ordered by number, as the ORM's
    for mine, theirs in zip(fixed, orm, strict=True):
        for field in Seat._meta.concrete_fields:
            assert getattr(mine, field.attname) == getattr(theirs, field.attname), field.name
        assert mine._state.fields_cache.keys() == {"user"}  # loaded: no query for seat.user
        if theirs.user is None:
            assert mine.user is None
            continue
        for field in User._meta.concrete_fields:
            assert getattr(mine.user, field.attname) == getattr(theirs.user, field.attname)
        assert not mine._state.adding and not mine.user._state.adding


@pytest.mark.django_db
def test_read_seats_reads_what_the_orm_reads(match, make_user):
    orm = list(Seat.objects.filter(table_id=match.table_id).select_related("user"))
    with CaptureQueriesContext(connection) as queries:
        fixed = writes.read_seats(match.table_id)
        assert [s.user.username for s in fixed] == ["w0", "w1", "w2", "w3"]
    assert len(queries) == 1
    _same_seats(fixed, orm)
    # Empty seats (no person): None, as select_related gives.
    host = make_user("alone")
    table = tables.create_table(host, name="u", players=4, options={"turn_seconds": 300})
    orm = list(Seat.objects.filter(table_id=table.pk).select_related("user"))
    fixed = writes.read_seats(table.pk)
    assert sum(s.user is None for s in fixed) == 3
    _same_seats(fixed, orm)
    assert writes.read_seats(table.pk + 1000) == []


@pytest.mark.django_db
def test_the_seats_stamp_changes_with_any_write_to_a_seat_or_its_person(match):
    """The stamp ``lock_match`` reads with the lock is the one ``read_seats_stamped`` reads with
    the rows, and any write to a seat or a seated person's row gives another: a save, a
    ``QuerySet.update``, a write rolled back undone — here all in the test's one transaction
    (one ``xmin``): each write a new row version elsewhere."""

    def locked() -> str | None:
        with transaction.atomic():
            return writes.seats_stamp(writes.lock_match(match.pk))

    first = locked()
    seats, read = writes.read_seats_stamped(match.table_id)
    assert first is not None and read == first and len(first.split(";")) == 4
    person = seats[1].user
    User.objects.filter(pk=person.pk).update(first_name="Renamed")
    renamed = locked()
    assert renamed != first and writes.read_seats_stamped(match.table_id)[1] == renamed
    with pytest.raises(RuntimeError), transaction.atomic():
        User.objects.filter(pk=person.pk).update(first_name="Undone")
        raise RuntimeError
    assert locked() == renamed
    seat = Seat.objects.get(pk=seats[2].pk)
    seat.stand_in_seq += 1
    seat.save(update_fields=["stand_in_seq"])
    assert locked() not in (first, renamed)
    with transaction.atomic():  # taken once: a second call (this transaction's writes) has none
        again = writes.lock_match(match.pk)
        assert writes.seats_stamp(again) is not None and writes.seats_stamp(again) is None


@pytest.mark.django_db
def test_seats_of_a_locked_match_shows_a_change_to_a_person_at_once(match):
    """The seats kept for a table are reused only while their rows are unchanged: a person's
    name changed with ``QuerySet.update`` (no signal) shows in the very next locked read, where
    a time-based reuse showed it up to seconds later."""

    def seats() -> tuple[list[Seat], int]:
        with CaptureQueriesContext(connection) as queries, transaction.atomic():
            read = services.seats_of(writes.lock_match(match.pk))
        return read, sum(q["sql"].startswith("SELECT") for q in queries.captured_queries)

    first, _ = seats()
    unchanged, selects = seats()
    assert unchanged is first and selects == 1  # unchanged rows: the lock's statement only
    person = first[3].user
    User.objects.filter(pk=person.pk).update(first_name="Renamed")
    renamed, selects = seats()
    assert renamed is not first and renamed[3].user.first_name == "Renamed" and selects == 2
    again, selects = seats()
    assert again is renamed and selects == 1


def _selects(queries: CaptureQueriesContext) -> int:
    return sum(q["sql"].startswith("SELECT") for q in queries.captured_queries)


@pytest.mark.django_db
def test_the_lock_reads_whether_a_client_id_was_seen_in_its_own_statement(match):
    """``lock_match(…, client_id)`` answers ``seen_at_lock`` without another statement, yes
    and no; a client id other than the lock's is asked of the database again."""
    writes.insert_move(match.pk, 99, 1, 2, {"type": "pass"}, [], "c-1", timezone.now())
    for client_id, seen in (("c-1", True), ("c-2", False)):
        with CaptureQueriesContext(connection) as queries, transaction.atomic():
            locked = writes.lock_match(match.pk, client_id)
            assert writes.seen_at_lock(locked, client_id) is seen
        assert _selects(queries) == 1  # the lock's statement
    with CaptureQueriesContext(connection) as queries, transaction.atomic():
        locked = writes.lock_match(match.pk, "c-2")
        assert writes.seen_at_lock(locked, "c-1") is True
    assert _selects(queries) == 2
    with transaction.atomic():  # a match locked without a client id: asked again
        assert writes.seen_at_lock(writes.lock_match(match.pk), "c-1") is True


@pytest.mark.django_db
def test_an_action_takes_the_lock_and_one_write(match):
    """The resent-move check rides the lock's statement and the move's row the match's
    ``UPDATE``: the writer's own statements are the lock and one write."""
    state = load_state(match)
    person = match.table.seats.get(number=state.turn).user
    plays = [a for a in legal_actions(state, state.turn) if isinstance(a, Play)]
    payload = {"action": "play", "cards": list(plays[0].cards), "version": 0, "client_id": "c"}
    with CaptureQueriesContext(connection) as queries:
        assert services.submit(match.pk, person, payload).ok
    log_reads = [
        q["sql"] for q in queries if q["sql"].startswith("SELECT") and "games_move" in q["sql"]
    ]
    assert len(log_reads) == 1 and "FOR UPDATE" in log_reads[0]  # the lock, the client id inside
    written = [q["sql"] for q in queries if q["sql"].startswith(("INSERT", "UPDATE", "WITH"))]
    assert len(written) == 1 and "games_move" in written[0]  # the move and the match: one
    assert services.submit(match.pk, person, payload).code == "duplicate"
    assert Move.objects.filter(match=match).count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_client_id_logged_while_the_writer_waited_for_its_lock_is_seen(match):
    """In READ COMMITTED the lock's statement, which waited behind another writer, returns the
    newest row but reads the move log as it was before the wait: the move that writer logged
    with the same client id is not in that read. The writer must still see the id (as a
    statement after the lock does): ``client_id_used``, as the id names that writer's pass,
    not the action judged anew (``stale``)."""
    state = load_state(match)
    seat = state.turn
    person = match.table.seats.get(number=seat).user
    plays = [a for a in legal_actions(state, seat) if isinstance(a, Play)]
    holding, done = threading.Event(), threading.Event()
    errors: list[BaseException] = []

    def other_writer() -> None:
        """Logs a move with the client id ``resent`` (not the one resent below: it is not
        ``_resent``'s match either) and moves the version on, holding the lock until the
        submission below waits for it."""
        try:
            with transaction.atomic():
                writes.lock_match(match.pk)
                writes.insert_move(
                    match.pk, 1, 1, seat, {"type": "pass"}, [], "resent", timezone.now()
                )
                Match.objects.filter(pk=match.pk).update(version=1)
                holding.set()
                with connection.cursor() as cursor:
                    for _ in range(500):  # until the submission waits for the row lock
                        cursor.execute(
                            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = "
                            "'Lock' AND datname = current_database()"
                        )
                        if cursor.fetchone()[0]:
                            break
                        time.sleep(0.01)
                    else:
                        raise AssertionError("the submission never waited for the lock")
        except BaseException as e:
            errors.append(e)
        finally:
            connection.close()
            done.set()

    thread = threading.Thread(target=other_writer)
    thread.start()
    assert holding.wait(10)
    payload = {"action": "play", "cards": list(plays[-1].cards), "version": 0}
    result = services.submit(match.pk, person, {**payload, "client_id": "resent"})
    thread.join(10)
    assert done.is_set() and not errors, errors
    assert (result.ok, result.code, result.version) == (False, "client_id_used", 1)
    assert Move.objects.filter(match=match).count() == 1


#: The match's columns a move writes while the match runs (``writes.save_match``): its winner
#: and end are written once, when it ends.
RUNNING_COLUMNS = ("state", *(c for c in writes.TRACKED if c not in ("winner_team", "finished_at")))


@pytest.mark.django_db
def test_no_index_of_the_match_holds_a_column_a_move_writes():
    """PostgreSQL writes a row's new version beside the old one, with no new index entry (a
    HOT update), only when no index holds a column the update changes — in its keys or its
    predicate. A move moves the deadline at least: no index of the match may name it."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_get_indexdef(indexrelid) FROM pg_index WHERE indrelid = %s::regclass",
            [Match._meta.db_table],
        )
        definitions = [row[0] for row in cursor.fetchall()]
    assert len(definitions) >= 2  # the key, the table's unique, the sweeps'
    named = {
        (column, definition)
        for column in RUNNING_COLUMNS
        for definition in definitions
        if re.search(rf"\b{column}\b", definition.split(" USING ", 1)[1])
    }
    assert named == set()


@pytest.mark.django_db
def test_the_writers_statement_is_prepared_once_on_its_connection(match, settings):
    """Past psycopg's threshold a fixed statement is a prepared one on its connection:
    PostgreSQL parses and plans the lock once, not at every move."""
    threshold = settings.DATABASES["default"]["OPTIONS"]["prepare_threshold"]
    assert threshold is not None
    for _ in range(threshold + 1):
        writes.lock_match(match.pk)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE %s",
            ["%FOR UPDATE%"],
        )
        assert cursor.fetchone()[0] == 1
