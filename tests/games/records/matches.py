"""Helpers of the record tests: drive a match to its end in-process, and a client for a viewer."""

from __future__ import annotations

from datetime import timedelta

from django.test import Client
from django.utils import timezone

from games.engine import legal_actions
from games.engine.codec import action_to_json
from games.engine.rules import seats_to_act
from games.models import Match, Seat
from games.play import deadlines, services
from tests.games.drivers import act_now


def drive(match_id: int, max_steps: int = 20000) -> Match:
    """Play the match to its end: the first seat due acts if an AI plays it; otherwise the
    current deadline rings, as its timer would (a timeout is an action, §10)."""
    for _ in range(max_steps):
        match = Match.objects.get(pk=match_id)
        if match.winner_team is not None:
            return match
        due = seats_to_act(services.load_state(match))[:1]
        if not any(act_now(match_id, seat, match.deadline_token) for seat in due):
            Match.objects.filter(pk=match_id).update(deadline=timezone.now() - timedelta(seconds=1))
            assert deadlines.expire(match_id, match.deadline_token), match.phase
    raise AssertionError("the match did not end")


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
        user = Seat.objects.get(table=match.table, number=seat).user
        payload = {"action": action["type"], "version": match.version}
        if "cards" in action:
            payload["cards"] = action["cards"]
        if "card" in action:
            payload["card"] = action["card"]
        assert services.submit(match.pk, user, payload).ok
