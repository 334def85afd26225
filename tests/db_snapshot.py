"""What a set of querysets holds now, read in one round trip to the database.

The fuzz tests check after every refused post that nothing changed: a dozen counts and row lists
read before and after each of hundreds of posts. Read one query at a time, those reads cost more
than the posts; ``snapshot`` reads them all in one SELECT of sub-selects, with the same content.
"""

from __future__ import annotations

import json
from typing import Any

from django.db import connection
from django.db.models import QuerySet


def snapshot(
    counts: dict[str, QuerySet[Any]], rows: dict[str, QuerySet[Any]] | None = None
) -> dict[str, Any]:
    """``{"counts": {name: number of rows}, "rows": {name: the rows}}`` of the querysets, in one
    query (PostgreSQL). A ``rows`` queryset is a ``values_list``/``values`` one: its rows come
    back as JSON objects keyed by column, sorted by their text (two snapshots are equal exactly
    when the same rows hold the same values, whatever order the database returns them in)."""
    selects: list[str] = []
    params: list[Any] = []
    for queryset in counts.values():
        sql, more = queryset.values("pk").query.sql_with_params()
        selects.append(f"(SELECT count(*) FROM ({sql}) q)")
        params.extend(more)
    for queryset in (rows or {}).values():
        sql, more = queryset.query.sql_with_params()
        selects.append(
            "(SELECT coalesce(jsonb_agg(to_jsonb(q) ORDER BY to_jsonb(q)::text), '[]'::jsonb)"
            f" FROM ({sql}) q)"
        )
        params.extend(more)
    with connection.cursor() as cursor:
        cursor.execute("SELECT " + ", ".join(selects), params)
        values = list(cursor.fetchone())
    names = list(counts)
    return {
        "counts": dict(zip(names, values[: len(names)], strict=True)),
        "rows": {
            name: json.loads(value)
            if isinstance(value, str)
            else value  # Django reads jsonb as text
            for name, value in zip(list(rows or {}), values[len(names) :], strict=True)
        },
    }
