"""Helpers of the record tests: drive a match to its end in-process, and a client for a viewer."""

from __future__ import annotations

from django.test import Client

from games.engine import legal_actions
from games.engine.codec import action_to_json
from games.engine.rules import seats_to_act
from games.models import Match, Seat
from games.play import services

#: Sampled deals per decision when the record tests review the finished match's rounds
#: (``reviews.make``): few, as they test what is stored and shown, not the search (the engine's
#: tests do); one figure for every module, so each round is searched once per test process
#: (conftest.py, ``_review_once``).
REVIEW_SAMPLES = 2


def client_for(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def play_moves(match: Match, count: int) -> None:
    """``count`` moves by whoever is due, through services.submit (each the first legal one)."""
    for _ in range(count):
        match.refresh_from_db()
        state = services.load_state(match)
        seat = seats_to_act(state)[0]
        action = action_to_json(legal_actions(state, seat)[0])
        user = Seat.objects.select_related("user").get(table_id=match.table_id, number=seat).user
        payload = {"action": action["type"], "version": match.version}
        if "cards" in action:
            payload["cards"] = action["cards"]
        if "card" in action:
            payload["card"] = action["card"]
        assert services.submit(match.pk, user, payload).ok
