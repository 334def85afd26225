"""The review sweep's query (``games.records.reviews.missing_query``) reads the partial index
``round_ended_at`` (games migration 0011): PostgreSQL's own plan, on a table of rounds ended
over a month, its statistics fresh, shows it (issue 20)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from games.models import Match, Round
from games.play import stewarding
from games.records import reviews

pytestmark = pytest.mark.django_db

ROUNDS = 3000


def test_the_sweep_scans_recent_rounds_through_the_ended_at_index(make_user):
    ana = make_user("ana")
    table = stewarding.open_table(
        ana,
        name="old rounds",
        options={},
        seats=[(ana, ""), (None, "heuristic"), (make_user("bo"), ""), (None, "heuristic")],
        start=True,
    )
    match = Match.objects.get(table=table)
    now = timezone.now()
    Round.objects.filter(match=match).delete()
    Round.objects.bulk_create(
        Round(
            match=match,
            number=n + 1,
            level=2,
            levels_before=[2, 2],
            leader=0,
            # A month of ended rounds, and some still being played (no end: not in the index).
            ended_at=None if n % 10 == 0 else now - timedelta(minutes=15 * n),
        )
        for n in range(ROUNDS)
    )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE games_round")
    plan = reviews.missing_query().explain()
    assert "round_ended_at" in plan, plan
    assert reviews.missing() == []  # nobody decided anything in these rounds: nothing to make
