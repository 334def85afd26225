"""What a set of querysets holds now, read in one round trip to the database.

The fuzz tests check after every refused post that nothing changed: a dozen counts and row lists
read before and after each of hundreds of posts. Read one query at a time, those reads cost more
than the posts; ``Snapshot`` reads them all in one SELECT of sub-selects, with the same content.
Compiling a dozen querysets to SQL costs more than running the SELECT, so a ``Snapshot`` compiles
them once, on its first read, and runs the same statement for every later one: its querysets
must not change between reads (no filter on a value that differs from test to test).
"""

from __future__ import annotations

import json
from typing import Any

from django.db import connection
from django.db.models import QuerySet


class Snapshot:
    """Calling it gives ``{"counts": {name: number of rows}, "rows": {name: the rows}}`` of the
    querysets, in one query (PostgreSQL). A ``rows`` queryset is a ``values_list``/``values``
    one: its rows come back as JSON objects keyed by column, sorted by their text (two snapshots
    are equal exactly when the same rows hold the same values, whatever order the database
    returns them in)."""

    def __init__(
        self, counts: dict[str, QuerySet[Any]], rows: dict[str, QuerySet[Any]] | None = None
    ) -> None:
        self.counts = counts
        self.rows = rows or {}
        self._statement: tuple[str, list[Any]] | None = None

    def _compile(self) -> tuple[str, list[Any]]:
        selects: list[str] = []
        params: list[Any] = []
        # No ORDER BY in the sub-selects: a count does not depend on it, and the rows are
        # sorted by their text.
        for queryset in self.counts.values():
            sql, more = queryset.order_by().values("pk").query.sql_with_params()
            selects.append(f"(SELECT count(*) FROM ({sql}) q)")
            params.extend(more)
        for queryset in self.rows.values():
            sql, more = queryset.order_by().query.sql_with_params()
            selects.append(
                "(SELECT coalesce(jsonb_agg(to_jsonb(q) ORDER BY to_jsonb(q)::text), '[]'::jsonb)"
                f" FROM ({sql}) q)"
            )
            params.extend(more)
        return "SELECT " + ", ".join(selects), params

    def __call__(self) -> dict[str, Any]:
        if self._statement is None:
            self._statement = self._compile()
        sql, params = self._statement
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            values = list(cursor.fetchone())
        names = list(self.counts)
        return {
            "counts": dict(zip(names, values[: len(names)], strict=True)),
            "rows": {
                name: json.loads(value)
                if isinstance(value, str)
                else value  # Django reads jsonb as text
                for name, value in zip(list(self.rows), values[len(names) :], strict=True)
            },
        }
