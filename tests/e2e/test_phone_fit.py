"""Small-screen text that a tester and the lead saw cut or wrapped on the table page, each
read whole on its line at the size and in the language it was seen in.

Screenshots (``make screenshots``): phone-fit/<case>.png.
"""

from __future__ import annotations

import pytest

from games.models import Table

from .helpers import log_in_as, open_started_table, screenshot
from .measures import ROUND_LINE, TEXT_WHOLE
from .phases import settle, show_phase, unhook_window

pytestmark = pytest.mark.django_db(transaction=True)


def table_at(page, username: str, language: str, players: int = 4) -> Table:
    log_in_as(page, username, language, landing=None)
    open_started_table(page, claim_seconds=10, turn_seconds=60, players=players)
    return Table.objects.get(host__username=username)


def test_the_round_line_keeps_one_line_in_a_spanish_unhook_window_on_its_side(new_page) -> None:
    page = new_page(740, 375)
    table = table_at(page, "fit_round_es", "es")
    show_phase(page, table, unhook_window)
    settle(page)
    screenshot(page, "phone-fit/round-line-es-740x375")
    found = page.evaluate(ROUND_LINE)
    found += page.evaluate(TEXT_WHOLE, ["#status .status-line", True])
    assert found == []
