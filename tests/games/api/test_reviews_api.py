"""The expert's round reviews through the bot API (``GET /api/v1/matches/{id}/reviews``, issue
20): the record page's rule (docs/ACCESS.md), answered as the schema says, and never a card its
reader could not see: while the match is on, a person reads their own seat's reviews only, and
every card in the answer is one of their own hand as dealt."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest
from django.core.cache import cache

from accounts.models import User
from games.models import Match, RoundReview, Seat, Table
from games.records import reviews
from tests.built_once import built_once
from tests.conftest import PASSWORD
from tests.games.drivers import first_round

# One worker under ``--dist loadgroup`` (``make test``): the module's round is played once.
pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("reviewed_round")]

PATH = "/matches/{match_id}/reviews"
#: A card in the engine's notation (RULES.md §0): 10H, QS, 3C; jokers BJ, RJ.
CARD = re.compile(r'"((?:10|[2-9JQKA])[SHDC]|BJ|RJ)"')


def _play_and_review() -> int:
    """Round 1 of a match between ana (seat 0), bo (seat 2) and two AI seats, played to its end
    through the writer and reviewed (few sampled deals); the match goes on. Its pk."""
    ana, bo = (User.objects.create_user(username=name, password=PASSWORD) for name in ("ana", "bo"))
    match = first_round(ana, bo, seed=20)
    assert reviews.make(match.pk, 1, samples=2) == 2
    return match.pk


@pytest.fixture(scope="module")
def _reviewed_id(django_db_setup, django_db_blocker) -> Iterator[int]:
    """``_play_and_review``, once per module (``tests.built_once``): playing the round is most
    of these tests' cost, and each test's changes are rolled back to it."""
    yield from built_once(django_db_blocker, _play_and_review)


@pytest.fixture
def reviewed(_reviewed_id: int, db: None) -> Match:
    """The module's reviewed round's match (``_play_and_review``), read afresh for this test,
    with the cache emptied: a test's cached states never reach the next one."""
    cache.clear()
    return Match.objects.select_related("table").get(pk=_reviewed_id)


def _cards(body: dict) -> set[str]:
    return set(CARD.findall(json.dumps(body)))


def test_a_player_reads_their_own_reviews_only_while_the_match_is_on(
    api, reviewed, make_user, assert_declared
):
    match = reviewed
    start = reviews.round_record(match, 1).start
    path = PATH.format(match_id=match.pk)
    for name, seat in (("ana", 0), ("bo", 2)):
        user = RoundReview.objects.get(match=match, seat=seat).user
        assert user is not None and user.username == name
        body = assert_declared(api(user).get(path), PATH, "get")
        assert body["match"] == match.pk and body["over"] is False
        assert [(r["round"], r["seat"], r["player"]) for r in body["reviews"]] == [(1, seat, name)]
        mine = body["reviews"][0]
        stored = RoundReview.objects.get(match=match, seat=seat)
        assert len(mine["decisions"]) == len(stored.data["decisions"]) > 0
        # The judge's noise margin, as the match page shows it beside a loss of 0.
        assert [d["noise"] for d in mine["decisions"]] == [
            d["noise"] for d in stored.data["decisions"]
        ]
        assert any(isinstance(d["noise"], float) for d in mine["decisions"])
        # No card but those of the reader's own hand: nobody else's, hidden or played.
        held = set(start.hands[seat])
        assert _cards(body) <= held, _cards(body) - held
        assert {c for h in start.hands for c in h} - held  # the check could fail
    # A spectator of the public table: nothing yet (nobody's own review is theirs).
    stranger = make_user("cy")
    body = assert_declared(api(stranger).get(path), PATH, "get")
    assert body == {"match": match.pk, "over": False, "reviews": []}


def test_everyone_reads_every_review_once_the_match_is_over(
    api, reviewed, make_user, assert_declared
):
    match = reviewed
    path = PATH.format(match_id=match.pk)
    stranger = make_user("cy")
    Match.objects.filter(pk=match.pk).update(winner_team=0)  # over: its hands are public
    body = assert_declared(api(stranger).get(path), PATH, "get")
    assert body["over"] is True
    assert [(r["seat"], r["player"]) for r in body["reviews"]] == [(0, "ana"), (2, "bo")]
    ana = RoundReview.objects.get(match=match, seat=0)
    first = body["reviews"][0]
    assert first["accuracy"] == (None if ana.accuracy is None else round(ana.accuracy, 1))
    assert first["decisions"][0]["hand"] == ana.data["decisions"][0]["hand"]
    passes = [d["played"] for r in body["reviews"] for d in r["decisions"]]
    assert all("cards" not in a for a in passes if a["type"] == "pass")  # only its own fields


def test_a_match_hidden_from_the_reader_is_not_found(api, reviewed, make_user, assert_declared):
    match = reviewed
    Table.objects.filter(pk=match.table_id).update(visibility=Table.Visibility.PRIVATE)
    path = PATH.format(match_id=match.pk)
    hidden = assert_declared(api(make_user("cy")).get(path), PATH, "get")
    missing = assert_declared(api(make_user("di")).get(PATH.format(match_id=999999)), PATH, "get")
    assert hidden == missing and hidden["code"] == "not_found"  # its existence does not leak
    ana = RoundReview.objects.get(match=match, seat=0).user
    assert [r["seat"] for r in api(ana).get(path).json()["reviews"]] == [0]  # seated: hers


def test_a_delayed_match_shows_others_reviews_once_its_spectators_reach_the_end(
    api, reviewed, make_user, assert_declared
):
    """A finished match at a table with a spectator delay: its players read everyone's
    reviews at once; a reader without a seat only once the spectators' view reached the end
    (here it has not: the delay is longer than the match)."""
    match = reviewed
    Table.objects.filter(pk=match.table_id).update(spectator_delay=10_000)
    Match.objects.filter(pk=match.pk).update(winner_team=0)
    path = PATH.format(match_id=match.pk)
    body = assert_declared(api(make_user("cy")).get(path), PATH, "get")
    assert body == {"match": match.pk, "over": False, "reviews": []}
    bo = RoundReview.objects.get(match=match, seat=2).user
    body = assert_declared(api(bo).get(path), PATH, "get")
    assert body["over"] is True and [r["seat"] for r in body["reviews"]] == [0, 2]


def test_who_left_for_good_reads_the_reviews_as_a_spectator(api, reviewed, assert_declared):
    """bo leaves the delayed match for good, then it ends: while its spectators' view has not
    reached the end, he reads no review, his own of the rounds he played included (they hold
    that seat's hands), as any reader without a seat; ana, seated, reads them all."""
    match = reviewed
    bo = RoundReview.objects.get(match=match, seat=2).user
    Seat.objects.filter(table_id=match.table_id, user=bo).update(stand_in=Seat.StandIn.LEFT)
    Table.objects.filter(pk=match.table_id).update(spectator_delay=10_000)
    Match.objects.filter(pk=match.pk).update(winner_team=0)
    path = PATH.format(match_id=match.pk)
    assert assert_declared(api(bo).get(path), PATH, "get") == {
        "match": match.pk,
        "over": False,
        "reviews": [],
    }
    ana = RoundReview.objects.get(match=match, seat=0).user
    assert [r["seat"] for r in api(ana).get(path).json()["reviews"]] == [0, 2]
