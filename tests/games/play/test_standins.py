"""AI stand-ins, resigning and leaving (``games.play.standins``, issue #10 item 1) on PostgreSQL.

The clock's wake-up is ``deadlines.expire`` itself, called once the test has moved the deadline
into the past (``clock``: a person's action after it would be refused ``late``); no worker
runs here, so nothing moves but what the test sends. The worker plays a stand-in in
``test_standins_worker.py``.
"""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import jsonschema
import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.engine.deal import start_round
from games.engine.rules import legal_actions
from games.models import Match, Move, Round, Seat, Table
from games.play import deadlines, services, standins, tables
from games.play.outcomes import Result
from tests.games.conftest import install_state

pytestmark = pytest.mark.django_db

SCHEMA = json.loads(
    (Path(__file__).resolve().parents[3] / "docs" / "match_format.schema.json").read_text()
)

#: Two seats, no claim windows, turns long enough for every action the test sends in time.
OPTIONS = {"claim_window_seconds": 0, "turn_seconds": 300}
HANDS = [("3S", "5H", "7C", "9D", "JS", "KH"), ("4S", "6H", "8C", "10D", "QS", "AH")]


@pytest.fixture
def duel(make_table):
    """ana (seat 0) and bo (seat 1) at a casual two-seat table, ana to lead."""
    table = make_table(["ana", "bo"], OPTIONS)
    match = tables.start(table.pk, table.host, seed=4)
    install_state(match, start_round(table.engine_options(), HANDS, 2, leader=0, seed=4))
    seats = {s.number: s for s in Seat.objects.filter(table=table).select_related("user")}
    return match, seats[0].user, seats[1].user


def now(match: Match) -> Match:
    return Match.objects.select_related("table").get(pk=match.pk)


def seat_of(match: Match, number: int) -> Seat:
    return Seat.objects.get(table_id=match.table_id, number=number)


def clock(match: Match) -> None:
    """The running deadline passes and its timer rings."""
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    assert deadlines.expire(match.pk, now(match).deadline_token)


def act(match: Match, user, **payload) -> Result:
    return services.submit(match.pk, user, {"version": now(match).version, **payload})


def bo_passes_or_plays(match: Match, bo) -> None:
    state = services.load_state(now(match))
    legal = legal_actions(state, 1)
    if any(type(a).__name__ == "Pass" for a in legal):
        assert act(match, bo, action="pass").ok
    else:
        assert act(match, bo, action="play", cards=list(legal[0].cards)).ok


def test_two_timeouts_in_a_row_hand_the_seat_to_the_stand_in(duel):
    """ana's turn times out twice with no action of hers between: her seat keeps her and is
    played by the strongest AI, the table's revision moves on, and the count says 2."""
    match, ana, bo = duel
    revision = now(match).table.revision
    clock(match)  # ana leads her lowest card by the clock
    assert now(match).timeouts_in_row == [1, 0]
    assert seat_of(match, 0).stand_in == ""
    assert act(match, bo, action="pass").ok  # bo passes: ana leads again
    assert services.load_state(now(match)).turn == 0
    clock(match)
    seat = seat_of(match, 0)
    assert (seat.user_id, seat.stand_in, seat.ai_policy) == (ana.pk, "away", "expert")
    assert seat.stand_in_seq == 1
    assert now(match).timeouts_in_row == [2, 0]
    assert now(match).table.revision == revision + 1
    assert standins.policy_name() == "expert"


def test_an_own_action_between_timeouts_starts_the_count_again(duel):
    """ana times out, then plays herself, then times out: one in a row, no stand-in."""
    match, ana, bo = duel
    clock(match)
    bo_passes_or_plays(match, bo)
    state = services.load_state(now(match))
    if state.turn == 1:  # bo played: he leads or ana follows
        bo_passes_or_plays(match, bo)
        state = services.load_state(now(match))
    assert state.turn == 0
    own = legal_actions(state, 0)[-1]
    assert act(match, ana, action=type(own).__name__.lower(), cards=list(own.cards)).ok
    assert now(match).timeouts_in_row == [0, 0]
    while services.load_state(now(match)).turn != 0:
        bo_passes_or_plays(match, bo)
    clock(match)
    assert now(match).timeouts_in_row[0] == 1
    assert seat_of(match, 0).stand_in == ""


