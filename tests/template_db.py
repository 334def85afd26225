"""The test databases, cloned from one migrated template instead of migrated one by one.

Migrating the schema from nothing costs every test process (each pytest-xdist worker) seconds of
CPU in Python and in PostgreSQL; PostgreSQL copies a database from a template in a fraction of
that. The first process that needs it builds ``<test name>_tpl_<digest>`` with ``manage.py
migrate`` (holding an advisory lock, so parallel workers wait for that one build rather than
each building), then every process clones its own test database from it. The digest covers
every migration file of the project and Django's version: a changed migration builds a new
template, and building one drops the older templates of the same name. A template is never
connected to by a test, so the copy is the migrated schema and its migrations' data, nothing
more.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import django
import psycopg
from psycopg import sql

ROOT = Path(__file__).resolve().parent.parent
APPS = ("accounts", "games", "leagues")
#: The advisory lock every process of every run on this server takes around a build or a clone.
LOCK_KEY = 414_0414


def migrations_digest() -> str:
    """A short hash of every migration file (path and bytes) and Django's version."""
    digest = hashlib.sha256(django.get_version().encode())
    for path in sorted(p for app in APPS for p in (ROOT / app).glob("migrations/*.py")):
        digest.update(str(path.relative_to(ROOT)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def _server(db: dict) -> psycopg.Connection:
    """An autocommit connection to the server's ``postgres`` database (CREATE/DROP DATABASE
    run outside a transaction)."""
    return psycopg.connect(
        dbname="postgres",
        user=db.get("USER") or None,
        password=db.get("PASSWORD") or None,
        host=db.get("HOST") or None,
        port=db.get("PORT") or None,
        autocommit=True,
    )


def _exists(server: psycopg.Connection, name: str) -> bool:
    return (
        server.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        is not None
    )


def _drop(server: psycopg.Connection, name: str) -> None:
    server.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


def _build(server: psycopg.Connection, db: dict, template: str) -> None:
    """Migrate a new database and rename it ``template``: a build that fails half-way leaves
    no template behind."""
    part = f"{template}_part"
    _drop(server, part)
    server.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(part)))
    env = dict(os.environ)
    env["DATABASE_URL"] = (
        f"postgres://{db.get('USER') or ''}@{db.get('HOST') or ''}:{db.get('PORT') or ''}/{part}"
    )
    done = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--run-syncdb", "--no-input", "-v", "0"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    if done.returncode:
        raise RuntimeError(f"the test template's migrations failed:\n{done.stderr[-4000:]}")
    server.execute(
        sql.SQL("ALTER DATABASE {} RENAME TO {}").format(
            sql.Identifier(part), sql.Identifier(template)
        )
    )
    stem = template.rsplit("_tpl_", 1)[0] + "_tpl_"
    older = server.execute(
        "SELECT datname FROM pg_database WHERE starts_with(datname, %s) AND datname <> %s",
        [stem, template],
    ).fetchall()
    for (name,) in older:
        _drop(server, name)


def clone(db: dict, test_name: str) -> None:
    """Make ``test_name`` (dropped first if it is left from an earlier run) a copy of the
    migrated template for ``db`` (Django's settings dict of the real database), building the
    template first if no process has. Raises ``RuntimeError`` (with their errors) when the
    migrations fail, ``psycopg.Error`` when the server refuses."""
    template = f"test_{db['NAME']}_tpl_{migrations_digest()}"[:63]
    with _server(db) as server:
        server.execute("SELECT pg_advisory_lock(%s)", [LOCK_KEY])
        try:
            if not _exists(server, template):
                _build(server, db, template)
            _drop(server, test_name)
            server.execute(
                sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(
                    sql.Identifier(test_name), sql.Identifier(template)
                )
            )
            # Every session on it (the tests', the test servers' and workers') commits without
            # waiting for the WAL to reach the disk: ~0.1-0.4 ms a commit instead of 1.4-2.9
            # here. Only a crash of PostgreSQL itself could lose such a commit, which no test
            # makes; the site's own settings are untouched.
            server.execute(
                sql.SQL("ALTER DATABASE {} SET synchronous_commit TO off").format(
                    sql.Identifier(test_name)
                )
            )
        finally:
            server.execute("SELECT pg_advisory_unlock(%s)", [LOCK_KEY])


def drop(db: dict, test_name: str) -> None:
    """Drop the test database ``test_name`` (closing any connection left to it)."""
    with _server(db) as server:
        _drop(server, test_name)
