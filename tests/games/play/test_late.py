"""Late answers and moves (issue 17 item 1): the writer judges a deadline, the clock only wakes it.

An answer to a claim window (hook, unhook, pass) or a move on a timed turn (play, pass) that
reaches the locked match row at or after ``Match.deadline`` is refused ``late``, and the writer
makes the deadline's own transition in the same transaction (the window closes, the turn times
out), once: the timer that rings afterwards finds its token gone. Before, a hook sent 1.01 s
after its window's deadline, with the main worker down, was stored as a hook.

No worker runs here: nothing moves but what the test sends. ``services.writer_now`` (the
writer's clock) is set to an exact instant where the test needs one; the real worker's races are
``test_late_worker.py``'s.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from functools import partial

import pytest
from django.utils import timezone

from games.engine.deal import start_round
from games.engine.rules import legal_actions
from games.models import Match, Move, Seat
from games.play import clock, deadlines, services, standins
from games.play.outcomes import http_status, refusal_message
from tests.games.conftest import install_state

pytestmark = pytest.mark.django_db

#: Seat 0 leads; its 9H opens a window seat 1 (9D 9C) and seat 3 (9S 9D) may hook.
HANDS = [
    ["9H", "9S", "3C", "5D"],
    ["9D", "9C", "3H", "5C"],
    ["4C", "5H", "7D", "8D"],
    ["9S", "9D", "4D", "6S"],
]
WINDOWS = {"claim_window_seconds": 4, "turn_seconds": 60}
TURNS = {"claim_window_seconds": 0, "turn_seconds": 60}


def fresh(match: Match, leader: int = 0) -> Match:
    """``match`` dealt ``HANDS`` again at version 0, its log emptied, its turn's deadline a
    minute away and no timeouts counted: a fresh state for one more try."""
    Move.objects.filter(match=match).delete()
    options = match.table.engine_options()
    install_state(match, start_round(options, [tuple(h) for h in HANDS], 2, leader=leader, seed=1))
    Match.objects.filter(pk=match.pk).update(
        deadline=timezone.now() + timedelta(seconds=60), timeouts_in_row=[]
    )
    return Match.objects.select_related("table").get(pk=match.pk)


def people(match: Match) -> dict:
    return {s.number: s.user for s in Seat.objects.filter(table_id=match.table_id)}


def send(match: Match, user, **payload):
    payload.setdefault("version", Match.objects.get(pk=match.pk).version)
    return services.submit(match.pk, user, payload)


def log(match: Match) -> list[tuple[int, int | None, str]]:
    """The move log: (version, seat, action type)."""
    rows = Move.objects.filter(match=match).order_by("seq")
    return [(m.seq, m.seat, m.action["type"]) for m in rows]


def at(monkeypatch, instant: datetime) -> None:
    """The writer's clock reads ``instant`` (the deadline, or just before or after it)."""
    monkeypatch.setattr(services, "writer_now", lambda: instant)


def deadline_of(match: Match) -> datetime:
    deadline = Match.objects.get(pk=match.pk).deadline
    assert deadline is not None
    return deadline


def test_a_hook_after_the_deadline_is_refused_and_the_writer_closes_the_window_once(
    make_table, start_with_hands, django_capture_on_commit_callbacks
):
    """The issue's case on the real clock: no worker runs, bo hooks 1.01 s after the window's
    deadline. Refused ``late`` (409 for the bot API, a sentence for the page); the writer closed
    the window as the timer would (one ``timeout`` move, bo still holds his 9s, his turn to
    follow) and armed the next turn's deadline; the timer ringing afterwards with the window's
    token, and the sweep, find nothing to do."""
    table = make_table(["ana", "bo", "cy", "di"], WINDOWS)
    match = start_with_hands(table, HANDS, leader=0)
    seat = people(match)
    assert send(match, seat[0], action="play", cards=["9H"]).ok
    window = Match.objects.get(pk=match.pk)
    assert (window.phase, window.deadline_kind, window.deadline_token) == ("window", "window", 1)
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - timedelta(seconds=1.01))
    with django_capture_on_commit_callbacks(execute=True):
        late = send(match, seat[1], action="hook", cards=["9D", "9C"], version=1)
    assert (late.ok, late.code, late.version) == (False, "late", 2)
    assert http_status(late.code) == 409
    assert refusal_message(late) == "Too late: the time ran out before your move arrived."
    state = services.load_state(Match.objects.get(pk=match.pk))
    assert (state.phase, state.turn, state.top.cards, state.top.seat) == ("play", 1, ("9H",), 0)
    assert sorted(state.hands[1]) == sorted(HANDS[1])
    assert log(match) == [(1, 0, "play"), (2, None, "timeout")]
    running = Match.objects.get(pk=match.pk)
    assert (running.deadline_kind, running.deadline_token) == ("turn", 2)
    assert running.deadline > timezone.now() + timedelta(seconds=50)
    assert clock.pending()[match.pk][0] == 2  # the clock wakes the next turn, not the window
    assert deadlines.expire(match.pk, token=1) is False  # the window's timer, ringing late
    assert deadlines.sweep_overdue(grace_seconds=0) == 0
    assert log(match) == [(1, 0, "play"), (2, None, "timeout")]


