"""The one writer of a match (games.play.services) on the real PostgreSQL."""

from __future__ import annotations

import threading
import uuid
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from accounts.models import User
from games.engine.cards import FACE
from games.engine.rules import seats_to_act
from games.models import Match, Move, Round, Table
from games.play import clock, deadlines, services
from games.play.outcomes import refusal_message
from tests.servers import free_port

pytestmark = pytest.mark.django_db

HANDS_4 = [
    ["9H", "9S", "3C", "5D"],
    ["9D", "9C", "3H", "5C"],
    ["4C", "5H", "7D", "8D"],
    ["9S", "9D", "4D", "6S"],
]


def submit(match, user, **payload):
    payload.setdefault("version", Match.objects.get(pk=match.pk).version)
    return services.submit(match.pk, user, payload)


def state_of(match):
    return services.load_state(Match.objects.get(pk=match.pk))


def test_a_play_is_applied_logged_and_bumps_the_version(make_table, start_with_hands):
    """An accepted play moves the cards, bumps the version and appends one move."""
    table = make_table(["ana", "bo", "cy", "di"])
    match = start_with_hands(table, HANDS_4, leader=0)
    ana = table.host
    result = submit(match, ana, action="play", cards=["3C"], client_id="c1")
    assert result.ok and result.version == 1
    state = state_of(match)
    assert state.hands[0] == ("5D", "9S", "9H")  # canonical order: suits S, H, D, C
    assert state.phase == "window"
    move = Move.objects.get(match=match)
    assert (move.seq, move.seat, move.action, move.client_id) == (
        1,
        0,
        {"type": "play", "seat": 0, "cards": ["3C"]},
        "c1",
    )


def test_the_seat_comes_from_the_membership_not_the_payload(make_table, start_with_hands):
    """A payload naming another seat still acts for the sender's own seat only."""
    table = make_table(["ana", "bo", "cy", "di"])
    match = start_with_hands(table, HANDS_4, leader=0)
    bo = table.seats.get(number=1).user
    result = submit(match, bo, action="play", cards=["3H"], seat=0)
    assert (result.ok, result.code) == (False, "not_your_turn")
    assert state_of(match).version == 0


@pytest.mark.parametrize(
    "payload, code",
    [
        ({"action": "play", "cards": ["ZZ"]}, "unknown_card"),
        ({"action": "play", "cards": ["AH"]}, "not_in_hand"),
        ({"action": "play", "cards": ["9H", "3C"]}, "invalid_combination"),
        ({"action": "play", "cards": []}, "empty_play"),
        ({"action": "play", "cards": "3C"}, "malformed"),
        ({"action": "pass"}, "leader_cannot_pass"),
        ({"action": "hook", "cards": ["9H", "9S"]}, "no_window"),
        ({"action": "return", "card": "3C"}, "invalid_return"),
        ({"action": "timeout"}, "malformed"),
        ({"action": "next_round"}, "malformed"),
        ({"action": "play", "cards": ["3C"], "version": 7}, "stale"),
        ({"action": "play", "cards": ["3C"], "version": "x"}, "stale"),
    ],
)
def test_bad_input_is_refused_with_a_code_and_changes_nothing(
    make_table, start_with_hands, payload, code
):
    """Malformed, illegal and stale actions are refused; state, version and log stay put."""
    table = make_table(["ana", "bo", "cy", "di"])
    match = start_with_hands(table, HANDS_4, leader=0)
    before = Match.objects.get(pk=match.pk).state
    result = services.submit(match.pk, table.host, {"version": 0, **payload})
    assert (result.ok, result.code) == (False, code)
    assert Match.objects.get(pk=match.pk).state == before
    assert not Move.objects.filter(match=match).exists()


