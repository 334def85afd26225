"""Settings read from the environment: production is locked down, the embedded default works.

Settings are read once per process: each case reads them afresh (``read_settings``: the module run
again in this process, under another name) or starts a fresh subprocess (``run_django``) where
what it checks is the whole start.
"""

from __future__ import annotations

import json
import os
import runpy
import secrets
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pytest
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent
# Every variable settings read; each case starts from none of them.
SETTINGS_VARS = (
    "DJANGO_DEBUG",
    "DJANGO_SECRET_KEY",
    "DJANGO_ALLOWED_HOSTS",
    "DJANGO_CSRF_TRUSTED_ORIGINS",
    "DATABASE_URL",
    "REDIS_URL",
    "EMAIL_HOST",
)


def run_django(args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in SETTINGS_VARS}
    clean["DJANGO_SETTINGS_MODULE"] = "config.settings"
    return subprocess.run(
        [sys.executable, *args],
        cwd=BASE_DIR,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def production_env() -> dict[str, str]:
    return {
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_ALLOWED_HOSTS": "example.com",
        "DATABASE_URL": os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/test"),
        "REDIS_URL": "redis://127.0.0.1:6379/0",
    }


def read_settings(names: list[str], **env: str) -> dict:
    """The settings ``names`` as config/settings.py computes them from ``env`` (and none of
    SETTINGS_VARS otherwise), through JSON as a process would print them. The module runs
    afresh in this process, under another name, with the environment swapped for the time of
    its run: this process's own settings (read once, by Django) are untouched, and no
    subprocess spends seconds of CPU importing the project for a few values. What needs a whole
    start (``manage.py check``, a refusal to start) still runs in a subprocess (``run_django``)."""
    clean = {k: v for k, v in os.environ.items() if k not in SETTINGS_VARS}
    # Settings start Sentry when given a DSN (config.errors.init): never in the test process.
    with mock.patch.dict(os.environ, {**clean, "SENTRY_DSN": "", **env}, clear=True):
        module = runpy.run_path(str(BASE_DIR / "config" / "settings.py"), run_name="settings_read")
    return json.loads(json.dumps({n: module.get(n) for n in names}, default=str))


def test_check_deploy_is_clean_with_production_env() -> None:
    """`manage.py check --deploy` reports nothing with the production variables set."""
    result = run_django(
        ["manage.py", "check", "--deploy", "--fail-level", "DEBUG"], **production_env()
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout


def test_production_is_https_only() -> None:
    """With DEBUG off: SSL redirect, secure cookies, a year of HSTS with preload."""
    values = read_settings(
        [
            "DEBUG",
            "SECURE_SSL_REDIRECT",
            "SESSION_COOKIE_SECURE",
            "CSRF_COOKIE_SECURE",
            "SECURE_HSTS_SECONDS",
            "SECURE_HSTS_INCLUDE_SUBDOMAINS",
            "SECURE_HSTS_PRELOAD",
            "SECURE_PROXY_SSL_HEADER",
            "ALLOWED_HOSTS",
        ],
        **production_env(),
    )
    assert values == {
        "DEBUG": False,
        "SECURE_SSL_REDIRECT": True,
        "SESSION_COOKIE_SECURE": True,
        "CSRF_COOKIE_SECURE": True,
        "SECURE_HSTS_SECONDS": 31536000,
        "SECURE_HSTS_INCLUDE_SUBDOMAINS": True,
        "SECURE_HSTS_PRELOAD": True,
        "SECURE_PROXY_SSL_HEADER": ["HTTP_X_FORWARDED_PROTO", "https"],
        "ALLOWED_HOSTS": ["example.com"],
    }


def test_missing_secret_key_refuses_to_start_in_production() -> None:
    """DEBUG off without DJANGO_SECRET_KEY fails loudly instead of using a known key."""
    env = production_env()
    del env["DJANGO_SECRET_KEY"]
    with pytest.raises(ImproperlyConfigured, match="DJANGO_SECRET_KEY must be set"):
        read_settings(["SECRET_KEY"], **env)  # as a process reads them on its start


def test_embedded_default_is_sqlite_wal_and_private_redis() -> None:
    """With nothing set but DEBUG: SQLite in the project (WAL, IMMEDIATE) and the private Redis."""
    values = read_settings(
        ["DATABASES", "REDIS_URL", "CELERY_BROKER_URL", "CELERY_TASK_ALWAYS_EAGER"],
        DJANGO_DEBUG="1",
    )
    database = values["DATABASES"]["default"]
    assert database["ENGINE"] == "django.db.backends.sqlite3"
    assert database["NAME"] == str(BASE_DIR / "db.sqlite3")
    assert database["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert "journal_mode=WAL" in database["OPTIONS"]["init_command"]
    assert values["REDIS_URL"].startswith("unix://") and "redis.sock" in values["REDIS_URL"]
    assert values["CELERY_BROKER_URL"].startswith("redis+socket://")
    assert values["CELERY_TASK_ALWAYS_EAGER"] is False


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("redis://127.0.0.1:6379/0", "redis://127.0.0.1:6379/0"),
        ("unix:///tmp/r.sock?db=3", "redis+socket:///tmp/r.sock?virtual_host=3"),
        ("unix:///tmp/r.sock", "redis+socket:///tmp/r.sock?virtual_host=0"),
    ],
)
def test_kombu_url(url: str, expected: str) -> None:
    """Celery gets its own spelling of a unix-socket Redis URL; TCP URLs pass unchanged."""
    from config.embedded_redis import kombu_url

    assert kombu_url(url) == expected


@pytest.mark.parametrize(
    ("value", "proxies"),
    [(None, ["127.0.0.1", "::1"]), ("10.0.0.5, ,10.0.0.6", ["10.0.0.5", "10.0.0.6"]), ("", [])],
)
def test_the_trusted_proxies_default_to_this_host_and_can_be_none(value, proxies) -> None:
    """Unset: nginx on this host; a list as written, blanks dropped; set empty: no proxy."""
    env = {"DJANGO_DEBUG": "1"}
    if value is not None:
        env["GAMES_TRUSTED_PROXIES"] = value
    with mock.patch.dict(os.environ):
        os.environ.pop("GAMES_TRUSTED_PROXIES", None)
        values = read_settings(["GAMES_TRUSTED_PROXIES"], **env)
    assert values == {"GAMES_TRUSTED_PROXIES": proxies}
