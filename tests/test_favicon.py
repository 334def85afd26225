"""The site icon (issue #18 §2): ``/favicon.ico``, which browsers ask for on every page, is a
permanent redirect to a static .ico, pages link an SVG icon, and the policy needs no data: URL."""

from __future__ import annotations

import pytest
from django.test import Client


@pytest.mark.django_db
def test_favicon_ico_redirects_to_a_static_icon_that_is_served() -> None:
    client = Client()
    response = client.get("/favicon.ico")
    assert response.status_code == 301
    target = response["Location"]
    assert target.startswith("/static/") and target.endswith(".ico")
    icon = client.get(target)
    assert icon.status_code == 200
    body = b"".join(icon.streaming_content) if icon.streaming else icon.content
    assert body[:4] == b"\x00\x00\x01\x00"  # an ICO header: one image follows


@pytest.mark.django_db
def test_pages_link_a_static_svg_icon_and_the_policy_allows_no_data_urls() -> None:
    client = Client()
    page = client.get("/").content.decode()
    link = page.split('<link rel="icon" href="')[1].split('"')[0]
    assert link.startswith("/static/") and link.endswith(".svg")
    icon = client.get(link)
    assert icon.status_code == 200
    policy = client.get("/")["Content-Security-Policy"]
    assert "data:" not in policy