def test_a_return_with_no_tribute_is_told_so(make_table, start_with_hands):
    """A return sent during play (a forged message, a page behind) was answered "Return one
    card of face 2 to 9." as if a tribute ran: the sentence says a return is for a tribute."""
    table = make_table(["ana", "bo", "cy", "di"])
    match = start_with_hands(table, HANDS_4, leader=0)
    result = services.submit(match.pk, table.host, {"version": 0, "action": "return", "card": "3C"})
    assert refusal_message(result) == (
        "That return cannot be made: only during a tribute, one card of face 2 to 9."
    )


def test_a_non_member_cannot_act(make_table, start_with_hands, make_user):
    """Someone without a seat at the table is refused."""
    table = make_table(["ana", "bo", "cy", "di"])
    match = start_with_hands(table, HANDS_4, leader=0)
    result = submit(match, make_user("stranger"), action="play", cards=["3C"])
    assert (result.ok, result.code) == (False, "not_seated")


def test_a_repeated_client_id_is_never_applied_twice(make_table, start_with_hands):
    """A resend of the same message after a reconnect is recognised, not replayed; another move
    sent with that id (the seat's next, or another seat's) is refused as such, not taken for a
    resend."""
    table = make_table(["ana", "bo", "cy", "di"])
    match = start_with_hands(table, HANDS_4, leader=0)
    assert submit(match, table.host, action="play", cards=["3C"], client_id="same").ok
    resent = {"action": "play", "cards": ["3C"], "version": 0, "client_id": "same"}
    again = services.submit(match.pk, table.host, resent)
    assert (again.ok, again.code, again.version) == (False, "duplicate", 1)
    for user, payload in [
        (table.host, {"action": "play", "cards": ["5D"], "version": 1, "client_id": "same"}),
        (User.objects.get(username="bo"), {"action": "pass", "version": 1, "client_id": "same"}),
    ]:
        reused = services.submit(match.pk, user, payload)
        assert (reused.ok, reused.code, reused.version) == (False, "client_id_used", 1)
    assert Move.objects.filter(match=match).count() == 1


def test_client_ids_alike_in_their_first_64_characters_are_two_ids(make_table, start_with_hands):
    """An id past the column's 64 characters is refused, never cut: cut, a second move whose id
    shared the first 64 characters was answered "duplicate" and lost. Ids of 64 are taken."""
    table = make_table(["ana", "bo", "cy", "di"])
    match = start_with_hands(table, HANDS_4, leader=0)
    play = {"action": "play", "cards": ["3C"], "version": 0}
    long_id = services.submit(match.pk, table.host, {**play, "client_id": "Y" * 65})
    assert (long_id.ok, long_id.code) == (False, "malformed")
    assert "64" in long_id.message
    assert not Move.objects.filter(match=match).exists()
    assert submit(match, table.host, action="play", cards=["3C"], client_id="Y" * 63 + "1").ok
    assert Move.objects.get(match=match).client_id == "Y" * 63 + "1"


def test_a_double_clicked_move_is_a_duplicate_not_a_stale_action(make_table, start_with_hands):
    """A double click sends the same play twice against the same version, each with its own
    client id: the second is recognised as the move the first applied ("duplicate", which the
    page is not told about), while a different play at that old version is stale."""
    table = make_table(["ana", "bo", "cy", "di"])
    match = start_with_hands(table, HANDS_4, leader=0)
    play = {"action": "play", "cards": ["3C"], "version": 0}
    assert services.submit(match.pk, table.host, {**play, "client_id": "click-1"}).ok
    again = services.submit(match.pk, table.host, {**play, "client_id": "click-2"})
    assert (again.ok, again.code) == (False, "duplicate")
    other = services.submit(match.pk, table.host, {**play, "cards": ["5D"]})
    assert (other.ok, other.code) == (False, "stale")
    assert Move.objects.filter(match=match).count() == 1


