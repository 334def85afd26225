"""The per-action session check (games.sockets.session_check.is_valid) against real session rows
in PostgreSQL: each way a session stops signing its user in gives False, on the first call and
after a True was kept for the same session; the database session engines cost one statement.
(The sockets' side of it — closing, dropping the play — is test_session_guard's.)"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.sessions.models import Session
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import User
from games.sockets import session_check
from games.sockets.session_check import is_valid

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_kept_verdicts():
    session_check._verdicts.clear()
    yield
    session_check._verdicts.clear()


def session_of(user: User) -> str:
    """The key of a new session signing ``user`` in (as a log-in makes it)."""
    client = Client()
    client.force_login(user)
    return client.session.session_key


def test_a_live_session_is_valid_again_and_again(make_user):
    ana = make_user("ana")
    key = session_of(ana)
    assert is_valid(key, ana.pk) is True
    assert is_valid(key, ana.pk) is True  # the kept verdict


@pytest.mark.parametrize("engine", ["db", "cached_db"])
def test_a_database_session_costs_one_statement(make_user, engine):
    ana = make_user("ana")
    with override_settings(SESSION_ENGINE=f"django.contrib.sessions.backends.{engine}"):
        key = session_of(ana)
        for _ in range(2):  # the verdict computed, then kept: one statement each time
            with CaptureQueriesContext(connection) as queries:
                assert is_valid(key, ana.pk) is True
            assert len(queries) == 1


def test_another_players_id_is_refused(make_user):
    ana, bo = make_user("ana"), make_user("bo")
    key = session_of(ana)
    assert is_valid(key, ana.pk) is True
    assert is_valid(key, bo.pk) is False
    assert is_valid(key, 10**9) is False  # nobody


def test_an_unknown_key_is_refused(make_user):
    ana = make_user("ana")
    assert is_valid("no-such-session-key-0123456789", ana.pk) is False


def test_an_expired_session_is_refused_though_its_content_was_good(make_user):
    ana = make_user("ana")
    key = session_of(ana)
    assert is_valid(key, ana.pk) is True
    Session.objects.filter(pk=key).update(expire_date=timezone.now() - timedelta(seconds=1))
    assert is_valid(key, ana.pk) is False


def test_a_deleted_session_is_refused(make_user):
    ana = make_user("ana")
    key = session_of(ana)
    assert is_valid(key, ana.pk) is True
    Session.objects.filter(pk=key).delete()
    assert is_valid(key, ana.pk) is False


def test_a_deactivated_player_is_refused(make_user):
    ana = make_user("ana")
    key = session_of(ana)
    assert is_valid(key, ana.pk) is True
    User.objects.filter(pk=ana.pk).update(is_active=False)
    assert is_valid(key, ana.pk) is False
    User.objects.filter(pk=ana.pk).update(is_active=True)
    assert is_valid(key, ana.pk) is True


def test_a_changed_password_is_refused(make_user):
    ana = make_user("ana")
    key = session_of(ana)
    assert is_valid(key, ana.pk) is True
    User.objects.filter(pk=ana.pk).update(password="md5$changed$0123456789abcdef")
    assert is_valid(key, ana.pk) is False


def test_tampered_session_data_is_refused(make_user):
    ana = make_user("ana")
    key = session_of(ana)
    assert is_valid(key, ana.pk) is True
    Session.objects.filter(pk=key).update(session_data="e30:forged:signature")
    assert is_valid(key, ana.pk) is False


def test_the_secret_key_and_backends_are_read_each_time(make_user, settings):
    """A verdict kept under one secret key or backend list is not reused under another: a
    rotated key keeps sessions only through ``SECRET_KEY_FALLBACKS``, as Django does."""
    ana = make_user("ana")
    key = session_of(ana)
    old = settings.SECRET_KEY
    assert is_valid(key, ana.pk) is True
    with override_settings(SECRET_KEY="a-new-secret-key-" + "x" * 40):
        assert is_valid(key, ana.pk) is False
        with override_settings(SECRET_KEY_FALLBACKS=[old]):
            assert is_valid(key, ana.pk) is True
    with override_settings(
        AUTHENTICATION_BACKENDS=["django.contrib.auth.backends.RemoteUserBackend"]
    ):
        assert is_valid(key, ana.pk) is False
    assert is_valid(key, ana.pk) is True


def test_another_engine_takes_the_generic_path(make_user, tmp_path):
    """A file-backed session: read by its store, the user by the ORM; the same rules."""
    ana = make_user("ana")
    with override_settings(
        SESSION_ENGINE="django.contrib.sessions.backends.file", SESSION_FILE_PATH=str(tmp_path)
    ):
        key = session_of(ana)
        assert is_valid(key, ana.pk) is True
        User.objects.filter(pk=ana.pk).update(is_active=False)
        assert is_valid(key, ana.pk) is False
