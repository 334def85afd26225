"""Forms refuse forged cross-site posts."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User

pytestmark = pytest.mark.django_db


@pytest.fixture
def csrf_client() -> Client:
    """A client that enforces CSRF like a browser would meet it (the default one skips it)."""
    return Client(enforce_csrf_checks=True)


def test_signup_without_csrf_token_is_refused(csrf_client, password) -> None:
    response = csrf_client.post(
        reverse("signup"),
        {"username": "forged", "password1": password, "password2": password},
    )
    assert response.status_code == 403
    assert not User.objects.filter(username="forged").exists()


def test_preferences_without_csrf_token_are_refused(csrf_client, user) -> None:
    csrf_client.force_login(user)
    response = csrf_client.post(reverse("preferences"), {"language": "es"})
    assert response.status_code == 403
    user.refresh_from_db()
    assert user.language == ""


def test_post_with_csrf_token_is_accepted(csrf_client, user) -> None:
    """The same post with the token from the page goes through: the 403s above are CSRF's."""
    csrf_client.force_login(user)
    page = csrf_client.get(reverse("preferences"))
    token = page.context["csrf_token"]
    response = csrf_client.post(
        reverse("preferences"), {"language": "es", "csrfmiddlewaretoken": str(token)}
    )
    assert response.status_code == 302
