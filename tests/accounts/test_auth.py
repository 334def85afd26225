"""Sign-up, log-in, log-out and passwords through the real views (PostgreSQL)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse

from accounts.models import User

pytestmark = pytest.mark.django_db


def test_custom_user_model_is_active() -> None:
    """AUTH_USER_MODEL points at accounts.User, with the preference fields and defaults."""
    assert get_user_model() is User
    fresh = User()
    assert (fresh.language, fresh.sound_on, fresh.title_alerts, fresh.auto_pass_hooks) == (
        "",
        True,
        True,
        False,
    )


def test_signup_creates_user_and_logs_in(client, password) -> None:
    """A valid sign-up creates an accounts.User and leaves the new player logged in."""
    response = client.post(
        reverse("signup"),
        {"username": "newbie", "email": "", "password1": password, "password2": password},
    )
    assert response.status_code == 302
    assert response.url == reverse("games:lobby")
    created = User.objects.get(username="newbie")
    assert created.check_password(password)
    assert client.get(reverse("games:lobby")).context["user"] == created


def test_signup_refuses_reserved_username(client, password) -> None:
    """A username that would shadow an /accounts/ page is refused."""
    response = client.post(
        reverse("signup"),
        {"username": "login", "password1": password, "password2": password},
    )
    assert response.status_code == 200
    assert "reserved" in response.content.decode()
    assert not User.objects.filter(username="login").exists()


@pytest.mark.parametrize("taken", ["ana", "ANA", "Ana"])
def test_signup_with_a_taken_username_is_a_form_error(client, make_user, password, taken) -> None:
    """A name already used, in any case, is refused on the form (never a 500)."""
    make_user("ana")
    response = client.post(
        reverse("signup"),
        {"username": taken, "password1": password, "password2": password},
    )
    assert response.status_code == 200
    assert response.context["form"].errors["username"]
    assert User.objects.filter(username__iexact="ana").count() == 1


def test_login_then_logout(client, user, password) -> None:
    """Logging in authenticates the session; logging out (POST) ends it."""
    response = client.post(reverse("login"), {"username": "player", "password": password})
    assert response.status_code == 302
    assert client.get("/").context["user"] == user

    response = client.post(reverse("logout"))
    assert response.status_code == 302
    assert client.get("/").context["user"].is_anonymous


def test_login_with_wrong_password_fails(client, user) -> None:
    """A wrong password shows the form again and logs nobody in."""
    response = client.post(reverse("login"), {"username": "player", "password": "nope"})
    assert response.status_code == 200
    assert response.context["user"].is_anonymous


def test_login_applies_saved_language(client, make_user, password) -> None:
    """A player who chose a language gets it as the language cookie on logging in."""
    make_user("ana", language="es")
    response = client.post(reverse("login"), {"username": "ana", "password": password})
    assert response.cookies["django_language"].value == "es"


def test_logout_needs_post(client, user) -> None:
    """GET /accounts/logout/ is refused, so a link or image cannot log a player out."""
    client.force_login(user)
    assert client.get(reverse("logout")).status_code == 405


def test_password_change(client, user, password) -> None:
    """A logged-in player changes the password and stays logged in."""
    client.force_login(user)
    new = "another-long-passphrase-2"
    response = client.post(
        reverse("password_change"),
        {"old_password": password, "new_password1": new, "new_password2": new},
    )
    assert response.status_code == 302
    assert response.url == reverse("password_change_done")
    user.refresh_from_db()
    assert user.check_password(new)
    assert client.get("/").context["user"] == user


def test_password_reset_by_email(client, user) -> None:
    """A reset request emails a link that lets the player set a new password."""
    response = client.post(reverse("password_reset"), {"email": "player@example.com"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    link = re.search(r"https?://[^/]+(/accounts/reset/\S+)", mail.outbox[0].body).group(1)

    form_url = client.get(link).url  # Django swaps the token for a session marker
    new = "reset-long-passphrase-3"
    response = client.post(form_url, {"new_password1": new, "new_password2": new})
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password(new)
