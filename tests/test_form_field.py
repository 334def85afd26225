"""One field's markup for every form of the site (templates/form_field.html): an input's help is
read out with it, and a checkbox's words are not a question with a colon."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db

PAGES = ["signup", "games:create_table", "preferences"]


def _page(client, user, name: str) -> str:
    if name != "signup":
        client.force_login(user)
    response = client.get(reverse(name))
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize("name", PAGES)
def test_every_described_input_points_at_its_help(client, user, name) -> None:
    """Django points an input with help text at ``<id>_helptext``: that element is on the page
    (the account pages' help had no id, so a screen reader read the input without it)."""
    html = _page(client, user, name)
    described = re.findall(r'aria-describedby="([^"]+)"', html)
    assert described, "the page has help texts"
    ids = set(re.findall(r'\bid="([^"]+)"', html))
    assert [d for d in described if d not in ids] == []


@pytest.mark.parametrize("name", ["games:create_table", "preferences"])
def test_a_checkbox_label_has_no_colon(client, user, name) -> None:
    html = _page(client, user, name)
    boxes = re.findall(r'<input type="checkbox" name="[^"]+" id="([^"]+)"', html)
    assert boxes, "the page has checkboxes"
    for box in boxes:
        label = re.search(rf'<label for="{box}"[^>]*>(.*?)</label>', html, re.S)
        assert label is not None, box
        assert not label.group(1).strip().endswith(":"), label.group(1)