def test_i_am_back_takes_the_seat_back_once(duel):
    """While the stand-in plays, ana's own moves are refused; "I'm back" with the hand-over it
    answers gives her the seat (count reset); the same request again changes nothing."""
    match, ana, bo = duel
    assert standins.control(match.pk, ana, {"action": "stand_in", "stand_in_seq": 0}).ok
    seat = seat_of(match, 0)
    assert (seat.stand_in, seat.ai_policy, seat.stand_in_seq) == ("asked", "expert", 1)
    refused = act(match, ana, action="play", cards=["3S"])
    assert (refused.ok, refused.code) == (False, "stand_in")
    again = standins.control(match.pk, ana, {"action": "stand_in", "stand_in_seq": 0})
    assert (again.ok, again.code) == (False, "stale")
    assert standins.control(match.pk, ana, {"action": "back", "stand_in_seq": "1"}).ok
    seat = seat_of(match, 0)
    assert (seat.stand_in, seat.ai_policy, seat.stand_in_seq) == ("", "", 2)
    resent = standins.control(match.pk, ana, {"action": "back", "stand_in_seq": 1})
    assert (resent.ok, resent.code) == (False, "stale")
    assert seat_of(match, 0).stand_in_seq == 2
    assert act(match, ana, action="play", cards=["3S"]).ok


@pytest.mark.parametrize(
    "payload, code",
    [
        ({"action": "back", "stand_in_seq": 0}, "not_stood_in"),
        ({"action": "stand_in"}, "malformed"),
        ({"action": "stand_in", "stand_in_seq": "x"}, "malformed"),
        ({"action": "nap", "stand_in_seq": 0}, "malformed"),
    ],
)
def test_bad_requests_change_nothing(duel, payload, code):
    match, ana, _bo = duel
    result = standins.control(match.pk, ana, payload)
    assert (result.ok, result.code) == (False, code)
    assert seat_of(match, 0).stand_in_seq == 0


def test_a_spectator_has_no_seat_to_hand_over(duel, make_user):
    match, _ana, _bo = duel
    result = standins.control(match.pk, make_user("eve"), {"action": "leave", "stand_in_seq": 0})
    assert (result.ok, result.code) == (False, "not_seated")


def test_leaving_a_casual_table_is_for_good(duel):
    """bo leaves: the AI plays his seat to the end; he can neither come back nor play."""
    match, _ana, bo = duel
    assert standins.control(match.pk, bo, {"action": "leave", "stand_in_seq": 0}).ok
    seat = seat_of(match, 1)
    assert (seat.user_id, seat.stand_in, seat.ai_policy) == (bo.pk, "left", "expert")
    back = standins.control(match.pk, bo, {"action": "back", "stand_in_seq": 1})
    assert (back.ok, back.code) == (False, "left")
    assert act(match, bo, action="pass").code == "left"
    assert act(match, bo, action="resign").code == "left"
    assert now(match).winner_team is None


def test_who_left_for_good_opens_the_table_as_a_spectator(duel):
    """bo leaves: his table page shows none of the cards the AI now plays for him, no seat
    menu to act with, and says that he left; ana's page still shows her hand."""
    match, ana, bo = duel
    assert standins.control(match.pk, bo, {"action": "leave", "stand_in_seq": 0}).ok
    pages = {}
    for person in (ana, bo):
        client = Client()
        client.force_login(person)
        pages[person.username] = client.get(reverse("games:table", args=[match.table_id]))
    bo_page = pages["bo"].content.decode()
    assert pages["bo"].status_code == 200 and 'id="left-note"' in bo_page
    assert "You left this match." in bo_page
    assert not any(f'value="{card}"' in bo_page for card in HANDS[1])
    assert 'name="stand_in_seq"' not in bo_page
    ana_page = pages["ana"].content.decode()
    assert all(f'value="{card}"' in ana_page for card in HANDS[0])
    assert 'id="left-note"' not in ana_page


def test_leaving_a_rated_table_is_refused(make_table):
    """At a rated table the seat stays its player's: leaving is refused, nothing changes."""
    table = make_table(["ana", "bo"], OPTIONS, rated=True)
    match = tables.start(table.pk, table.host, seed=4)
    bo = seat_of(match, 1).user
    revision = now(match).table.revision
    result = standins.control(match.pk, bo, {"action": "leave", "stand_in_seq": 0})
    assert (result.ok, result.code) == (False, "leave_rated")
    seat = seat_of(match, 1)
    assert (seat.stand_in, seat.ai_policy, seat.stand_in_seq) == ("", "", 0)
    assert now(match).table.revision == revision


