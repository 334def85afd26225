"""A stand-in's moves are not its person's (issue 20): the AI playing a person's seat
(``games.play.standins``) logs its moves as the AI's (``Move.by_ai``), the person's round review
weighs their own decisions only, and a round the stand-in played wholly gets no review."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import override_settings
from django.utils import timezone

from games.engine.rules import seats_to_act
from games.models import Match, Move, Round, RoundReview
from games.play import deadlines, services, stewarding
from games.records import reviews
from tests.games.drivers import act_now, person_acts

pytestmark = pytest.mark.django_db

SAMPLES = 4


def _play_round(match_id: int, own: dict[int, int]) -> Match:
    """Play round 1: seat s's person sends their first ``own[s]`` moves themselves, the stand-in
    (their seat's policy, through the worker's path) plays the rest; AI seats act at once."""
    sent = dict.fromkeys(own, 0)
    for _ in range(5000):
        if Round.objects.filter(match_id=match_id, number=1, ended_at__isnull=False).exists():
            return Match.objects.get(pk=match_id)
        match = Match.objects.get(pk=match_id)
        due = seats_to_act(services.load_state(match))[:1]
        token = match.deadline_token
        acted = False
        for seat in due:
            if seat in own and sent[seat] < own[seat]:
                acted = person_acts(match_id, seat, token)
                sent[seat] += acted
            else:
                acted = act_now(match_id, seat, token)
        if not acted:
            Match.objects.filter(pk=match_id).update(deadline=timezone.now() - timedelta(seconds=1))
            deadlines.expire(match_id, token)
    raise AssertionError("round 1 did not end")


def test_the_review_weighs_the_person_own_decisions_only(make_user):
    dan, eve = make_user("dan"), make_user("eve")
    with override_settings(GAMES_STAND_IN_AFTER_TIMEOUTS=0):
        table = stewarding.open_table(
            dan,
            name="stand-in table",
            options={"claim_window_seconds": 1},
            seats=[
                (dan, "heuristic"),
                (None, "heuristic"),
                (eve, "heuristic"),
                (None, "heuristic"),
            ],
            start=True,
            seed=2020,
        )
        match = _play_round(Match.objects.get(table=table).pk, {0: 4, 2: 0})
    moves = Move.objects.filter(match=match, round_no=1)
    dan_own = list(moves.filter(seat=0, by_ai=False).order_by("seq"))
    assert len(dan_own) == 4 and moves.filter(seat=0, by_ai=True).exists()
    assert not moves.filter(seat=2, by_ai=False).exists()  # eve: all her stand-in's
    assert moves.filter(seat=1, by_ai=True).exists()  # an AI seat's moves are the AI's too
    # eve's round was played wholly by her stand-in: nothing of hers to review, nor to sweep.
    assert reviews.people_seats(match, 1) == {0: dan.pk}
    assert reviews.make(match.pk, 1, samples=SAMPLES) == 1
    assert reviews.missing() == []
    review = RoundReview.objects.get(match=match, round_no=1)
    assert (review.seat, review.user) == (0, dan)
    decisions = review.data["decisions"]
    assert [d["version"] + 1 for d in decisions] == [m.seq for m in dan_own]
    assert [d["played"] for d in decisions] == [m.action for m in dan_own]
    assert sum(review.data["counts"].values()) == 4
    weighed = [d for d in decisions if d["mark"] != "forced"]
    assert (review.accuracy is None) == (not weighed)
