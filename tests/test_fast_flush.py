"""The transactional tests' reset (tests/fast_flush.py)."""

from __future__ import annotations

import re
import threading
import time
from datetime import timedelta

import psycopg
import pytest
from django.contrib.sessions.models import Session
from django.core.management import call_command
from django.core.management.color import no_style
from django.db import connection
from django.utils import timezone

from accounts.models import User

pytestmark = pytest.mark.django_db


def test_the_reset_deletes_every_referenced_table_before_the_tables_referencing_it() -> None:
    """A worker outliving its test may insert a move while the reset runs: deleting the matches
    before the moves makes the moves' DELETE wait for it and see it (the reset's docstring)."""
    tables = connection.introspection.django_table_names(only_existing=True)
    (sql,) = connection.ops.sql_flush(no_style(), tables)
    order = re.findall(r'DELETE FROM "(\w+)"', sql)
    assert sorted(order) == sorted(tables)
    place = {table: index for index, table in enumerate(order)}
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT conrelid::regclass::text, confrelid::regclass::text FROM pg_constraint "
            "WHERE contype = 'f' AND conrelid <> confrelid"
        )
        references = cursor.fetchall()
    assert ("games_move", "games_match") in references
    for child, parent in references:
        if (parent, child) in references:
            continue  # tables referencing each other: either order (the reset's docstring)
        assert place[parent] < place[child], (parent, child)


def _flush_order() -> list[str]:
    tables = connection.introspection.django_table_names(only_existing=True)
    (sql,) = connection.ops.sql_flush(no_style(), tables)
    return re.findall(r'DELETE FROM "(\w+)"', sql)


@pytest.mark.django_db(transaction=True)
def test_a_reset_that_a_writer_deadlocks_runs_again(make_user) -> None:
    """A writer holds a session row the reset deletes late, the reset deletes the users first
    and waits on that row, then the writer asks for the user row: a deadlock. PostgreSQL ends
    the reset's side; the reset runs again once the writer has committed, and the database is
    empty after it."""
    order = _flush_order()
    assert order.index("accounts_user") < order.index("django_session")
    user = make_user("ana")
    Session.objects.create(
        session_key="k" * 32, session_data="x", expire_date=timezone.now() + timedelta(days=1)
    )
    db = connection.settings_dict
    dsn = {
        "dbname": db["NAME"],
        "user": db.get("USER") or None,
        "host": db.get("HOST") or None,
        "port": db.get("PORT") or None,
    }
    writer, watcher = psycopg.connect(**dsn), psycopg.connect(**dsn, autocommit=True)
    # The writer waits long before it looks for a deadlock: the reset finds it first and is
    # the one ended, as a worker's short wait was in CI.
    writer.execute("SET deadlock_timeout = '20s'")
    writer.execute("UPDATE django_session SET session_data = 'y'")
    outcome: list[str] = []

    def then_ask_for_the_user() -> None:
        # once the reset waits on the session row (it has deleted the users by then)
        for _ in range(500):
            waiting = watcher.execute(
                "SELECT count(*) FROM pg_stat_activity "
                "WHERE wait_event_type = 'Lock' AND query LIKE 'DO $flush$%' "
                "AND datname = current_database()"
            ).fetchone()
            if waiting and waiting[0]:
                outcome.append("reset waits")
                break
            time.sleep(0.01)
        try:
            writer.execute("UPDATE accounts_user SET first_name = 'w' WHERE id = %s", [user.pk])
            writer.commit()
            outcome.append("committed")
        except psycopg.errors.DeadlockDetected:
            writer.rollback()
            outcome.append("deadlock")

    thread = threading.Thread(target=then_ask_for_the_user)
    thread.start()
    try:
        with connection.cursor() as cursor:
            # The reset looks for a deadlock 2 s after it starts waiting (the server's default
            # is 1 s): time enough for the writer's ask even on a busy box.
            cursor.execute("SET deadlock_timeout = '2s'")
        # as a transactional test's teardown calls it (the command's own default TRUNCATEs)
        call_command("flush", verbosity=0, interactive=False, reset_sequences=False)
    finally:
        thread.join(30)
        writer.close()
        watcher.close()
        with connection.cursor() as cursor:
            cursor.execute("RESET deadlock_timeout")
    # The writer asked while the reset waited, before either looked for a deadlock: the reset
    # is the one ended, runs again once the writer has committed, and leaves nothing behind.
    assert outcome == ["reset waits", "committed"]
    assert not User.objects.exists() and not Session.objects.exists()
