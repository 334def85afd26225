"""The writer's statements for one move, as fixed SQL (issue 19): no query compiled per move, no
model instance built only to be saved and thrown away.

The ORM compiles every statement again on every call (``Match.save``: ~1.0 ms of CPU on this
box; the same ``UPDATE`` as a fixed statement: ~0.4 ms). A move takes four statements whose
shape never changes (two on PostgreSQL, where the third rides in the first and the fourth in
the last), so the writer (``games.play.services.apply_locked``) sends them as prepared text:

- ``lock_match``: the match and its table in one ``SELECT … FOR UPDATE`` (both rows locked, as
  ``select_for_update().select_related("table")`` locks them), built with ``from_db``;
- ``client_id_seen``: was a move with this client id logged for the match (a resent message);
  on PostgreSQL ``lock_match(…, client_id)`` answers it in the lock's own statement when that
  answer is the one a statement after the lock would give (``seen_at_lock``);
- ``insert_move``: one ``Move`` row;
- ``save_match``: ``UPDATE`` of the locked match by primary key, with ``state`` and only the
  other columns whose value differs from the one read with the lock (``Match.from_db`` keeps
  those values, ``loaded_values``); on PostgreSQL the move's ``INSERT`` rides in it.

and ``read_seats``, a table's seats with their people, for ``services.seats_of`` when the ones
it kept are not the rows' current versions. On PostgreSQL ``lock_match`` also reads the seats'
*stamp* (``seats_stamp``): each seat row's id, its version's ``xmin`` and ``ctid``, and its
person's row's, by seat number. ``xmin`` is the transaction that wrote a row's current version
and ``ctid`` where it is stored: every write of a row (a save, ``QuerySet.update``, raw SQL) makes
a new version at another place, and a place freed later is only reused by another transaction's
version, so a row's (``xmin``, ``ctid``) names its content; a rolled-back write leaves the old
version current. Seats read with a stamp are the rows' current content exactly as long as the
stamp is the same. Reading the stamp costs the lock's statement a subquery, no
round trip; ``read_seats_stamped`` reads the same stamp with the rows.

Values go through each field's own ``get_db_prep_save`` (JSON, aware datetimes), so the rows
equal what ``Model.save`` writes, on PostgreSQL and on SQLite (``make run``). Every function
runs inside the writer's transaction, under the match row lock (DESIGN.md rule 1).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, NamedTuple

from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.backends.base.base import BaseDatabaseWrapper

from accounts.models import User
from games.models import Match, Move, Seat, Table

#: The match columns a move may change beside ``state`` (always written: it holds the version).
TRACKED = (
    "version",
    "phase",
    "round_no",
    "level_team0",
    "level_team1",
    "deadline",
    "deadline_kind",
    "deadline_token",
    "winner_team",
    "finished_at",
    "timeouts_in_row",
)
_MISSING = object()
_MATCH_FIELDS: dict[str, Any] = {name: Match._meta.get_field(name) for name in ("state", *TRACKED)}
_MOVE_COLUMNS = ("match", "seq", "round_no", "seat", "action", "events", "client_id", "by_ai")
_MOVE_FIELDS: list[Any] = [Move._meta.get_field(name) for name in (*_MOVE_COLUMNS, "created_at")]
_INSERT_MOVE = (
    f"INSERT INTO {connection.ops.quote_name(Move._meta.db_table)} "
    f"({', '.join(connection.ops.quote_name(f.column) for f in _MOVE_FIELDS)}) "
    f"VALUES ({', '.join(['%s'] * len(_MOVE_FIELDS))})"
)
_CLIENT_ID_SEEN = (
    f"SELECT 1 FROM {connection.ops.quote_name(Move._meta.db_table)} WHERE "
    f"{connection.ops.quote_name('match_id')} = %s AND "
    f"{connection.ops.quote_name('client_id')} = %s LIMIT 1"
)


def _columns(model: type[Match | Table | Seat | User], alias: str) -> tuple[list[Any], str]:
    fields: list[Any] = list(model._meta.concrete_fields)
    quote = connection.ops.quote_name
    return fields, ", ".join(f"{alias}.{quote(f.column)}" for f in fields)


type _Converters = list[tuple[Any, list[Any]]]
#: The lock's statement without (False) and with (True) the client id's two columns.
_LOCK: dict[bool, tuple[list[Any], list[Any], _Converters, str]] = {}


def _lock_statement(with_client_id: bool = False) -> tuple[list[Any], list[Any], _Converters, str]:
    """The fields read, their converters and the statement, built once (the backend is known
    by then). On PostgreSQL a column after the converted ones: the seats' stamp; and, with
    ``with_client_id``, two more (``_client_id_columns``: its first parameter is the client id,
    the match id comes after)."""
    if with_client_id not in _LOCK:
        quote = connection.ops.quote_name
        lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
        extra = _stamp_subquery("t")
        if with_client_id:
            extra = f"{extra}, {_client_id_columns('m')}"
        _LOCK[with_client_id] = _joined_statement(
            (Match, "m"),
            (Table, "t"),
            f"JOIN {{}} t ON t.{quote('id')} = m.{quote('table_id')}",
            f"WHERE m.{quote('id')} = %s{lock}",
            extra=extra,
        )
    return _LOCK[with_client_id]


def _client_id_columns(match_alias: str) -> str:
    """Two boolean columns (PostgreSQL only): whether the move log holds a move of the match
    with the client id (the statement's first parameter), as this statement's snapshot sees it;
    and whether the match row locked is the version that snapshot sees (same ``xmin`` and
    ``ctid``: no transaction changed the row between the statement's start and its lock).

    In READ COMMITTED a ``FOR UPDATE`` that waited behind another writer returns the row's
    newest version, but its subqueries still read the snapshot taken before the wait: a move
    committed meanwhile is not in it. Every transaction that logs a move (``insert_move``, only
    from ``services.apply_locked``) holds this row's lock and writes this row too
    (``save_match``), so when the row locked is the snapshot's version, no move of the match was
    committed between the snapshot and the lock, and the first column is what a statement run
    after the lock would read (``seen_at_lock``)."""
    quote = connection.ops.quote_name
    return (
        f"EXISTS (SELECT 1 FROM {quote(Move._meta.db_table)} mv "
        f"WHERE mv.{quote('match_id')} = {match_alias}.{quote('id')} "
        f"AND mv.{quote('client_id')} = %s), "
        f"(SELECT m0.xmin = {match_alias}.xmin AND m0.ctid = {match_alias}.ctid "
        f"FROM {quote(Match._meta.db_table)} m0 "
        f"WHERE m0.{quote('id')} = {match_alias}.{quote('id')})"
    )


def _stamped() -> bool:
    return connection.vendor == "postgresql"


def _stamp_subquery(table_alias: str) -> str:
    """The seats' stamp of the table ``table_alias`` as one text: ``<seat id>:<xmin>:<ctid>:<its
    person's xmin>:<ctid>`` (``-`` for no person) by seat number, ``;``-separated (NULL without
    seats); "" off PostgreSQL."""
    if not _stamped():
        return ""
    quote = connection.ops.quote_name
    return (
        f"(SELECT string_agg(s.{quote('id')}::text || ':' || s.xmin::text || ':' || "
        f"s.ctid::text || ':' || COALESCE(u.xmin::text, '-') || ':' || "
        f"COALESCE(u.ctid::text, '-'), ';' ORDER BY s.{quote('number')}) "
        f"FROM {quote(Seat._meta.db_table)} s LEFT JOIN {quote(User._meta.db_table)} u "
        f"ON u.{quote('id')} = s.{quote('user_id')} "
        f"WHERE s.{quote('table_id')} = {table_alias}.{quote('id')})"
    )


def _joined_statement(
    rows: tuple[type[Match | Seat], str],
    joined: tuple[type[Table | User], str],
    join: str,
    tail: str,
    extra: str = "",
) -> tuple[list[Any], list[Any], _Converters, str]:
    """Every column of two models in one SELECT: ``rows`` (model, alias) in FROM, ``joined``
    by ``join`` (its ``{}`` is the joined table's quoted name), then ``tail`` (WHERE…); the
    ``extra`` expressions (unconverted) after the columns. Gives both models' fields, the
    converters of every column in order, and the statement."""
    quote = connection.ops.quote_name
    (first, first_alias), (second, second_alias) = rows, joined
    first_fields, first_columns = _columns(first, first_alias)
    second_fields, second_columns = _columns(second, second_alias)
    sql = (
        f"SELECT {first_columns}, {second_columns}{', ' + extra if extra else ''} "
        f"FROM {quote(first._meta.db_table)} {first_alias} "
        f"{join.format(quote(second._meta.db_table))} {tail}"
    )
    converters = _converters(((first_alias, first_fields), (second_alias, second_fields)))
    return first_fields, second_fields, converters, sql


def _converters(aliased: tuple[tuple[str, list[Any]], ...]) -> _Converters:
    """What the ORM applies to each column's value, in order."""
    converters = []
    for alias, fields in aliased:
        for field in fields:
            column = field.get_col(alias)
            found = connection.ops.get_db_converters(column)
            converters.append((column, found + field.get_db_converters(connection)))
    return converters


def _converted(converters: _Converters, values: tuple[Any, ...]) -> list[Any]:
    """Row values as Python values, through the converters the ORM applies to them."""
    out = []
    for (column, functions), value in zip(converters, values, strict=True):
        for convert in functions:
            value = convert(value, column, connection)
        out.append(value)
    return out


def lock_match(match_id: int, client_id: str = "") -> Match:
    """The match ``match_id`` with its table (``match.table``), both rows locked until the
    transaction ends, and (PostgreSQL) its seats' stamp as they were then (``seats_stamp``).
    With a ``client_id`` (not empty, PostgreSQL), the same statement also reads whether a move
    with it was logged (``seen_at_lock``). Raises ``Match.DoesNotExist``. Precondition: inside
    a transaction."""
    folded = bool(client_id) and _stamped()
    match_fields, table_fields, converters, sql = _lock_statement(folded)
    with connection.cursor() as cursor:
        cursor.execute(sql, [client_id, match_id] if folded else [match_id])
        row = cursor.fetchone()
    if row is None:
        raise Match.DoesNotExist(f"no match {match_id}")
    split, end = len(match_fields), len(converters)
    db = connection.alias
    match = Match.from_db(
        db, [f.attname for f in match_fields], _converted(converters[:split], row[:split])
    )
    match.table = Table.from_db(
        db, [f.attname for f in table_fields], _converted(converters[split:], row[split:end])
    )
    if len(row) > end:
        match._seats_stamp = (match.table.revision, row[end])  # type: ignore[attr-defined]
    if folded:
        seen, unchanged = row[end + 1], row[end + 2]
        # Seen in the snapshot: committed, so seen after the lock too. Not seen: the answer
        # holds only when no writer changed the row between the snapshot and the lock.
        if seen or unchanged:
            match._client_id_seen = (client_id, bool(seen))  # type: ignore[attr-defined]
    return match


def seats_stamp(match: Match) -> str | None:
    """The seats' stamp ``lock_match`` read with ``match``, once: None on a second call, for a
    match read otherwise, on SQLite, at a table without seats, or once the table's revision
    moved since the lock (its seating changed in this transaction). Taken once because this
    transaction's own later writes to the seats do not change it."""
    locked = match.__dict__.pop("_seats_stamp", None)
    if locked is None or locked[0] != match.table.revision:
        return None
    stamp: str | None = locked[1]
    return stamp


_SEATS: tuple[list[Any], list[Any], _Converters, str] | None = None


def _seats_statement() -> tuple[list[Any], list[Any], _Converters, str]:
    global _SEATS
    if _SEATS is None:
        quote = connection.ops.quote_name
        _SEATS = _joined_statement(
            (Seat, "s"),
            (User, "u"),
            f"LEFT JOIN {{}} u ON u.{quote('id')} = s.{quote('user_id')}",
            f"WHERE s.{quote('table_id')} = %s ORDER BY s.{quote('number')}",
            extra="s.xmin::text, s.ctid::text, u.xmin::text, u.ctid::text" if _stamped() else "",
        )
    return _SEATS


def read_seats(table_id: int) -> list[Seat]:
    """The table's seats by number, each with its person (``seat.user``, None on an empty or
    AI seat) loaded: what ``Seat.objects.filter(table_id=…).select_related("user")`` returns,
    from one fixed statement (the ORM compiles that query again at every call)."""
    return read_seats_stamped(table_id)[0]


def read_seats_stamped(table_id: int) -> tuple[list[Seat], str | None]:
    """``read_seats`` and the stamp of the rows read (as ``lock_match`` reads it; None on
    SQLite or without seats)."""
    seat_fields, user_fields, converters, sql = _seats_statement()
    with connection.cursor() as cursor:
        cursor.execute(sql, [table_id])
        rows = cursor.fetchall()
    split, end = len(seat_fields), len(converters)
    db = connection.alias
    seat_names = [f.attname for f in seat_fields]
    user_names = [f.attname for f in user_fields]
    cache_user = Seat._meta.get_field("user").set_cached_value
    seats = []
    for row in rows:
        seat = Seat.from_db(db, seat_names, _converted(converters[:split], row[:split]))
        user = None
        if seat.user_id is not None:
            user = User.from_db(db, user_names, _converted(converters[split:], row[split:end]))
        cache_user(seat, user)
        seats.append(seat)
    if not rows or len(rows[0]) == end:
        return seats, None
    return seats, ";".join(
        f"{seat.pk}:{row[end]}:{row[end + 1]}:{row[end + 2] or '-'}:{row[end + 3] or '-'}"
        for seat, row in zip(seats, rows, strict=True)
    )


def loaded_values(match: Match) -> dict[str, Any]:
    """The row's values as read with the lock (``Match.from_db``) or last written here, by
    field name; empty for a match never read (then every tracked column is written)."""
    values: dict[str, Any] = getattr(match, "_loaded_values", {})
    return values


def remember(match: Match) -> None:
    """Note the tracked columns' current values as the row's, after writing them."""
    match.note_row(("state", *TRACKED))


def changed_columns(match: Match) -> list[str]:
    """The tracked fields of ``match`` whose value differs from the row's (all the loaded ones
    when the row's values are unknown). A deferred field never loaded has not changed."""
    before = loaded_values(match)
    loaded = match.__dict__
    return [
        name for name in TRACKED if name in loaded and before.get(name, _MISSING) != loaded[name]
    ]


class MoveRow(NamedTuple):
    """One ``Move`` row, as ``insert_move`` takes it."""

    match_id: int
    seq: int
    round_no: int
    seat: int | None
    action: dict[str, Any]
    events: list[dict[str, Any]]
    client_id: str
    created_at: datetime
    by_ai: bool = False


def save_match(match: Match, move: MoveRow | None = None) -> int:
    """``UPDATE`` the match row by primary key: ``state`` and the changed tracked columns; with
    ``move``, log it first (``insert_move``, same errors) — on PostgreSQL in the same statement
    (the ``INSERT`` in a ``WITH``, run to completion whatever the ``UPDATE`` reads: one round
    trip). Returns the number of columns written (≥ 1). Precondition: the row is locked."""
    db = connections[DEFAULT_DB_ALIAS]  # (``connection`` looks the thread's up at every use)
    names = ["state", *changed_columns(match)]
    fields = [_MATCH_FIELDS[name] for name in names]
    quote = db.ops.quote_name
    assignments = ", ".join(f"{quote(f.column)} = %s" for f in fields)
    params = [f.get_db_prep_save(getattr(match, f.attname), db) for f in fields]
    sql = f"UPDATE {quote(Match._meta.db_table)} SET {assignments} WHERE {quote('id')} = %s"
    params.append(match.pk)
    if move is not None and db.vendor == "postgresql":  # (SQLite has no INSERT in a WITH)
        sql = f"WITH logged AS ({_INSERT_MOVE}) {sql}"
        params[:0] = _move_params(move, db)
    elif move is not None:
        insert_move(*move)
    with db.cursor() as cursor:
        cursor.execute(sql, params)
    remember(match)
    return len(names)


def insert_move(
    match_id: int,
    seq: int,
    round_no: int,
    seat: int | None,
    action: dict[str, Any],
    events: list[dict[str, Any]],
    client_id: str,
    created_at: datetime,
    by_ai: bool = False,
) -> None:
    """Log one move (``Move``: ``seq`` is the version it made; ``action``/``events`` engine
    JSON; ``by_ai``: an AI policy chose it). A second move with the same ``seq`` or client id
    raises ``IntegrityError`` (the constraints), which rolls the writer's transaction back."""
    db = connections[DEFAULT_DB_ALIAS]
    row = MoveRow(match_id, seq, round_no, seat, action, events, client_id, created_at, by_ai)
    with db.cursor() as cursor:
        cursor.execute(_INSERT_MOVE, _move_params(row, db))


def _move_params(row: MoveRow, db: BaseDatabaseWrapper) -> list[Any]:
    """``_INSERT_MOVE``'s parameters for ``row``, as ``Model.save`` prepares them for ``db``."""
    values = (*row[:7], row.by_ai, row.created_at)  # the statement's column order
    return [f.get_db_prep_save(v, db) for f, v in zip(_MOVE_FIELDS, values, strict=True)]


def seen_at_lock(match: Match, client_id: str) -> bool:
    """Whether the match's move log holds a move with ``client_id`` (not empty), as a statement
    run now, after ``lock_match``, would read it: the answer ``lock_match(match.pk, client_id)``
    read with the lock when it holds (``_client_id_columns``), else ``client_id_seen`` (another
    client id, SQLite, or a row another writer changed while this one waited for its lock).
    Precondition: the caller holds the match row lock."""
    folded = match.__dict__.pop("_client_id_seen", None)
    if folded is not None and folded[0] == client_id:
        seen: bool = folded[1]
        return seen
    return client_id_seen(match.pk, client_id)


def client_id_move(match_id: int, client_id: str) -> tuple[int | None, dict[str, Any]] | None:
    """The seat (None: the clock's) and the action (``codec.action_to_json``'s JSON) of the
    move logged with ``client_id`` in the match, or None. Asked only once the id was seen (a
    resend, or the id reused for another move), so a plain query."""
    logged = (
        Move.objects.filter(match_id=match_id, client_id=client_id)
        .values_list("seat", "action")
        .first()
    )
    return None if logged is None else (logged[0], logged[1])


def client_id_seen(match_id: int, client_id: str) -> bool:
    """Whether the match's move log holds a move with ``client_id`` (not empty)."""
    with connection.cursor() as cursor:
        cursor.execute(_CLIENT_ID_SEEN, [match_id, client_id])
        return cursor.fetchone() is not None
