"""What a socket's ASGI scope says (``games.sockets.scope``): the language its frames are rendered
in."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "cookies, accept, expected",
    [
        ({"django_language": "es"}, "vi", "es"),
        ({}, "vi,en;q=0.8", "vi"),
        ({}, "", "en"),
        ({"django_language": "xx"}, "id", "id"),
    ],
)
def test_socket_pages_render_in_the_page_language(cookies, accept, expected) -> None:
    """A socket picks the language as the page did: the language cookie, then the browser's."""
    from games.sockets.scope import scope_language

    scope = {"cookies": cookies, "headers": [(b"accept-language", accept.encode())]}
    assert scope_language(scope) == expected
