"""Count the SQL statements and new database connections of a Daphne or Celery process.

The load benchmark starts the app's own entry points through this module, unchanged except for
one execute wrapper per database connection:

    daphne load_sqlcount:application        # = config.asgi:application, counted
    celery -A load_sqlcount worker ...       # = config.celery app, counted

(``bench/`` is on PYTHONPATH.) Every statement Django sends through a cursor
(``connection.execute_wrappers``, one ``executemany`` counts once) and every new connection
(the ``connection_created`` signal) adds one to this process's counters. A daemon thread writes
them every ``LOAD_SQLCOUNT_SECONDS`` (0.2 s) to ``$LOAD_SQLCOUNT_DIR/<role>-<pid>.json``; the
benchmark reads the files before and after a step. Forked Celery children count for themselves
(the thread starts in whichever process runs the first statement).
"""

from __future__ import annotations

import json
import os
import threading
import time

_lock = threading.Lock()
_counts = {"statements": 0, "connections": 0}
_writer_pid: int | None = None
ROLE = os.environ.get("LOAD_SQLCOUNT_ROLE", "proc")


def _count(key: str) -> None:
    global _writer_pid
    with _lock:
        _counts[key] += 1
        start = _writer_pid != os.getpid()
        if start:
            _writer_pid = os.getpid()
    if start:
        threading.Thread(target=_write_forever, name="sqlcount", daemon=True).start()


def _write_forever() -> None:
    directory = os.environ.get("LOAD_SQLCOUNT_DIR")
    if not directory:
        return
    pid = os.getpid()
    path = os.path.join(directory, f"{ROLE}-{pid}.json")
    interval = float(os.environ.get("LOAD_SQLCOUNT_SECONDS", "0.2"))
    while _writer_pid == pid:
        with _lock:
            data = {"role": ROLE, "pid": pid, "t": time.time(), **_counts}
        tmp = f"{path}.tmp"
        with open(tmp, "w") as out:
            json.dump(data, out)
        os.replace(tmp, path)
        time.sleep(interval)


def _wrapper(execute, sql, params, many, context):
    _count("statements")
    return execute(sql, params, many, context)


def _on_connection(sender, connection, **kwargs) -> None:
    _count("connections")
    if _wrapper not in connection.execute_wrappers:
        connection.execute_wrappers.append(_wrapper)


def install() -> None:
    """Count from now on (idempotent)."""
    from django.db.backends.signals import connection_created

    connection_created.connect(_on_connection, dispatch_uid="load_sqlcount")


def __getattr__(name: str):
    """``application`` is the counted ASGI app; ``app`` the counted Celery app."""
    if name == "application":
        from config.asgi import application

        install()
        return application
    if name in ("app", "celery"):
        import django

        from config.celery import app

        django.setup()
        install()
        return app
    raise AttributeError(name)
