"""The countdown (templates/games/partials/countdown.jinja) in each language: it keeps the
locale's space before its unit, and the number table.js counts down."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from games.live import regions

COUNTDOWN = {"kind": "turn", "deadline_ms": 0, "remaining": 30, "total": 30}


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html)).strip()


@pytest.mark.parametrize(
    ("language", "shown"),
    [("en", "Turn 30s"), ("es", "Turno 30 s"), ("id", "Giliran 30 dtk"), ("vi", "Lượt 30 giây")],
)
def test_a_countdown_reads_as_its_language_writes_it(language, shown):
    with translation.override(language):
        html = regions.render("games/partials/countdown.jinja", {"countdown": COUNTDOWN})
    assert text_of(html) == shown
    # table.js still finds the number it counts down.
    assert '<span class="countdown-seconds">30</span>' in html