def test_a_move_at_the_turns_deadline_is_refused_and_the_turn_expires(
    make_table, start_with_hands, monkeypatch
):
    """ana leads; her 5D reaches the writer at the turn's deadline to the microsecond: the time
    is up, so it is refused and her turn times out instead (her lowest card, 3C, led by the
    clock, RULES.md §10), counted as one timeout in a row towards the stand-in."""
    table = make_table(["ana", "bo", "cy", "di"], TURNS)
    match = start_with_hands(table, HANDS, leader=0)
    at(monkeypatch, deadline_of(match))
    late = send(match, people(match)[0], action="play", cards=["5D"])
    assert (late.ok, late.code, late.version) == (False, "late", 1)
    state = services.load_state(Match.objects.get(pk=match.pk))
    assert (state.top.cards, state.top.seat, state.turn) == (("3C",), 0, 1)
    assert "5D" in state.hands[0]
    assert log(match) == [(1, None, "timeout")]
    assert standins.counts_of(Match.objects.get(pk=match.pk), 4)[0] == 1
    assert deadlines.expire(match.pk, token=0) is False


def test_an_answer_or_a_move_just_before_the_deadline_is_taken(
    make_table, start_with_hands, monkeypatch
):
    """One microsecond before the deadline, a hook and a play are accepted as before."""
    windows = start_with_hands(make_table(["ana", "bo", "cy", "di"], WINDOWS), HANDS)
    seat = people(windows)
    assert send(windows, seat[0], action="play", cards=["9H"]).ok
    at(monkeypatch, deadline_of(windows) - timedelta(microseconds=1))
    assert send(windows, seat[1], action="hook", cards=["9D", "9C"], version=1).ok
    assert log(windows)[-1] == (2, 1, "hook")

    turns = start_with_hands(make_table(["eva", "fu", "gil", "hal"], TURNS), HANDS)
    at(monkeypatch, deadline_of(turns) - timedelta(microseconds=1))
    assert send(turns, people(turns)[0], action="play", cards=["5D"]).ok
    assert log(turns) == [(1, 0, "play")]


def test_a_resignation_after_the_deadline_follows_the_deadlines_transition(
    make_table, start_with_hands, monkeypatch
):
    """A resignation means whatever the table did since: after the deadline it is still taken,
    on the state the deadline made (the timeout first, then the resignation)."""
    table = make_table(["ana", "bo", "cy", "di"], TURNS)
    match = start_with_hands(table, HANDS, leader=0)
    at(monkeypatch, deadline_of(match) + timedelta(seconds=2))
    assert send(match, people(match)[1], action="resign", version=0).ok
    assert log(match) == [(1, None, "timeout"), (2, 1, "resign")]
    assert Match.objects.get(pk=match.pk).winner_team == 0


#: The late tries: (table options, what opens the moment, the seat that answers late, payload).
TRIES = [
    (WINDOWS, ["9H"], 1, {"action": "hook", "cards": ["9D", "9C"]}),
    (WINDOWS, ["9H"], 3, {"action": "hook", "cards": ["9S", "9D"]}),
    (WINDOWS, ["9H"], 2, {"action": "pass"}),
    (TURNS, [], 0, {"action": "play", "cards": ["5D"]}),
    (TURNS, ["3C"], 1, {"action": "pass"}),
    (TURNS, ["3C"], 1, {"action": "play", "cards": ["5C"]}),
]


