"""The transactional tests' reset (tests/fast_flush.py)."""

from __future__ import annotations

import re

import pytest
from django.core.management.color import no_style
from django.db import connection

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
