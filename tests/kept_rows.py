"""Rows built once per test process, put back into each module transaction that needs them.

``tests.built_once`` builds a module's data once per module. Some data costs seconds to build
and several modules read it (the record tests' finished match: thousands of writer calls):
``capture`` builds it once, in a transaction it rolls back, keeping every row the build added
(each table's rows above its highest id before the build, as PostgreSQL's ``COPY`` writes them:
every column exactly); ``restore`` copies those rows back in the caller's transaction (a
module's ``built_once``), so each module starts from what the build left. The rolled-back build
advanced the sequences, so a row a test adds later never takes a kept row's id. A build must
only add rows: ``capture`` refuses one that deleted rows, or added rows to a table without an
integer ``id``; its effects outside the database (the cache) are the caller's to clear.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import connection, transaction
from psycopg import sql


@dataclass(frozen=True)
class Kept:
    """What ``capture`` kept: ``value`` (the build's result) and, per table, its added rows in
    COPY's text format."""

    value: Any
    rows: tuple[tuple[str, bytes], ...]


def _tables() -> dict[str, bool]:
    """Every table of the database, and whether it has an integer ``id``."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT c.relname, EXISTS (SELECT 1 FROM information_schema.columns i WHERE "
            "i.table_name = c.relname AND i.column_name = 'id' AND i.data_type IN "
            "('integer', 'bigint')) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE c.relkind = 'r' AND n.nspname = 'public'"
        )
        return dict(cursor.fetchall())


def _count(table: str, above: int | None = None) -> int:
    where = (
        sql.SQL(" WHERE id > {}").format(sql.Literal(above)) if above is not None else sql.SQL("")
    )
    with connection.cursor() as cursor:
        cursor.execute(sql.SQL("SELECT count(*) FROM {}").format(sql.Identifier(table)) + where)
        return int(cursor.fetchone()[0])


def _top(table: str) -> int:
    with connection.cursor() as cursor:
        cursor.execute(sql.SQL("SELECT coalesce(max(id), 0) FROM {}").format(sql.Identifier(table)))
        return int(cursor.fetchone()[0])


def capture(build: Callable[[], Any]) -> Kept:
    """Run ``build`` in a transaction (or a savepoint) that is rolled back, keeping its result
    and the rows it added. ``AssertionError`` if it deleted rows, or added rows to a table
    without an integer id."""
    with transaction.atomic():
        tables = _tables()
        before = {t: (_count(t), _top(t) if has_id else None) for t, has_id in tables.items()}
        value = build()
        kept = []
        for table, (count, top) in sorted(before.items()):
            if top is None:
                assert _count(table) == count, f"{table}: rows added without an integer id"
                continue
            added = _count(table, top)
            assert _count(table) == count + added, f"{table}: rows deleted by the build"
            if added:
                query = sql.SQL("COPY (SELECT * FROM {} WHERE id > {} ORDER BY id) TO STDOUT")
                with connection.cursor() as cursor:
                    with cursor.cursor.copy(
                        query.format(sql.Identifier(table), sql.Literal(top))
                    ) as copy:
                        kept.append((table, b"".join(bytes(block) for block in copy)))
        transaction.set_rollback(True)
    return Kept(value, tuple(kept))


def restore(kept: Kept) -> Any:
    """Copy the kept rows back (foreign keys are checked at commit: any order); returns the
    build's result."""
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL DEFERRED")
        for table, rows in kept.rows:
            query = sql.SQL("COPY {} FROM STDIN").format(sql.Identifier(table))
            with cursor.cursor.copy(query) as copy:
                copy.write(rows)
    return kept.value
