"""The data side of a load run: the bench database, Redis keys, and tables made by the app.

``create_database`` (re)creates the dedicated PostgreSQL database and ``migrate`` runs the app's
migrations into it. ``Django`` sets Django up in the benchmark process against the same
database (call it once, after the environment is final) and makes users, sessions and started
tables through the app's own code (``accounts.models.User``, ``games.play.stewarding``). ``PgStats``
reads ``pg_stat_database`` for the bench database from a separate connection to ``postgres``
(so its own reads are not counted there).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import psycopg

ADMIN_URL = "postgres://postgres@127.0.0.1:5432/postgres"


def create_database(name: str, admin_url: str = ADMIN_URL) -> None:
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def drop_database(name: str, admin_url: str = ADMIN_URL) -> None:
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def migrate(python: str, app_dir: Path, env: dict) -> None:
    """Migrate the bench database and collect the static files (production settings serve
    the hashed copies, as the README's deploy steps do)."""
    subprocess.run(
        [python, "manage.py", "migrate", "-v0"], cwd=app_dir, env=env, check=True, timeout=300
    )
    subprocess.run(
        [python, "manage.py", "collectstatic", "--noinput", "-v0"],
        cwd=app_dir,
        env=env,
        check=True,
        timeout=300,
    )


def clear_redis(url: str, prefix: str) -> int:
    """Delete every key of this run's namespace (channel groups, the Celery queue)."""
    import redis

    client = redis.Redis.from_url(url)
    keys = list(client.scan_iter(match=f"{prefix}*", count=1000))
    keys += list(client.scan_iter(match=f"_kombu.binding.{prefix}*", count=1000))
    for start in range(0, len(keys), 500):
        client.delete(*keys[start : start + 500])
    client.close()
    return len(keys)


class PgStats:
    """Counters of the bench database in ``pg_stat_database`` (PostgreSQL 14+: ``sessions``)."""

    FIELDS = (
        "numbackends",
        "xact_commit",
        "xact_rollback",
        "sessions",
        "tup_returned",
        "tup_fetched",
        "tup_inserted",
        "tup_updated",
        "tup_deleted",
    )

    def __init__(self, dbname: str, admin_url: str = ADMIN_URL) -> None:
        self.dbname = dbname
        self.conn = psycopg.connect(admin_url, autocommit=True)
        self.peak_backends = 0
        self.settings = dict(
            self.conn.execute(
                "SELECT name, setting FROM pg_settings WHERE name IN "
                "('shared_preload_libraries', 'max_connections')"
            ).fetchall()
        )
        # pg_stat_statements counts statements server-side, but only when the server preloads
        # it (a restart); with it, the view must exist in the database read from (postgres).
        self.statements = False
        if "pg_stat_statements" in self.settings.get("shared_preload_libraries", ""):
            self.statements = bool(
                self.conn.execute(
                    "SELECT 1 FROM pg_extension WHERE extname = 'pg_stat_statements'"
                ).fetchone()
            )
        self.settings["pg_stat_statements"] = (
            "used"
            if self.statements
            else ("not used: needs shared_preload_libraries and CREATE EXTENSION in postgres")
        )

    def read(self) -> dict:
        row = self.conn.execute(
            f"SELECT {', '.join(self.FIELDS)} FROM pg_stat_database WHERE datname = %s",
            [self.dbname],
        ).fetchone()
        data = dict(zip(self.FIELDS, row or [0] * len(self.FIELDS), strict=True))
        if self.statements:
            data["statement_calls"] = int(
                self.conn.execute(
                    "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements WHERE dbid = "
                    "(SELECT oid FROM pg_database WHERE datname = %s)",
                    [self.dbname],
                ).fetchone()[0]
            )
        return data

    def sample_backends(self) -> None:
        """Connections open to the bench database now (sampled by the Meter's thread)."""
        try:
            with psycopg.connect(ADMIN_URL, autocommit=True) as conn:
                count = conn.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = %s", [self.dbname]
                ).fetchone()[0]
            self.peak_backends = max(self.peak_backends, count)
        except psycopg.Error:
            pass

    def close(self) -> None:
        self.conn.close()


class Django:
    """The app's own code, in this process, against the bench database."""

    def __init__(self, app_dir: Path) -> None:
        sys.path.insert(0, str(app_dir))
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
        import django

        django.setup()

    def users(self, count: int) -> list:
        from accounts.models import User

        have = list(User.objects.filter(username__startswith="bench").order_by("pk"))
        for n in range(len(have), count):
            have.append(User.objects.create_user(f"bench{n:04d}", password=None))
        return have[:count]

    def session_keys(self, users: list) -> dict[int, str]:
        """A logged-in session per user, as ``login`` would store it."""
        from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
        from django.contrib.sessions.backends.db import SessionStore

        keys = {}
        for user in users:
            store = SessionStore()
            store[SESSION_KEY] = str(user.pk)
            store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
            store[HASH_SESSION_KEY] = user.get_session_auth_hash()
            store.create()
            keys[user.pk] = store.session_key
        return keys

    def open_tables(self, count: int, users: list, options: dict, label: str) -> list[dict]:
        """``count`` started 4-seat tables of humans; each as ``{id, seats: [{seat, user}]}``."""
        from games.play import stewarding

        tables = []
        for n in range(count):
            four = [users[(4 * n + k) % len(users)] for k in range(4)]
            table = stewarding.open_table(
                four[0],
                name=f"{label} {n + 1}",
                options=options,
                seats=[(u, "") for u in four],
                start=True,
            )
            tables.append(
                {"id": table.pk, "seats": [{"seat": k, "user": u.pk} for k, u in enumerate(four)]}
            )
        return tables

    def abandon(self, table_ids: list[int]) -> None:
        """Stop the tables (their pending timers then do nothing)."""
        from games.play import stewarding
        from games.play.tables import TableError

        for table_id in table_ids:
            try:
                stewarding.abandon(table_id)
            except TableError:
                pass  # already over