def test_at_a_rated_table_the_stand_in_plays_no_better_than_casual(make_table):
    """Handing a rated seat to the AI, asked or after timeouts, gives it the casual policy:
    it is never a way to a better rating (the expert keeps casual tables' seats warm)."""
    table = make_table(["ana", "bo"], OPTIONS, rated=True)
    match = tables.start(table.pk, table.host, seed=4)
    ana = seat_of(match, 0).user
    assert standins.control(match.pk, ana, {"action": "stand_in", "stand_in_seq": 0}).ok
    seat = seat_of(match, 0)
    assert (seat.stand_in, seat.ai_policy) == ("asked", "heuristic")
    assert standins.policy_name(rated=False) == "expert"


def test_a_resignation_ends_the_match_for_the_other_team(duel):
    """ana resigns: team 2 (seat 1) wins, the table is finished, the move log says so, and
    nothing more is taken from anyone."""
    match, ana, bo = duel
    result = act(match, ana, action="resign", client_id="r1")
    assert result.ok
    match = now(match)
    assert match.winner_team == 1 and match.finished_at is not None
    assert match.table.status == Table.Status.FINISHED
    last = Move.objects.filter(match=match).order_by("-seq").first()
    assert (last.seat, last.action, last.client_id) == (0, {"type": "resign", "seat": 0}, "r1")
    assert [e["type"] for e in last.events] == ["resign", "match_over"]
    assert services.load_state(match).result.resigned == 0
    record = Client().get(reverse("games:match_record", args=[match.pk])).content.decode()
    assert "ana resigned the match" in record
    # The table's result says who resigned, with no empty finish order or catch beside it.
    page = Client().get(reverse("games:table", args=[match.table_id])).content.decode()
    assert 'id="resigned-line"' in page and "Finish order" not in page
    exported = Client().get(reverse("games:match_export", args=[match.pk])).json()
    jsonschema.validate(exported, SCHEMA)  # docs/match_format.schema.json knows "resign"
    assert exported["moves"][-1]["action"] == {"type": "resign", "seat": 0}
    assert exported["match"]["winner_team"] == 1
    replay = Client().get(reverse("games:match_replay", args=[match.pk]), {"step": 10**6})
    assert replay.status_code == 200 and "ana resigned" in replay.content.decode()
    assert act(match, bo, action="resign").code == "match_over"
    assert act(match, ana, action="resign", client_id="r1").code == "duplicate"
    late = standins.control(match.pk, bo, {"action": "stand_in", "stand_in_seq": 0})
    assert late.code == "match_over"


def test_a_resignation_from_the_future_is_refused(duel):
    match, ana, _bo = duel
    refused = services.submit(match.pk, ana, {"action": "resign", "version": 99})
    assert (refused.ok, refused.code) == (False, "stale")
    assert now(match).winner_team is None


def test_a_resignation_in_the_pause_after_a_round_keeps_that_rounds_result(make_table):
    """ana goes out and her team takes round 1 (bo caught); bo resigns before the next deal:
    the match is ana's team's, and round 1's record is the round as it was played."""
    table = make_table(["ana", "bo"], OPTIONS)
    match = tables.start(table.pk, table.host, seed=4)
    install_state(match, start_round(table.engine_options(), [("3S",), ("4S", "5S")], 2))
    ana, bo = seat_of(match, 0).user, seat_of(match, 1).user
    assert act(match, ana, action="play", cards=["3S"]).ok
    assert now(match).phase == "round_over"
    assert act(match, bo, action="resign").ok
    assert now(match).winner_team == 0
    first = Round.objects.get(match=match, number=1)
    assert (first.winner_team, first.caught, first.levels_after) == (0, [1], [3, 2])


def test_a_resigned_rounds_record_names_the_other_team(duel):
    match, ana, _bo = duel
    assert act(match, ana, action="resign").ok
    first = Round.objects.get(match=match, number=1)
    assert (first.winner_team, first.caught, first.levels_after) == (1, [], [2, 2])
    assert first.ended_at is not None
