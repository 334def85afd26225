"""The lobby in chromium: the public lists are one render for everyone, the viewer's own tables
are listed above them, and nav.js keeps a table from being listed twice to its own host."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from accounts.models import User

from .helpers import log_in_as

pytestmark = pytest.mark.django_db(transaction=True)

DUPLICATE_IDS = """() => {
  const ids = [...document.querySelectorAll('[id]')].map(el => el.id);
  return ids.filter((id, i) => ids.indexOf(id) !== i);
}"""


def test_the_hosts_own_open_table_is_listed_once(new_page) -> None:
    """A host's waiting table is under "Your tables" only (the public "Open tables" says there is
    none), also for a table opened while the lobby is open; another person sees it to join.
    No id is on the host's page twice."""
    from games.play import tables

    host_page = new_page()
    log_in_as(host_page, "lobby_host")
    host = User.objects.get(username="lobby_host")
    first = tables.create_table(host, name="first", players=4, options={})
    host_page.goto("/")
    expect(host_page.locator(f"#my-table-{first.pk}")).to_be_visible()
    expect(host_page.locator(f"#lobby-table-{first.pk}")).to_be_hidden()
    expect(host_page.locator("#open-tables-none")).to_be_visible()
    assert host_page.evaluate(DUPLICATE_IDS) == []

    second = tables.create_table(host, name="second", players=4, options={})
    expect(host_page.locator(f"#my-table-{second.pk}")).to_be_visible()
    expect(host_page.locator(f"#lobby-table-{second.pk}")).to_be_attached()  # the push came
    expect(host_page.locator("#open-tables .table-row:visible")).to_have_count(0)
    expect(host_page.locator("#open-tables-none")).to_be_visible()

    guest_page = new_page()
    log_in_as(guest_page, "lobby_guest")
    for table in (first, second):
        expect(guest_page.locator(f"#lobby-table-{table.pk}")).to_be_visible()
    expect(guest_page.locator("#open-tables-none")).to_be_hidden()
