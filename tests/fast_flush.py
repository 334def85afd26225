"""A cheaper reset after each transactional test: DELETE where Django's flush TRUNCATEs.

pytest-django's ``transactional_db`` (``django_db(transaction=True)``: the socket, worker and
race tests) empties the database after each test with ``manage.py flush``, whose SQL on
PostgreSQL is one ``TRUNCATE`` of every table (47). A TRUNCATE gives each table new files,
and the commit waits for them to reach the disk: 0.3 s a test on a quiet box, 1–2 s under load,
some 160 s of a serial run. Nearly all of those tables are empty, and a ``DELETE`` from an empty
table writes nothing, so the same reset costs milliseconds.

The state after the reset is the one TRUNCATE leaves, row for row, with one difference: the
migrated template's content types and permissions keep their rows (and ids) instead of being
deleted and recreated by the ``post_migrate`` signal the flush sends afterwards; rows a test
added to them are deleted, and the signal still recreates any a test removed. Sequences are not
reset by either (pytest-django's ``reset_sequences`` is off).

The ``post_migrate`` signal itself (Django's content types and permissions, each app's models
read and compared: most of a reset's CPU once the DELETEs were cheap) is skipped when those two
tables are, row for row, the template's (one query compares their digests): the signal only
creates the rows that are missing, so there it would change nothing. A test that deleted or
changed one of them gets the signal as before. A flush that asks for
``reset_sequences`` or ``CASCADE`` keeps Django's TRUNCATE. Every foreign key Django creates is
``DEFERRABLE INITIALLY DEFERRED`` and the flush runs in one transaction: the constraints are
checked at commit.

The DELETEs still go parents first (a referenced table before the tables that reference it),
because the worker tests' Celery workers outlive a test and may be writing while it is reset.
A child row inserted before its parent's DELETE holds a key-share lock on the parent: the DELETE
waits for it to commit, and the child table's DELETE after it sees the row. One inserted after
it waits on the deleted parent and fails in the worker. Children first, a move inserted between
the moves' DELETE and the matches' failed the whole reset at commit (seen in CI).

Such a worker's transaction can still wait on a row the reset already deleted while the reset
waits on a row it holds (the match it updated): PostgreSQL ends one of the two as a deadlock. If
it ends the reset's, the reset runs again (``_execute_flush``, up to ``FLUSH_TRIES`` times): by
then the worker's transaction is over, and the reset sees what it wrote (seen in CI, the
teardown of test_delay's all-AI table).
"""

from __future__ import annotations

import time
from graphlib import CycleError, TopologicalSorter
from typing import Any

from django.contrib.contenttypes.models import ContentType
from django.core.management.commands import flush
from django.db import OperationalError, connection, connections
from django.db.backends.postgresql.operations import DatabaseOperations
from psycopg import errors as pg_errors

#: Rows of these tables below the template's high-water mark survive the reset (see above).
KEPT_FROM_TEMPLATE = ("django_content_type", "auth_permission")

_truncate = DatabaseOperations.sql_flush
_execute_sql_flush = DatabaseOperations.execute_sql_flush
#: How many times a reset that PostgreSQL ended as a deadlock is run (see above).
FLUSH_TRIES = 3
_emit_post_migrate = flush.emit_post_migrate_signal
_kept_below: dict[str, int] = {}
_template_digest: list[str] = []
#: Each table's place in the DELETE order: every referenced table before its referencing ones.
_parents_first: dict[str, int] = {}


def _delete_flush(
    self: DatabaseOperations,
    style: Any,
    tables: list[str],
    *,
    reset_sequences: bool = False,
    allow_cascade: bool = False,
) -> list[str]:
    """Django's ``sql_flush`` as DELETEs, in one round trip (a PL/pgSQL block)."""
    if reset_sequences or allow_cascade or not tables or not _kept_below:
        return _truncate(
            self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
        )
    statements = ["SET CONSTRAINTS ALL DEFERRED;"]
    for table in sorted(tables, key=lambda table: _parents_first.get(table, len(_parents_first))):
        where = f" WHERE id > {_kept_below[table]}" if table in _kept_below else ""
        statements.append(f"DELETE FROM {self.quote_name(table)}{where};")
    return ["DO $flush$ BEGIN " + " ".join(statements) + " END $flush$;"]


