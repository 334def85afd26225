"""The record tests' finished match (``finished_match``): driven to its end in-process."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from games.models import Match
from games.play import stewarding
from tests.games.records.matches import drive


@pytest.fixture
def finished_match(make_user, settings) -> Match:
    """A quick match (target level 3) with claim windows: ana's and bo's seats played by AI,
    two AI seats, and cy at seat 3 who never moves (every turn of hers is a timeout: no AI
    stand-in takes her seat, ``GAMES_STAND_IN_AFTER_TIMEOUTS`` 0)."""
    settings.GAMES_STAND_IN_AFTER_TIMEOUTS = 0
    ana, bo, cy = make_user("ana"), make_user("bo"), make_user("cy")
    table = stewarding.open_table(
        ana,
        name="history table",
        options={"target_level": "3"},
        seats=[(ana, "heuristic"), (None, "heuristic"), (bo, "random"), (cy, "")],
        start=True,
        seed=414,
    )
    cache.clear()
    return drive(Match.objects.get(table=table).pk)
