"""The spectator delay cannot be bypassed (issue #9, item 5).

Everything someone without a seat can reach — the table and its pushes, the lobby and its push,
profiles, match lists, the record, the replay and the export — shows the spectators' delayed
view (``games.live.delay``), and that view moves at the pace the moves were made, not when live
moves happen.

Time is an input here: the tests give the moves their times (``Move.created_at``) and call the
view's steps with the time they happen at, as the writer and the wake-up task do with the clock.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from asgiref.sync import sync_to_async
from django.db import connections
from django.db.models import DateTimeField, DurationField, ExpressionWrapper, F, Value
from django.test import Client
from django.urls import reverse

from games.engine import legal_actions
from games.engine.codec import action_to_json
from games.engine.rules import seats_to_act
from games.engine.state import ROUND_OVER
from games.live import delay, lobby, replay
from games.models import DelayedView, Match, Move, Seat, Table
from games.play import deadlines, services
from tests.games.live.test_spectating import public_cards, shown_version, start_people_table
from tests.games.pages import header
from tests.games.sockets.settle import settled
from tests.games.sockets.test_consumers import cards_in, connect, frame, is_spectator_count
from tests.servers import wait_for

T0 = datetime(2026, 6, 1, 20, 0, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def move_once(match: Match, shed: bool = False) -> None:
    """One move by whoever is due (its first legal action), or the next deal after a round.

    ``shed``: a seat that leads plays the lead with the most cards instead (the others still
    pass), so a hand empties in a few tricks and a round takes some 40 moves, not 250 — the
    same writer, a shorter match."""
    match.refresh_from_db()
    state = services.load_state(match)
    if state.phase == ROUND_OVER:
        Match.objects.filter(pk=match.pk).update(deadline=at(-1))
        assert deadlines.expire(match.pk, match.deadline_token)
    else:
        seat = seats_to_act(state)[0]
        actions = legal_actions(state, seat)
        chosen = actions[0]
        if shed and state.top is None and actions:
            chosen = max(actions, key=lambda a: len(getattr(a, "cards", ())))
        action = action_to_json(chosen)
        payload = {
            "action": action["type"],
            "version": match.version,
            "cards": action.get("cards", []),
        }
        if "card" in action:
            payload["card"] = action["card"]
        user = Seat.objects.select_related("user").get(table_id=match.table_id, number=seat).user
        assert services.submit(match.pk, user, payload).ok
    match.refresh_from_db()


def timed_move(match: Match, seconds: float) -> None:
    """A move played at ``at(seconds)``, then the writer's after-commit step of the view."""
    move_once(match)
    Move.objects.filter(match=match, seq=match.version).update(created_at=at(seconds))
    delay.note_move(match, now=at(seconds))


def view(match: Match) -> DelayedView:
    return DelayedView.objects.get(match=match)


# --- the pace ----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_view_moves_between_live_moves_never_on_one(make_table) -> None:
    """A table playing a move every 10 s with a delay of 2: the view first waits for the
    second play after move 1 (at 30 s) and takes a lag of 1.25 × 20 s; from then on each move
    is shown 25 s after it was played — at 35, 45, 55 s — between the live moves (30, 40, 50…),
    never at one, and always at least 2 plays behind."""
    match = start_people_table(make_table, delay=2)
    shown_at = {}
    for n in range(1, 9):
        timed_move(match, 10 * n)
        state = view(match)
        # A live move never moves the view: nothing is pushed at live times.
        assert state.version == len(shown_at)
        assert match.version - state.version >= min(2, match.version)
        if state.due_at is not None:
            step = delay.advance(match.pk, now=state.due_at)
            assert step.new == step.old + 1
            shown_at[step.new] = (state.due_at - T0).total_seconds()
    assert view(match).lag_seconds == pytest.approx(25.0)
    assert shown_at == {1: 35.0, 2: 45.0, 3: 55.0, 4: 65.0, 5: 75.0, 6: 85.0}
    live_times = {10.0 * n for n in range(1, 9)}
    assert not live_times & set(shown_at.values())


