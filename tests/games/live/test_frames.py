"""Deltas are exact: a page that applies every pushed delta shows what a fresh render shows.

Plays seeded rounds with the engine (hooks, unhooks, tribute and returns, round ends) and, for
every seat and for the spectators, applies each version's delta (``games.live.frames.delta``) to a
model of the page (``pages.Page``) and compares every region with a full render of the same
version — the test that catches a region whose key (``frames.region_keys``) misses an input.
No database: the table, seats and move log are in-memory model instances.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
from django.utils import translation

from accounts.models import User
from games.engine import NextRound, apply
from games.engine.ai import policy
from games.engine.codec import events_to_json
from games.engine.deal import new_match
from games.engine.options import Options
from games.engine.rules import legal_actions, seats_to_act
from games.engine.state import MATCH_OVER, PLAY, ROUND_OVER, TRIBUTE, WINDOW
from games.engine.views import seat_view
from games.live import frames
from games.live.log import LOG_MOVES
from games.live.presenters import table_context
from games.models import Match, Move, Seat, Table
from tests.games.pages import Page

DEADLINE_KINDS = {PLAY: "turn", WINDOW: "window", TRIBUTE: "tribute", ROUND_OVER: "next_round"}


def in_memory_table(options: dict):
    table = Table(
        pk=7,
        name="t",
        host_id=1,
        players=4,
        options=options,
        status=Table.Status.PLAYING,
        revision=3,
    )
    users = [User(pk=n + 1, username=f"p{n}") for n in range(3)]
    seats = [Seat(table=table, number=n, user=users[n]) for n in range(3)]
    seats.append(Seat(table=table, number=3, ai_policy=Seat.Policy.HEURISTIC))
    match = Match(pk=9, table=table, seed=1, state={}, version=0)
    return table, seats, match


def set_deadline(match: Match, state) -> None:
    kind = DEADLINE_KINDS.get(state.phase, "")
    match.deadline_kind = kind
    match.deadline = (
        datetime(2030, 1, 1, tzinfo=UTC) + timedelta(seconds=state.version) if kind else None
    )


def fresh(table, match, seats, state, seat, moves) -> dict:
    context = table_context(
        table, match, state, seat, seats=seats, recent_moves=moves[::-1][:LOG_MOVES]
    )
    page = Page()
    page.apply(frames.full(context, table.revision))
    return page


@pytest.mark.slow
@pytest.mark.parametrize("language", ["en", "es", "id", "vi"])
def test_every_delta_brings_every_page_to_the_fresh_render(language):
    """Every audience's page takes every delta; after each version one audience in turn (all
    of them around the second deal, with its tribute) is compared with a fresh render, in each
    of the site's languages (a seat's own row is made from the row the others get)."""
    options = {"claim_window_seconds": 3, "turn_seconds": 20}
    table, seats, match = in_memory_table(options)
    rng = random.Random(3)
    policies = [policy("heuristic"), policy("random")] * 2
    state = new_match(Options.from_dict(options, players=4), 3)
    set_deadline(match, state)
    moves: list[Move] = []
    audiences = [0, 1, 2, 3, None]
    kinds: set[str] = set()
    with translation.override(language):
        pages = {seat: fresh(table, match, seats, state, seat, moves) for seat in audiences}
        rounds, dealt_at = 0, 0
        while rounds < 2 and state.phase != MATCH_OVER:
            if state.phase == ROUND_OVER:
                action, rounds = NextRound(), rounds + 1
            else:
                seat = rng.choice(seats_to_act(state))
                action = policies[seat].choose(
                    seat_view(state, seat), legal_actions(state, seat), rng
                )
            outcome = apply(state, action)
            old, state = state, outcome.state
            kinds.update(e.kind for e in outcome.events)
            moves.append(Move(seq=state.version, events=events_to_json(outcome.events)))
            set_deadline(match, state)
            renders = frames.Renders()  # shared by the audiences of one push, as in games.live.push
            for seat in audiences:
                delta = frames.delta(
                    table,
                    match,
                    seats,
                    old,
                    state,
                    outcome.events,
                    seat,
                    table.revision,
                    renders=renders,
                )
                assert pages[seat].apply(delta), (state.version, seat)
                assert pages[seat].no_target == [], (state.version, seat)
            dealt_at = state.version if action == NextRound() else dealt_at
            # Every audience through the tribute and the second round's first tricks.
            every = rounds == 1 and state.version - dealt_at < 40
            checked = audiences if every else [audiences[state.version % 5]]
            for seat in checked:
                expected = fresh(table, match, seats, state, seat, moves)
                assert pages[seat].regions() == expected.regions(), (state.version, seat)
                assert pages[seat].log() == expected.log(), (state.version, seat)
    assert {"hook", "tribute", "return", "round_over", "deal"} <= kinds


def test_a_delta_leaves_out_what_did_not_change():
    """After a play, the other seats get no hand; the player gets its new hand; nobody gets the
    tribute or result regions; everyone gets the status and the new log line."""
    options = {"claim_window_seconds": 3}
    table, seats, match = in_memory_table(options)
    state = new_match(Options.from_dict(options, players=4), 5)
    leader = state.turn
    lead = next(a for a in legal_actions(state, leader) if len(a.cards) == 1)
    outcome = apply(state, lead)

    def deltas() -> dict:
        with translation.override("en"):
            return {
                seat: frames.delta(
                    table, match, seats, state, outcome.state, outcome.events, seat, table.revision
                )
                for seat in (0, 1, 2, 3, None)
            }

    learning = deltas()  # the lead opens a claim window: explained to the people (issue #18 §4)
    for seat in seats:
        if seat.user is not None:
            seat.user.claim_windows_explained = 3
    sent = deltas()
    for seat, frame in sent.items():
        assert 'id="status"' in frame and 'id="log-lines"' in frame
        assert 'id="tribute"' not in frame and 'id="result"' not in frame
        assert 'id="hand"' not in frame  # the leader's hand loses one card, nobody else's moves
        assert ('hx-swap-oob="delete"' in frame) == (seat == leader)
        assert 'id="claim-help"' not in frame
    assert max(len(frame.encode()) for frame in sent.values()) < 4096
    # A person's first three claim windows carry the help (games.live.claim_help: two sentences
    # and a "Got it" form, under 1 KiB): those few frames may be that much larger.
    assert any('id="claim-help"' in frame for frame in learning.values())
    assert max(len(frame.encode()) for frame in learning.values()) < 4096 + 1024


def test_the_views_kept_between_pushes_are_text_the_collector_skips(monkeypatch):
    """A push builds one view per audience (the "before" is the last push's summary), and the
    summaries kept hold only strings and numbers: a full collection does not walk them, and no
    key is an object's default repr (which would never compare equal)."""
    import gc

    options = {"claim_window_seconds": 3}
    table, seats, match = in_memory_table(options)
    state = new_match(Options.from_dict(options, players=4), 11)
    built = []
    real_context = frames.table_context
    monkeypatch.setattr(
        frames,
        "table_context",
        lambda *args, **kwargs: built.append(1) or real_context(*args, **kwargs),
    )
    rng = random.Random(11)
    with translation.override("en"):
        for _step in range(30):
            seat = rng.choice(seats_to_act(state))
            action = policy("heuristic").choose(
                seat_view(state, seat), legal_actions(state, seat), rng
            )
            new = apply(state, action).state
            for audience in (0, 1, 2, 3, None):
                frames.delta(table, match, seats, state, new, [], audience, table.revision)
            state = new
    assert len(built) == 5 * 30 + 5  # one view per audience and push, plus the first "before"
    for _depth in range(4):  # a pass untracks a tuple whose items it untracked before
        gc.collect()
    kept = [s for key, s in frames._recent.items() if key[0] == match.pk]
    assert len(kept) >= 5 * 30
    for summary in kept:
        assert not gc.is_tracked(summary)
        assert " at 0x" not in repr(summary)


def test_a_stand_in_taking_a_seat_is_in_the_next_delta_of_every_page():
    """The seat row and the person's seat menu hold the stand-in (``Seat.stand_in``): when the
    AI takes seat 1 for its person between two pushes, every audience's next delta carries that
    seat's row (and seat 1 its banner), and each page then equals a fresh render. (The writer
    also bumps the table's revision, which sends full snapshots: this is the key check.)"""
    options = {"claim_window_seconds": 0}
    table, seats, match = in_memory_table(options)
    state = new_match(Options.from_dict(options, players=4), 5)
    audiences = [0, 1, 2, 3, None]
    rng = random.Random(5)
    with translation.override("en"):
        pages = {seat: fresh(table, match, seats, state, seat, []) for seat in audiences}
        for step in range(2):
            if step == 1:
                seats[1].stand_in, seats[1].ai_policy = "away", "expert"
            seat = seats_to_act(state)[0]
            action = policy("heuristic").choose(
                seat_view(state, seat), legal_actions(state, seat), rng
            )
            outcome = apply(state, action)
            old, state = state, outcome.state
            for audience in audiences:
                text = frames.delta(
                    table, match, seats, old, state, outcome.events, audience, table.revision
                )
                assert pages[audience].apply(text)
                assert ('id="stand-in-1"' in text) == (step == 1), (step, audience)
                assert ('id="im-back"' in text) == (step == 1 and audience == 1)
        # In the same language as the deltas: a request of an earlier test (test_i18n) may
        # have left another one active in this thread.
        for audience in audiences:
            expected = fresh(table, match, seats, state, audience, [])
            assert pages[audience].regions() == expected.regions(), audience