@pytest.mark.slow
def test_a_hundred_answers_and_moves_just_after_their_deadline_are_refused(
    make_table, start_with_hands, monkeypatch
):
    """100 tries over fresh states: hooks and passes in a claim window, plays and passes on a
    turn, each reaching the writer 0 µs to 50 ms after its deadline (a few up to 2 s; seeded).
    Every one is refused ``late``, the deadline's transition is made exactly once (one
    ``timeout`` move, the late action never in the log), and the timer ringing afterwards finds
    nothing: 100/100."""
    rng = random.Random(17)
    matches = {
        id(WINDOWS): start_with_hands(make_table(["ana", "bo", "cy", "di"], WINDOWS), HANDS),
        id(TURNS): start_with_hands(make_table(["eva", "fu", "gil", "hal"], TURNS), HANDS),
    }
    offsets = [0.0, 1e-6, 1e-3, 1.01] + [rng.uniform(0, 0.05) for _ in range(90)]
    offsets += [rng.uniform(0.05, 2.0) for _ in range(6)]
    refused = 0
    for n, offset in enumerate(offsets):
        options, opening, late_seat, payload = TRIES[n % len(TRIES)]
        match = fresh(matches[id(options)])
        seat = people(match)
        monkeypatch.undo()
        if opening:
            assert send(match, seat[0], action="play", cards=opening).ok
        before = Match.objects.get(pk=match.pk)
        at(monkeypatch, before.deadline + timedelta(seconds=offset))
        result = send(match, seat[late_seat], version=before.version, **payload)
        assert (result.ok, result.code) == (False, "late"), (n, offset, payload)
        assert [m[1:] for m in log(match)[len(opening) :]] == [(None, "timeout")], (n, offset)
        assert deadlines.expire(match.pk, before.deadline_token) is False
        refused += 1
    assert refused == len(offsets) == 100


def test_an_ai_decision_after_its_deadline_is_not_applied(
    make_table, start_with_hands, monkeypatch
):
    """An AI seat (or a stand-in: the same path) decided in time but its move reaches the row
    after the deadline: not applied; the turn times out instead, once. Likewise an AI's window
    answer and a person's auto-pass that come after the window's deadline: the window closes."""
    table = make_table(["ana", None, "cy", "di"], TURNS)
    match = start_with_hands(table, HANDS, leader=1)
    state = services.load_state(match)
    action = legal_actions(state, 1)[0]
    at(monkeypatch, deadline_of(match) + timedelta(milliseconds=3))
    assert deadlines.ai_apply(match.pk, 1, 0, action) is False
    assert log(match) == [(1, None, "timeout")]
    assert deadlines.ai_apply(match.pk, 1, 0, action) is False  # its token is gone
    assert deadlines.expire(match.pk, 0) is False
    assert log(match) == [(1, None, "timeout")]

    monkeypatch.undo()
    windows = make_table(["eva", None, "gil", "hal"], WINDOWS)
    match = start_with_hands(windows, HANDS, leader=0)
    seat = people(match)
    seat[3].auto_pass_hooks = True
    seat[3].save(update_fields=["auto_pass_hooks"])
    for first in ("auto_pass", "ai"):
        match = fresh(match)
        monkeypatch.undo()
        assert send(match, seat[0], action="play", cards=["9H"]).ok
        answer = legal_actions(services.load_state(Match.objects.get(pk=match.pk)), 1)[0]
        at(monkeypatch, deadline_of(match) + timedelta(milliseconds=1))
        late = {
            "auto_pass": partial(deadlines.auto_pass, match.pk, 3, 1),
            "ai": partial(deadlines.ai_apply, match.pk, 1, 1, answer),
        }
        assert late[first]() is False
        assert log(match) == [(1, 0, "play"), (2, None, "timeout")], first
        assert not any(again() for again in late.values())  # the token moved on
        assert log(match) == [(1, 0, "play"), (2, None, "timeout")], first
