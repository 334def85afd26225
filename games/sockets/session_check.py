"""Is a socket's session still good? The check every play, claim and resync makes (issue 19).

``is_valid`` runs once per action a socket sends, in the socket pool, so its cost is paid per
move: with the ORM it was about half the cost of the move's push (a query built and compiled
each time, the session's data unsigned and parsed, an HMAC for the auth hash). Two things make
it cheap without making it weaker:

- **One fixed statement** for the database session engines (``db``, ``cached_db``): the user's
  password and the session's data in one ``SELECT`` built once per (user model, session model,
  database), as ``games.play.writes`` does for the writer. The database is still asked on every
  call: an expired or deleted session, a deactivated or deleted user, a changed password are
  seen at once.
- **The verdict of the row's content kept** (``_verdicts``): whether a session's data signs in
  a user with a given password hash is a pure function of that data, that hash, the user id and
  the settings it reads (secret keys, backends, serializer), all in the key. The same content
  gives the same verdict, so it is computed once; any change of the row is a new key.

Other session engines (``cache``, ``file``, ``signed_cookies``) keep the generic path: the
store's ``load`` and the ORM (two queries' worth of work).
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib.auth import (
    BACKEND_SESSION_KEY,
    HASH_SESSION_KEY,
    SESSION_KEY,
    get_user_model,
)
from django.contrib.sessions.backends.base import SessionBase
from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore
from django.db import connections, router
from django.db.models import Model
from django.utils import timezone
from django.utils.crypto import constant_time_compare

#: Verdicts kept at most (then the dict starts again): a key holds a session's data and a
#: password hash (~0.5 kB), so the cache stays under a few MB whatever the process serves.
MAX_VERDICTS = 4096
_verdicts: dict[tuple[Any, ...], bool] = {}
#: The statement per (user model, session model, database alias): finite.
_statements: dict[tuple[type[Model], type[Model], str], str] = {}


def is_valid(session_key: str, user_id: int) -> bool:
    """Whether ``session_key`` still signs in ``user_id``, by the rules Django applies to a
    request: the session exists and has not expired, it names this user and a configured
    backend, the user is active, and the session's auth hash matches the user's current
    password (``SECRET_KEY_FALLBACKS`` accepted, as Django does).

    One query for database-backed sessions (``db``, ``cached_db``: the database holds every
    session); two for other engines. Never raises for a missing user or session: False.
    """
    store_class: type[SessionBase] = import_module(settings.SESSION_ENGINE).SessionStore
    if issubclass(store_class, DatabaseSessionStore):
        row = _read_row(store_class.get_model_class(), session_key, user_id)
        if row is None or row[1] is None:
            return False
        return _verdict(store_class, row[1], user_id, row[0])
    data = store_class(session_key).load()
    password: str | None = (
        get_user_model()
        .objects.filter(pk=user_id, is_active=True)
        .values_list("password", flat=True)
        .first()
    )
    if password is None or not data:
        return False
    return _signs_in(data, user_id, password)


def _statement(user_model: type[Model], session_model: type[Model], alias: str) -> str:
    """The user's password and, when the session lives, its data (NULL otherwise): the same
    row as ``users.annotate(session_data=Subquery(sessions…))``, without compiling it."""
    key = (user_model, session_model, alias)
    sql = _statements.get(key)
    if sql is None:
        quote = connections[alias].ops.quote_name
        users, sessions = user_model._meta, session_model._meta

        def column(meta: Any, name: str) -> str:
            return quote(str(meta.get_field(name).column))

        sql = _statements[key] = (
            f"SELECT u.{column(users, 'password')}, "
            f"(SELECT s.{column(sessions, 'session_data')} FROM {quote(sessions.db_table)} s "
            f"WHERE s.{column(sessions, 'session_key')} = %s "
            f"AND s.{column(sessions, 'expire_date')} > %s LIMIT 1) "
            f"FROM {quote(users.db_table)} u "
            f"WHERE u.{column(users, users.pk.name)} = %s AND u.{column(users, 'is_active')} = %s"
        )
    return sql


def _read_row(
    session_model: type[Model], session_key: str, user_id: int
) -> tuple[str, str | None] | None:
    """(password, session data or None) of an active user, None when there is none."""
    user_model = get_user_model()
    alias = router.db_for_read(user_model)
    connection = connections[alias]
    sql = _statement(user_model, session_model, alias)
    now = connection.ops.adapt_datetimefield_value(timezone.now())  # as the ORM sends it
    user_pk = user_model._meta.pk
    assert user_pk is not None  # (a model always has one)
    with connection.cursor() as cursor:
        cursor.execute(
            sql, [session_key, now, user_pk.get_db_prep_value(user_id, connection), True]
        )
        row = cursor.fetchone()
    return None if row is None else (row[0], row[1])


def _verdict(
    store_class: type[SessionBase], session_data: str, user_id: int, password: str
) -> bool:
    """``_signs_in`` of the decoded ``session_data``, computed once per content and settings."""
    key = (
        store_class,
        session_data,
        str(user_id),
        password,
        settings.SECRET_KEY,
        tuple(settings.SECRET_KEY_FALLBACKS),
        tuple(settings.AUTHENTICATION_BACKENDS),
        settings.SESSION_SERIALIZER,
    )
    verdict = _verdicts.get(key)
    if verdict is None:
        verdict = _signs_in(store_class().decode(session_data), user_id, password)
        if len(_verdicts) >= MAX_VERDICTS:
            _verdicts.clear()  # a bound, not an LRU: refilling costs one decode per session
        _verdicts[key] = verdict
    return verdict


def _signs_in(data: dict[str, Any], user_id: int, password: str) -> bool:
    if str(data.get(SESSION_KEY)) != str(user_id):
        return False
    if data.get(BACKEND_SESSION_KEY) not in settings.AUTHENTICATION_BACKENDS:
        return False
    session_hash = data.get(HASH_SESSION_KEY)
    if not session_hash:
        return False
    user = get_user_model()(pk=user_id, password=password)
    hashes = [user.get_session_auth_hash(), *user.get_session_auth_fallback_hash()]
    return any(constant_time_compare(session_hash, expected) for expected in hashes)
