"""AI difficulty levels in the product (issue 11): beginner, casual and expert seats, chosen when
filling a table, shown on the seat and the match record, played by the worker
(``games.play.ai_turns``)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from config.errors import CARD_TOKEN
from games.engine.ai import KEYS, difficulty
from games.engine.rules import legal_actions
from games.engine.state import PLAY, WINDOW
from games.models import Match, Move, Seat
from games.play import ai_turns, deadlines, services, tables
from leagues.tournament_forms import StandInForm
from tests import servers
from tests.games.drivers import act_now
from tests.servers import wait_for

HANDS_4 = [
    ["3S", "4S", "5S", "9H"],
    ["6H", "7H", "8H", "9D", "9C"],
    ["10S", "JS", "QS"],
    ["3D", "5D", "KD", "AD"],
]


def test_the_difficulties_are_the_engine_policies_with_names_a_player_understands():
    """Beginner plays ``random``, casual ``heuristic``, expert ``expert``, in that order; every
    stored value is an engine policy."""
    assert Seat.Policy.choices == [
        ("random", "Beginner"),
        ("heuristic", "Casual"),
        ("expert", "Expert"),
    ]
    assert Seat.Policy.values == list(KEYS)


def test_the_expert_thinks_within_its_budget_and_a_window_answer_always_takes_it():
    """The expert thinks for its budget, in a claim window at most a quarter of the time left;
    in a window it answers when its budget is up however long it thought, elsewhere (and any
    other level) at once."""
    budget = difficulty("expert").time_budget
    assert budget == 0.5
    assert ai_turns.think_budget(PLAY, "expert", 0.5) == budget
    assert ai_turns.think_budget(WINDOW, "expert", 10.0) == budget
    assert ai_turns.think_budget(WINDOW, "expert", 0.8) == pytest.approx(0.2)
    assert ai_turns.think_budget(WINDOW, "expert", None) == budget
    assert ai_turns.think_budget(WINDOW, "heuristic", 10.0) == 0.0
    assert ai_turns.answer_pause(WINDOW, "expert", 0.3, 0.05) == pytest.approx(0.25)
    assert ai_turns.answer_pause(WINDOW, "expert", 0.3, 0.0) == pytest.approx(0.3)
    assert ai_turns.answer_pause(WINDOW, "expert", 0.3, 0.4) == 0.0
    assert ai_turns.answer_pause(PLAY, "expert", 0.3, 0.05) == 0.0
    assert ai_turns.answer_pause(WINDOW, "heuristic", 0.3, 0.0) == 0.0


@pytest.mark.django_db
def test_an_expert_seat_plays_a_legal_move_when_asked(make_table, start_with_hands):
    """``ai_act`` for an expert seat (decided outside the row lock) plays one legal move for
    it; a stale token still does nothing."""
    table = make_table(["ana", None, "cy", None])
    tables.set_ai(table.pk, table.host, 1, Seat.Policy.EXPERT)
    match = start_with_hands(table, HANDS_4, leader=1)
    before = services.load_state(match)
    assert deadlines.ai_act(match.pk, 1, token=7) is False
    assert deadlines.ai_act(match.pk, 1, token=0) is True
    move = Move.objects.get(match=match)
    assert move.seat == 1 and move.action["type"] == "play"
    assert tuple(move.action["cards"]) in {a.cards for a in legal_actions(before, 1)}
    assert deadlines.ai_act(match.pk, 1, token=0) is False  # the moment has passed


@pytest.mark.django_db
def test_an_expert_answers_a_claim_window_after_its_pause(make_table, start_with_hands):
    """In a window, the expert seat's decided answer is recorded once (its pause is the
    worker's: the next test)."""
    table = make_table(["ana", None, "cy", None])
    tables.set_ai(table.pk, table.host, 1, Seat.Policy.EXPERT)
    match = start_with_hands(table, HANDS_4, leader=0)
    assert services.submit(
        match.pk, table.host, {"action": "play", "cards": ["9H"], "version": 0}
    ).ok
    match.refresh_from_db()
    assert match.phase == "window"
    assert act_now(match.pk, 1, match.deadline_token) is True
    answer = Move.objects.filter(match=match, seat=1).get()
    assert answer.action["type"] in ("hook", "pass")
    assert act_now(match.pk, 1, match.deadline_token) is False