def test_claims_arriving_farther_seat_first_go_to_the_nearer_seat(make_table, start_with_hands):
    """§6.3: seat 3 hooks first, seat 1 hooks later; seat 1 is nearer to the owner and wins."""
    table = make_table(["ana", "bo", "cy", "di"])
    match = start_with_hands(table, HANDS_4, leader=0)
    seat = {s.number: s.user for s in table.seats.all()}
    assert submit(match, seat[0], action="play", cards=["9H"]).ok
    window_version = state_of(match).version
    far = services.submit(
        match.pk, seat[3], {"action": "hook", "cards": ["9S", "9D"], "version": window_version}
    )
    assert far.ok
    assert state_of(match).phase == "window"  # seat 3's claim waits on seats 1 and 2
    near = services.submit(
        match.pk, seat[1], {"action": "hook", "cards": ["9D", "9C"], "version": window_version}
    )
    assert near.ok
    state = state_of(match)
    assert state.top.seat == 1 and state.top.cards == ("9D", "9C")
    assert state.window.mode == "unhook" and state.window.owner == 1
    assert sorted(state.hands[3]) == sorted(["9S", "9D", "4D", "6S"])  # outranked keeps cards
    events = [e for m in Move.objects.filter(match=match) for e in m.events]
    assert {"type": "outranked", "seat": 3, "by": 1} in events


def test_an_answer_to_a_closed_window_is_stale(make_table, start_with_hands):
    """A pass made against an older window does not answer the next one."""
    table = make_table(["ana", "bo", "cy", "di"])
    match = start_with_hands(table, HANDS_4, leader=0)
    seat = {s.number: s.user for s in table.seats.all()}
    assert submit(match, seat[0], action="play", cards=["9H"]).ok
    assert submit(match, seat[1], action="hook", cards=["9D", "9C"], version=1).ok
    old = services.submit(match.pk, seat[2], {"action": "pass", "version": 1})
    assert (old.ok, old.code) == (False, "stale")


