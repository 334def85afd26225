"""The language switcher in the page header (Django's set_language view)."""

from __future__ import annotations

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_header_offers_the_four_languages(client) -> None:
    html = client.get("/").content.decode()
    for code in ("en", "es", "id", "vi"):
        assert f'<option value="{code}"' in html


def test_switcher_sets_language_cookie_and_page_language(client) -> None:
    """Choosing a language stores it in the cookie and the next page is served in it."""
    response = client.post(reverse("set_language"), {"language": "id", "next": "/"})
    assert response.status_code == 302
    assert response.cookies["django_language"].value == "id"
    assert '<html lang="id">' in client.get("/").content.decode()


def test_browser_language_is_used_without_a_choice(client) -> None:
    html = client.get("/", headers={"accept-language": "vi,en;q=0.5"}).content.decode()
    assert '<html lang="vi">' in html