@pytest.mark.django_db
def test_an_early_or_repeated_wake_up_changes_nothing_and_a_lost_one_is_swept(make_table):
    """A wake-up before its time or twice moves nothing; one lost to a crash is caught by the
    sweep once overdue."""
    match = start_people_table(make_table, delay=1)
    timed_move(match, 10)
    timed_move(match, 20)  # move 1 may be shown: the view waited, lag 12.5 s, due at 22.5 s
    due = view(match).due_at
    assert due == at(22.5)
    assert delay.advance(match.pk, now=at(22)).new == 0
    assert delay.advance(match.pk, now=due).new == 1
    assert delay.advance(match.pk, now=due).new == 1
    timed_move(match, 30)  # move 2 shown at 20 + 12.5 s
    assert view(match).due_at == at(32.5)
    assert delay.sweep_overdue(now=at(33)) == 0  # not overdue long enough to be lost
    assert delay.sweep_overdue(now=at(40)) == 1
    assert view(match).version == 2


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_delayed_spectators_get_no_push_on_a_live_move(make_table, make_user):
    """Over sockets: a live move reaches the seat at once and the delayed spectator not at
    all; the spectator's frame comes when the view's wake-up rings, shows that older moment
    (public cards only), and is the delta the page needs."""
    match = await sync_to_async(start_people_table)(make_table, 1)
    host = await sync_to_async(lambda: match.table.host)()
    ana = await connect(match.table_id, host)
    watcher = await connect(match.table_id, await sync_to_async(make_user)("watcher"))
    assert shown_version(await frame(ana)) == 0 and shown_version(await frame(watcher)) == 0
    for _ in range(2):
        await sync_to_async(move_once)(match)  # the writer's own after-commit step runs
        assert header(await frame(ana))["v"] == match.version
        # Nothing but counts for the spectator before a marker published after the move's
        # push (settle.settled), and nothing more for ana.
        got = await settled(match.table_id, [watcher, ana])
        assert all(is_spectator_count(text) for texts in got for text in texts)
    state = await sync_to_async(view)(match)
    assert state.version == 0 and state.due_at is not None
    step = await sync_to_async(delay.advance)(match.pk, state.due_at)
    assert step.new == 1
    seen = await frame(watcher)
    assert header(seen) == {"v": 1, "r": header(seen)["r"], "full": False, "b": 0}
    past = await sync_to_async(lambda: replay.state_or_deal(match, 1))()
    assert cards_in(seen) <= public_cards(past)
    # The seats were not sent it again: nothing but counts before a marker published after.
    got = await settled(match.table_id, [ana, watcher])
    assert all(is_spectator_count(text) for texts in got for text in texts)
    await ana.disconnect()
    await watcher.disconnect()
    await sync_to_async(connections.close_all)()


# --- every door shows the delayed view --------------------------------------------------------

QUICK = {"claim_window_seconds": 0, "turn_seconds": 300, "target_level": "3"}


def people_table(make_table, delay_plays: int) -> Match:
    from games.play import tables

    table = make_table(["ana", "bo", "cy", "di"], QUICK)
    table.spectator_delay = delay_plays
    table.save()
    return tables.start(table.pk, table.host, seed=9)


def play_until(match: Match, done, limit: int = 2000) -> None:
    """Shed moves (``move_once(shed=True)``) through the writer until ``done(match)``."""
    for _ in range(limit):
        if done(match):
            return
        move_once(match, shed=True)
    raise AssertionError("the match did not get there")


def pace(match: Match, seconds_per_move: float = 1.0) -> None:
    """Give every move so far the time ``at(seq × seconds_per_move)`` (one UPDATE)."""
    step = Value(timedelta(seconds=seconds_per_move), output_field=DurationField())
    Move.objects.filter(match=match).update(
        created_at=ExpressionWrapper(Value(at(0)) + F("seq") * step, output_field=DateTimeField())
    )


PROGRESS = re.compile(r'<span class="progress">round (\d+)')


def lobby_round(html: str, table_id: int) -> int | None:
    row = html.split(f'data-table="{table_id}"', 1)  # its row, in whichever list
    if len(row) < 2:
        return None
    found = PROGRESS.search(row[1].split("</li>", 1)[0])
    return int(found.group(1)) if found else None


@pytest.mark.slow
@pytest.mark.django_db
def test_lists_show_the_round_and_levels_the_spectators_see(make_table, make_user) -> None:
    """Live in round 2 while the spectators' view is still in round 1: the lobby (page and
    push), a profile and a player's match list show round 1 to everyone without a seat, and
    the live round to the seated player."""
    match = people_table(make_table, 3)
    # A few moves into round 2, so that 3 plays back is round 2 too.
    play_until(match, lambda m: Move.objects.filter(match=m, round_no=2).count() > 5)
    pace(match)
    delay.note_move(match, now=at(match.version))  # the view waits: still at the deal
    assert view(match).round_no == 1
    table_id = match.table_id
    stranger = Client()
    stranger.force_login(make_user("stranger"))
    seated = Client()
    seated.force_login(match.table.host)

    assert lobby_round(stranger.get("/").content.decode(), table_id) == 1
    assert lobby_round(lobby.public_frames(["en"])["en"], table_id) == 1
    mine = lobby.mine_frames({match.table.host_id: ["en"]})[match.table.host_id, "en"]
    assert lobby_round(mine, table_id) == 2  # the host sits at seat 0: live

    profile = reverse("profile", args=["bo"])
    assert "playing, round 1" in stranger.get(profile).content.decode()
    assert "playing, round 2" in seated.get(profile).content.decode()
    matches = reverse("games:player_matches", args=["bo"])
    assert "playing, round 1" in stranger.get(matches).content.decode()
    assert "playing, round 2" in seated.get(matches).content.decode()

    # Once the view has been shown round 2, the lists say so.
    delay.advance(match.pk, now=at(10 * match.version))
    assert view(match).round_no == 2
    assert lobby_round(lobby.public_frames(["en"])["en"], table_id) == 2