def _execute_flush(self: DatabaseOperations, sql_list: list[str]) -> None:
    """Django's ``execute_sql_flush`` (one transaction), run again when PostgreSQL ended it as
    one side of a deadlock with a worker's transaction; any other error, or a deadlock on the
    last try, is raised."""
    for attempt in range(1, FLUSH_TRIES + 1):
        try:
            _execute_sql_flush(self, sql_list)
            return
        except OperationalError as error:
            if attempt == FLUSH_TRIES or not isinstance(
                error.__cause__, pg_errors.DeadlockDetected
            ):
                raise
            time.sleep(0.1 * attempt)


def _kept_digest(alias: str) -> str:
    """An md5 of every row of KEPT_FROM_TEMPLATE's tables, in id order (one round trip)."""
    quote = connections[alias].ops.quote_name
    digests = ", ".join(
        f"(SELECT md5(coalesce(string_agg(t::text, ',' ORDER BY t.id), '')) FROM {quote(table)} t)"
        for table in KEPT_FROM_TEMPLATE
    )
    with connections[alias].cursor() as cursor:
        cursor.execute(f"SELECT concat_ws(':', {digests})")
        return cursor.fetchone()[0]


def _post_migrate_unless_unchanged(
    verbosity: int, interactive: bool, db: str, **kwargs: Any
) -> None:
    """The flush's ``post_migrate`` signal, skipped when the content types and permissions are
    the template's (see above)."""
    if _template_digest and db == connection.alias and _kept_digest(db) == _template_digest[0]:
        # What the signal's create_contenttypes does first; the rows are the same, the cache
        # would be too, but a test may have cached a row it made (deleted by now).
        ContentType.objects.clear_cache()
        return
    _emit_post_migrate(verbosity, interactive, db, **kwargs)


def _order_parents_first() -> dict[str, int]:
    """Every table with a foreign key, or referenced by one, and its place in an order that puts
    each referenced table before the tables referencing it (one catalog query). Two tables that
    reference each other (a tournament and its teams) keep one of the two orders."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT conrelid::regclass::text, confrelid::regclass::text FROM pg_constraint "
            "WHERE contype = 'f' AND conrelid <> confrelid"
        )
        references = {(child.strip('"'), parent.strip('"')) for child, parent in cursor.fetchall()}
    while True:
        graph: dict[str, set[str]] = {}
        for child, parent in references:
            graph.setdefault(child, set()).add(parent)
        try:  # static_order: a table after every one it references
            return {
                table: place for place, table in enumerate(TopologicalSorter(graph).static_order())
            }
        except CycleError as cycle:
            first, second = cycle.args[1][:2]
            references -= {(first, second), (second, first)}


def install() -> None:
    """Use the DELETE reset in this process, keeping the template's content types and
    permissions (their highest ids now, in the freshly cloned test database, and their digest)."""
    _parents_first.update(_order_parents_first())
    with connection.cursor() as cursor:
        for table in KEPT_FROM_TEMPLATE:
            cursor.execute(f"SELECT coalesce(max(id), 0) FROM {connection.ops.quote_name(table)}")
            _kept_below[table] = cursor.fetchone()[0]
    _template_digest[:] = [_kept_digest(connection.alias)]
    DatabaseOperations.sql_flush = _delete_flush  # type: ignore[method-assign]
    DatabaseOperations.execute_sql_flush = _execute_flush  # type: ignore[method-assign]
    flush.emit_post_migrate_signal = _post_migrate_unless_unchanged  # type: ignore[assignment]
