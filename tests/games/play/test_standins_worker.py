"""The stand-in through the real clock and Celery worker (Redis broker, PostgreSQL): a person
who does nothing is timed out twice, the AI then makes their next decision from their seat's
view, and after "I'm back" only the person (or the clock) decides for the seat."""

from __future__ import annotations

import pytest

from games.engine.deal import start_round
from games.engine.rules import legal_actions
from games.models import Match, Move, Seat
from games.play import services, standins, tables
from tests.games.conftest import install_state
from tests.servers import wait_for

pytestmark = pytest.mark.django_db(transaction=True)

HANDS = [
    ("3S", "4H", "5C", "6D", "7S", "8H", "9C", "10D", "JS", "QH"),
    ("3H", "4C", "5D", "6S", "7H", "8C", "9D", "10S", "JH", "QC"),
]


def test_the_stand_in_plays_after_two_timeouts_until_i_am_back(worker, make_table):
    table = make_table(["ana", None], {"claim_window_seconds": 0, "turn_seconds": 2})
    match = tables.start(table.pk, table.host, seed=6)
    install_state(match, start_round(table.engine_options(), HANDS, 2, leader=0, seed=6))
    ana = table.host

    def seat() -> Seat:
        return Seat.objects.get(table=table, number=0)

    assert wait_for(lambda: seat().stand_in == "away", 40), "two timeouts hand the seat over"
    handed_at = Move.objects.filter(match=match).order_by("-seq").first().seq
    clock_for_ana = [
        m
        for m in Move.objects.filter(match=match, seat__isnull=True, seq__lte=handed_at)
        if any(e.get("seat") == 0 for e in m.events if e["type"] in ("timeout", "pass"))
    ]
    assert len(clock_for_ana) == 2
    assert seat().ai_policy == standins.policy_name() == "expert"

    def ai_played_for_ana() -> bool:
        return Move.objects.filter(match=match, seat=0, seq__gt=handed_at, client_id="").exists()

    assert wait_for(ai_played_for_ana, 40), "the stand-in makes ana's next decision"

    assert standins.control(match.pk, ana, {"action": "back", "stand_in_seq": 1}).ok
    back_at = Match.objects.get(pk=match.pk).version
    assert seat().stand_in == "" and seat().ai_policy == ""

    def anas_turn() -> bool:
        state = services.load_state(Match.objects.get(pk=match.pk))
        return state.phase == "play" and state.turn == 0

    assert wait_for(anas_turn, 40)
    state = services.load_state(Match.objects.get(pk=match.pk))
    own = legal_actions(state, 0)[-1]
    payload = {"action": type(own).__name__.lower(), "version": state.version, "client_id": "a1"}
    if hasattr(own, "cards"):
        payload["cards"] = list(own.cards)
    assert services.submit(match.pk, ana, payload).ok
    after_back = Move.objects.filter(match=match, seat=0, seq__gt=back_at)
    assert [m.client_id for m in after_back] == ["a1"], "nobody but ana played her seat"
    assert Match.objects.get(pk=match.pk).timeouts_in_row[0] == 0