@pytest.mark.django_db(transaction=True)
def test_two_simultaneous_turn_actions_exactly_one_wins(make_table, start_with_hands):
    """Two tabs of the same seat send different plays at once: one applies, one is stale."""
    table = make_table(["ana", "bo", "cy", "di"])
    match = start_with_hands(table, HANDS_4, leader=0)
    ana = table.host
    results = []
    barrier = threading.Barrier(2)

    def send(card: str) -> None:
        try:
            barrier.wait()
            results.append(
                services.submit(match.pk, ana, {"action": "play", "cards": [card], "version": 0})
            )
        finally:
            connection.close()

    threads = [threading.Thread(target=send, args=(card,)) for card in ("3C", "5D")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(r.ok for r in results) == [False, True]
    assert [r.code for r in results if not r.ok] == ["stale"]
    assert Move.objects.filter(match=match).count() == 1
    assert len(state_of(match).hands[0]) == 3


def test_expire_applies_only_to_the_deadline_it_was_set_for(make_table, start_with_hands):
    """A timer task carrying an old token does nothing; the current one times the seat out."""
    table = make_table(["ana", "bo", "cy", "di"])
    match = start_with_hands(table, HANDS_4, leader=0)
    Match.objects.filter(pk=match.pk).update(deadline=_past())
    assert deadlines.expire(match.pk, token=99) is False
    assert deadlines.expire(match.pk, token=0) is True
    state = state_of(match)
    assert state.top.cards == ("3C",)  # the leader timed out: lowest-power card, §10
    assert state.phase == "window"


def test_ai_seat_acts_only_when_it_is_asked_for_the_current_moment(make_table, start_with_hands):
    """ai_act with the current token plays for the AI seat; a stale token does nothing."""
    table = make_table(["ana", None, "cy", None])
    match = start_with_hands(table, HANDS_4, leader=1)
    assert deadlines.ai_act(match.pk, 1, token=5) is False
    assert deadlines.ai_act(match.pk, 3, token=0) is False  # not seat 3's turn
    assert deadlines.ai_act(match.pk, 1, token=0) is True
    move = Move.objects.get(match=match)
    assert move.seat == 1 and move.action["type"] == "play"
    assert all(FACE[c] for c in move.action["cards"])


def test_round_and_match_records_follow_the_events(make_table, start_with_hands):
    """A round that ends records its finish order, caught seats and levels."""
    table = make_table(["ana", "bo", "cy", "di"])
    match = start_with_hands(table, [["KH"], ["3C", "4C"], ["JH"], ["3D", "4D"]], leader=2)
    seat = {s.number: s.user for s in table.seats.all()}
    assert submit(match, seat[2], action="play", cards=["JH"]).ok
    for s in (3, 0, 1):  # the window after a single: everyone passes
        assert submit(match, seat[s], action="pass", version=1).ok
    for s in (3, 0, 1):
        assert submit(match, seat[s], action="pass").ok
    assert submit(match, seat[0], action="play", cards=["KH"]).ok
    rnd = Round.objects.get(match=match, number=1)
    assert (rnd.finish_order, rnd.caught, rnd.levels_after, rnd.winner_team) == (
        [2, 0],
        [1, 3],
        [4, 2],
        0,
    )
    match.refresh_from_db()
    assert match.phase == "round_over" and match.deadline_kind == "next_round"


def test_a_round_that_ends_while_the_pages_redis_is_away_still_arms_the_next_round(
    make_table, start_with_hands, settings, django_capture_on_commit_callbacks
):
    """The channel layer's Redis cannot be reached when the last card of a round is played: the
    push and the lobby's notice fail after the commit, yet the move stands, the writer answers
    ok and the next round's deadline is armed on the clock (else the match would wait at the
    round's end for the beat's sweep)."""
    table = make_table(["ana", "bo", "cy", "di"])
    match = start_with_hands(table, [["KH"], ["3C", "4C"], ["JH"], ["3D", "4D"]], leader=2)
    seat = {s.number: s.user for s in table.seats.all()}
    assert submit(match, seat[2], action="play", cards=["JH"]).ok
    for s in (3, 0, 1):
        assert submit(match, seat[s], action="pass", version=1).ok
    for s in (3, 0, 1):
        assert submit(match, seat[s], action="pass").ok
    settings.REDIS_NAMESPACE = f"{settings.REDIS_NAMESPACE}away-{uuid.uuid4().hex[:8]}-"
    away = {"hosts": [f"redis://127.0.0.1:{free_port()}/0"], "prefix": "away"}
    settings.CHANNEL_LAYERS = {"default": {**settings.CHANNEL_LAYERS["default"], "CONFIG": away}}
    try:
        with django_capture_on_commit_callbacks(execute=True):
            result = submit(match, seat[0], action="play", cards=["KH"])
        match.refresh_from_db()
        assert result.ok and match.phase == "round_over"
        assert Move.objects.filter(match=match, seq=match.version).exists()
        assert match.deadline_kind == "next_round"
        armed = clock.pending()
        assert armed == {
            match.pk: (match.deadline_token, pytest.approx(match.deadline.timestamp()))
        }
    finally:
        clock._redis().delete(*clock.keys())


def _past(seconds: float = 1):
    return timezone.now() - timedelta(seconds=seconds)


def test_auto_pass_answers_the_window_for_a_person_who_asked(make_table, start_with_hands):
    """With auto_pass_hooks on, the seat's window answer is a pass, whatever it holds."""
    table = make_table(["ana", "bo", "cy", "di"])
    match = start_with_hands(table, HANDS_4, leader=0)
    bo = table.seats.get(number=1).user
    bo.auto_pass_hooks = True
    bo.save()
    assert submit(match, table.host, action="play", cards=["9H"]).ok
    assert deadlines.auto_pass(match.pk, 1, token=0) is False  # the window opened at version 1
    assert deadlines.auto_pass(match.pk, 1, token=1) is True
    state = state_of(match)
    assert state.window.answers[1] == ()  # bo passed though he holds 9D 9C
    assert deadlines.auto_pass(match.pk, 1, token=1) is False  # answered once only


def test_an_abandoned_table_takes_no_more_moves(make_table, start_with_hands):
    """Once a match is stopped (e.g. forfeited by a tournament admin) nobody can move there."""
    table = make_table(["ana", "bo", "cy", "di"])
    match = start_with_hands(table, HANDS_4, leader=0)
    Table.objects.filter(pk=table.pk).update(status=Table.Status.ABANDONED)
    result = submit(match, table.host, action="play", cards=["3C"])
    assert (result.ok, result.code) == (False, "abandoned")
    assert not Move.objects.filter(match=match).exists()


def test_the_sweep_applies_a_deadline_whose_task_was_lost(make_table, start_with_hands):
    """A turn overdue by more than the grace (its Celery task lost in a restart) is applied."""
    table = make_table(["ana", "bo", "cy", "di"])
    match = start_with_hands(table, HANDS_4, leader=0)
    assert deadlines.sweep_overdue() == 0  # nothing overdue yet
    Match.objects.filter(pk=match.pk).update(deadline=_past(seconds=5))
    assert deadlines.sweep_overdue() == 1
    assert state_of(match).top.cards == ("3C",)


def test_the_sweep_makes_an_ai_move_whose_task_was_lost(make_table, start_with_hands):
    """Issue #9 item 7: an AI seat's countdown task lost to a worker crash. The sweep (what beat
    runs, on the AI queue) makes the AI decide, once, instead of leaving the seat to be timed
    out; a second sweep and the lost task arriving late change nothing. The main queue's sweep
    leaves it to the AI worker."""
    from games import tasks

    table = make_table(["ana", None, "cy", None])
    match = start_with_hands(table, HANDS_4, leader=1)  # the AI at seat 1 leads
    assert tasks.sweep_ai() == 0  # just asked: its own task may still come
    Match.objects.filter(pk=match.pk).update(started_at=_past(seconds=10))
    assert tasks.sweep() == 0  # the main worker's sweep runs no search
    assert not Move.objects.filter(match=match).exists()
    assert tasks.sweep_ai() == 1
    moves = list(Move.objects.filter(match=match).order_by("seq"))
    assert [(m.seq, m.seat, m.action["type"]) for m in moves] == [(1, 1, "play")]
    assert tasks.sweep_ai() == 0  # seat 3's answer to the window was asked for just now
    assert deadlines.ai_act(match.pk, 1, token=0) is False  # the lost task, delivered late
    assert Move.objects.filter(match=match).count() == 1

    state = state_of(match)
    assert state.phase == "window" and 3 in seats_to_act(state)
    Move.objects.filter(match=match, seq=1).update(created_at=_past(seconds=10))
    assert tasks.sweep_ai() == 1  # the AI at seat 3 answers the window
    assert tasks.sweep_ai() == 0
    answers = [(m.seat, m.action["type"]) for m in Move.objects.filter(match=match, seq__gt=1)]
    assert len(answers) == 1 and answers[0][0] == 3 and answers[0][1] != "timeout"


def test_the_sweep_makes_a_lost_auto_pass(make_table, start_with_hands):
    """A person with auto_pass_hooks whose auto-pass task was lost is passed by the sweep, once."""
    from games import tasks

    table = make_table(["ana", "bo", "cy", "di"])
    match = start_with_hands(table, HANDS_4, leader=0)
    bo = table.seats.get(number=1).user
    bo.auto_pass_hooks = True
    bo.save()
    assert submit(match, table.host, action="play", cards=["9H"]).ok
    assert tasks.sweep() == 0
    Move.objects.filter(match=match, seq=1).update(created_at=_past(seconds=10))
    assert tasks.sweep_ai() == 0  # the AI queue's sweep leaves people alone
    assert tasks.sweep() == 1
    assert tasks.sweep() == 0
    assert state_of(match).window.answers[1] == ()
    assert list(Move.objects.filter(match=match, seq__gt=1).values_list("seat", flat=True)) == [1]