@pytest.mark.slow
@pytest.mark.django_db
def test_the_result_shows_only_when_the_view_reaches_the_end(make_table, make_user) -> None:
    """The live match is over but the spectators' view is not: to anyone without a seat the
    table is still live in the lobby (not among the finished), the record has no result, the
    replay and the export are refused, and profiles count no match played. A seated player
    sees it all at once. When the view reaches the end, everyone does."""
    match = people_table(make_table, 3)
    play_until(match, lambda m: m.winner_team is not None)
    pace(match)
    delay.note_move(match, now=at(match.version))
    assert view(match).winner_team is None
    stranger = Client()
    stranger.force_login(make_user("stranger"))
    seated = Client()
    seated.force_login(match.table.host)  # ana, at seat 0
    record = reverse("games:match_record", args=[match.pk])
    replay_url = reverse("games:match_replay", args=[match.pk])
    export = reverse("games:match_export", args=[match.pk])
    profile = reverse("profile", args=["bo"])

    lobby_html = stranger.get("/").content.decode()
    assert f'id="lobby-table-{match.table_id}"' in lobby_html
    assert f'id="lobby-finished-{match.pk}"' not in lobby_html
    # A host without a seat watches as a spectator: the table stays in their own list too.
    olga = make_user("olga")
    Table.objects.filter(pk=match.table_id).update(host=olga)
    mine = lobby.mine_frames({olga.pk: ["en"]})[olga.pk, "en"]
    assert lobby_round(mine, match.table_id) is not None
    page = stranger.get(record).content.decode()
    assert 'id="record-result"' not in page and "won the match" not in page
    assert stranger.get(replay_url).status_code == 409
    assert stranger.get(export).status_code == 409
    assert '<dd id="matches-played">0</dd>' in stranger.get(profile).content.decode()
    assert 'id="record-result"' in seated.get(record).content.decode()
    assert seated.get(replay_url).status_code == 200
    assert seated.get(export).status_code == 200
    assert '<dd id="matches-played">1</dd>' in seated.get(profile).content.decode()

    delay.advance(match.pk, now=at(10 * match.version))
    assert view(match).version == match.version and view(match).winner_team is not None
    assert (
        f'data-table="{match.table_id}"' not in lobby.mine_frames({olga.pk: ["en"]})[olga.pk, "en"]
    )
    lobby_html = stranger.get("/").content.decode()
    assert f'id="lobby-finished-{match.pk}"' in lobby_html
    assert f'data-table="{match.table_id}"' not in lobby_html
    assert 'id="record-result"' in stranger.get(record).content.decode()
    assert stranger.get(replay_url).status_code == 200
    assert stranger.get(export).status_code == 200
    assert '<dd id="matches-played">1</dd>' in stranger.get(profile).content.decode()


# --- through the real worker -------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("worker")
def test_the_worker_moves_the_view_of_an_all_ai_table(make_user) -> None:
    """An all-AI table with a delay of 2 plays through the worker; the writer arms the view's
    wake-ups and the worker's ``tasks.advance`` steps it, always 2 or more plays behind."""
    from games.play import tables

    host = make_user("host")
    table = tables.create_table(
        host,
        name="delayed demo",
        players=4,
        options={"claim_window_seconds": 0, "turn_seconds": 30},
        spectator_delay=2,
    )
    # AI seats before the host stands up: a table left with every seat empty closes.
    tables.fill_with_ai(table.pk, host, Seat.Policy.HEURISTIC)
    tables.leave_seat(table.pk, host)
    tables.fill_with_ai(table.pk, host, Seat.Policy.HEURISTIC)
    match = tables.start(table.pk, host, seed=11)
    behind = []

    def shown_twice() -> bool:
        row = DelayedView.objects.filter(match=match).first()
        live = Match.objects.get(pk=match.pk)
        if row is not None:
            behind.append((live.version, live.version - row.version))
        return row is not None and row.version >= 2

    assert wait_for(shown_twice, 60)
    assert all(gap >= min(2, version) for version, gap in behind)