@pytest.mark.django_db
def test_the_worker_schedules_an_experts_window_answer_instead_of_sleeping(
    make_table, start_with_hands, settings, monkeypatch
):
    """The worker's ``ai_act`` decides, then sends the window answer on as an ``ai_answer``
    countdown task (its pause as the countdown) instead of holding its process asleep; that
    task applies it once. Read from the real broker queue, run as the worker would.

    The pause is the budget less the time the search took, so on a machine busy enough for the
    search to use its whole budget the answer rightly goes at once: the decision's clock is held
    still here, so the test sees the scheduling, not the machine's speed."""
    from types import SimpleNamespace

    from celery import current_app

    from games import tasks

    monkeypatch.setattr(ai_turns, "time", SimpleNamespace(perf_counter=lambda: 0.0))

    table = make_table(["ana", None, "cy", None])
    tables.set_ai(table.pk, table.host, 1, Seat.Policy.EXPERT)
    match = start_with_hands(table, HANDS_4, leader=0)
    assert services.submit(
        match.pk, table.host, {"action": "play", "cards": ["9H"], "version": 0}
    ).ok
    match.refresh_from_db()
    queue = settings.CELERY_TASK_DEFAULT_QUEUE
    with current_app.connection_for_read() as connection:
        inbox = connection.SimpleQueue(queue, no_ack=True)
        inbox.clear()
        assert tasks.ai_act.run(match.pk, 1, match.deadline_token) is True
        assert not Move.objects.filter(match=match, seat=1).exists()  # nothing slept, nothing yet
        message = inbox.get(timeout=5)
        inbox.close()
    assert message.headers["task"] == "games.tasks.ai_answer"
    assert message.headers["eta"] is not None  # a countdown: the pause, not a sleep
    # The message names the moment, never the answer: its cards are not public until it is
    # played, and Celery logs a task's arguments (issue 17 item 4). Nor does it say what the
    # arguments are for a log line to print.
    args = message.payload[0]
    assert args == [match.pk, 1, match.deadline_token]
    assert message.headers["argsrepr"] == message.headers["kwargsrepr"] == "(not logged)"
    assert not CARD_TOKEN.search(repr(message.headers) + repr(message.payload))
    assert tasks.ai_answer.run(*args) is True
    answer = Move.objects.filter(match=match, seat=1).get()
    assert answer.action["type"] in ("hook", "pass")
    assert tasks.ai_answer.run(*args) is False  # once


def test_a_wake_up_carries_ints_alone():
    """``wakeups`` sends ids, tokens and versions; anything else (a card, an action's JSON) is
    refused before it reaches the broker, and so a worker's log."""
    from games.play import wakeups

    with pytest.raises(TypeError, match="ints"):
        wakeups._send(wakeups.AI_ANSWER, (1, 1, 1, {"type": "hook", "cards": ["9D", "9D"]}))
    with pytest.raises(TypeError, match="ints"):
        wakeups._send(wakeups.AI_ACT, (1, "9D", 1))


@pytest.mark.django_db
def test_the_host_fills_with_experts_and_the_seat_shows_the_difficulty(client, make_user):
    """The fill menu offers every level (casual preselected) while a seat is empty; filling a
    table with the expert level stores it on each empty seat, and the table page shows the level
    beside the AI badge (and no fill menu: no seat is left to fill)."""
    host = make_user("host")
    table = tables.create_table(host, name="experts", players=4, options={})
    client.force_login(host)
    html = client.get(reverse("games:table", args=[table.pk])).content.decode()
    assert '<option value="heuristic" selected>Casual</option>' in html
    assert '<option value="random">Beginner</option>' in html
    client.post(reverse("games:fill_with_ai", args=[table.pk]), {"policy": "expert"})
    assert [s.ai_policy for s in table.seats.order_by("number")] == [
        "",
        "expert",
        "expert",
        "expert",
    ]
    html = client.get(reverse("games:table", args=[table.pk])).content.decode()
    assert html.count('<span class="ai-difficulty">Expert</span>') == 3
    assert 'id="fill-ai"' not in html


def test_a_tournament_stand_in_is_the_expert_unless_the_organiser_picks_another():
    """The organiser's stand-in form starts at the expert level and offers the others."""
    field = StandInForm().fields["policy"]
    assert field.initial == "expert"
    assert [v for v, _ in field.choices] == ["", "random", "heuristic", "expert"]


@pytest.mark.django_db(transaction=True)
def test_expert_seats_play_through_the_worker(worker, make_user):
    """An all-expert table plays by itself through the real Celery worker."""
    host = make_user("host")
    table = tables.create_table(
        host, name="experts", players=4, options={"claim_window_seconds": 1, "turn_seconds": 30}
    )
    # AI seats before the host stands up: a table left with every seat empty closes.
    tables.fill_with_ai(table.pk, host, Seat.Policy.EXPERT)
    tables.leave_seat(table.pk, host)
    tables.fill_with_ai(table.pk, host, Seat.Policy.EXPERT)
    match = tables.start(table.pk, host, seed=11)
    assert wait_for(lambda: Move.objects.filter(match=match, seat__isnull=False).count() >= 6, 60)
    servers.stop(*worker)  # the table plays on: compare the state and the log once it stops
    moves = Move.objects.filter(match=match, seat__isnull=False)
    assert {m.action["type"] for m in moves} <= {"play", "pass", "hook", "unhook"}
    state = services.load_state(Match.objects.get(pk=match.pk))
    assert state.version == Move.objects.filter(match=match).count()
