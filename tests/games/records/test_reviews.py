"""The round reviews of a finished match (``games.records.reviews``, issue 20): made once per
round and person's seat, never twice, holding only the seat's own cards, shown to whom the
issue says."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.urls import reverse

from accounts.models import User
from games.engine.codec import action_from_json
from games.engine.views import seat_view
from games.live import replay
from games.live.cards import card_text
from games.models import Match, Move, Round, RoundReview, Seat
from games.records import reviews
from tests.games.records.matches import REVIEW_SAMPLES, client_for

pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("finished_match")]

SAMPLES = REVIEW_SAMPLES
#: A card as the page writes it (``card_text``): 10♠, A♥; jokers by name.
CARD_TEXT = re.compile(r"(?:10|[2-9JQKA])[♠♥♦♣]|Red joker|Black joker")


def _cards_of(action: dict) -> list[str]:
    return list(action.get("cards", [])) + ([action["card"]] if "card" in action else [])


def test_each_round_is_reviewed_once_per_person(finished_match):
    match = finished_match
    rounds = list(Round.objects.filter(match=match).values_list("number", flat=True))
    people = reviews.people_seats(match)
    assert sorted(people) == [0, 2, 3]  # ana, bo, cy; seats 1 (AI) is never reviewed
    # cy never decided anything (every turn of hers a timeout): nothing of hers to review.
    assert all(sorted(reviews.people_seats(match, r)) == [0, 2] for r in rounds)
    assert reviews.missing() == [(match.pk, r) for r in rounds]
    made = sum(reviews.make(match.pk, r, samples=SAMPLES) for r in rounds)
    assert made == len(rounds) * 2
    assert reviews.missing() == []
    assert sum(reviews.make(match.pk, r, samples=SAMPLES) for r in rounds) == 0
    assert RoundReview.objects.filter(match=match).count() == made
    first = RoundReview.objects.filter(match=match).first()
    with pytest.raises(IntegrityError), transaction.atomic():
        RoundReview.objects.create(
            match=match, round_no=first.round_no, seat=first.seat, data={}, samples=1,
            cpu_seconds=0,
        )  # fmt: skip


def test_a_review_holds_the_seat_own_decisions_and_cards_only(finished_match):
    match = finished_match
    reviews.make(match.pk, 1, samples=SAMPLES)
    ana = RoundReview.objects.get(match=match, round_no=1, seat=0)
    assert ana.user.username == "ana" and ana.samples == SAMPLES
    decisions = ana.data["decisions"]
    logged = {
        m.seq: m for m in Move.objects.filter(match=match, round_no=1, seat=0)
    }  # her moves (timeouts have no seat)
    assert len(decisions) == len([m for m in logged.values() if m.action["type"] != "resign"])
    marked = sum(ana.data["counts"].values())
    assert marked == len(decisions) and decisions
    for d in decisions:
        move = logged[d["version"] + 1]
        assert d["played"] == move.action
        hand = seat_view(replay.state_at(match, d["version"]), 0).hand
        assert d["hand"] == list(hand)  # her own hand then, nobody else's
        for key in ("played", "best"):
            action_from_json(d[key])
            assert set(_cards_of(d[key])) <= set(hand)
    # cy never moved (timeouts): no review, and the sweep does not look for one.
    assert not RoundReview.objects.filter(match=match, seat=3).exists()
    assert (match.pk, 1) not in reviews.missing()


def test_others_reviews_only_after_the_match_end(finished_match):
    match = finished_match
    reviews.make(match.pk, 1, samples=SAMPLES)
    ana, bo = User.objects.get(username="ana"), User.objects.get(username="bo")
    assert len(reviews.visible(match, ana, 0)) == 2  # finished: everyone's (ana's and bo's)
    assert len(reviews.visible(match, AnonymousUser(), None)) == 2
    Match.objects.filter(pk=match.pk).update(winner_team=None)  # as if still being played
    live = Match.objects.select_related("table").get(pk=match.pk)
    assert [r.seat for r in reviews.visible(live, ana, 0)] == [0]
    assert [r.seat for r in reviews.visible(live, bo, 2)] == [2]
    assert reviews.visible(live, AnonymousUser(), None) == []
    seat1 = Seat.objects.get(table=match.table, number=1)
    assert seat1.user_id is None


def _record_page(match, user=None) -> str:
    response = client_for(user).get(reverse("games:match_record", args=[match.pk]))
    assert response.status_code == 200
    return response.content.decode()


def test_the_record_page_shows_the_reviews_a_reader_may_see(finished_match):
    match = finished_match
    reviews.make(match.pk, 1, samples=SAMPLES)
    ana, bo = User.objects.get(username="ana"), User.objects.get(username="bo")
    everyone = _record_page(match)  # finished: everyone's, to anyone who may open the record
    assert 'id="record-reviews"' in everyone
    assert all(f'data-round="1" data-seat="{s}"' in everyone for s in (0, 2))
    ana_review = RoundReview.objects.get(match=match, round_no=1, seat=0)
    if ana_review.accuracy is not None:
        assert f"Accuracy {round(ana_review.accuracy)}%" in everyone
    Match.objects.filter(pk=match.pk).update(winner_team=None)  # as if still being played
    cache.clear()
    own = _record_page(match, bo)
    assert 'data-seat="2"' in own and 'data-seat="0"' not in own
    assert 'data-seat="0"' in _record_page(match, ana)
    assert 'id="record-reviews"' not in _record_page(match)  # no seat: nothing yet


def test_a_live_review_section_names_only_the_reader_own_cards(finished_match):
    """While the match is on, bo's page shows his review only, and it names no card but those
    he held in the round (his hand as dealt to him): nobody else's."""
    match = finished_match
    reviews.make(match.pk, 1, samples=SAMPLES)
    Match.objects.filter(pk=match.pk).update(winner_team=None)  # as if still being played
    cache.clear()
    bo = User.objects.get(username="bo")
    page = _record_page(match, bo)
    section = page[page.index('id="record-reviews"') :]
    section = section[: section.index("</section>")]
    start = reviews.round_record(Match.objects.get(pk=match.pk), 1).start
    held = {card_text(c) for c in start.hands[2]}
    shown = set(CARD_TEXT.findall(section))
    everyone = {card_text(c) for h in start.hands for c in h}
    assert 'data-seat="2"' in section and 'data-seat="0"' not in section
    listed = [
        d
        for d in RoundReview.objects.get(match=match, round_no=1, seat=2).data["decisions"]
        if d["mark"] in ("inaccuracy", "mistake", "blunder")
    ]
    assert bool(shown) == any(
        d["played"]["type"] != "pass" or d["best"]["type"] != "pass" for d in listed
    )
    assert shown <= held, shown - held
    assert everyone - held  # other hands hold cards he never saw: the check can fail
