"""Properties over random seeded games (Hypothesis, derandomized): 2, 4, 6 and 8 players, random
table options, seeded random choices among ``legal_actions`` with occasional timeouts.

Each test drives whole rounds (and the next rounds, through tribute) and checks one property at
every step: cards are conserved; what ``legal_actions`` offers is accepted and what ``apply``
accepts is offered; rounds terminate and turns skip finished seats; windows resolve; views and
events never leak a card; replay and the JSON codec are exact.
"""

from __future__ import annotations

import itertools
import json
import os
import random
from collections import Counter
from typing import NamedTuple

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import (
    MATCH_OVER,
    ROUND_OVER,
    TRIBUTE,
    WINDOW,
    Hook,
    NextRound,
    Options,
    Outcome,
    Pass,
    Play,
    Rejection,
    Timeout,
    Unhook,
    apply,
    legal_actions,
    new_match,
)
from games.engine.cards import FACE, cards_by_face, full_deck, remove_cards, sort_cards
from games.engine.claims import answerers
from games.engine.codec import (
    action_from_json,
    action_to_json,
    event_from_json,
    event_to_json,
    state_from_json,
    state_to_json,
)
from games.engine.events import (
    Answered,
    Bombed,
    Dealt,
    HiddenAnswer,
    Hooked,
    Outranked,
    Played,
    Returned,
    TributePaid,
    Unhooked,
)
from games.engine.rules import seats_to_act
from games.engine.state import State
from games.engine.views import event_for, seat_view, spectator_view

from .helpers import check_view, faces

#: ``ENGINE_PROPERTY_SCALE=50 pytest tests/games/engine/test_properties.py`` multiplies the number
#: of generated games per test (the default keeps the suite fast; a soak run uses thousands).
SCALE = max(1, int(os.environ.get("ENGINE_PROPERTY_SCALE", "1")))
SETTINGS = dict(
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

table_options = st.fixed_dictionaries(
    dict(
        two_position=st.sampled_from(["low", "high"]),
        two_in_sequences=st.booleans(),
        bomb_order=st.sampled_from(["four_one_four_top", "jokers_top"]),
        joker_hook=st.booleans(),
        bomb_in_window=st.booleans(),
        lead_after_out=st.sampled_from(["teammate", "next_player"]),
        first_lead=st.sampled_from(["top_payer", "top_finisher"]),
        anti_tribute=st.booleans(),
        target_level=st.sampled_from([3, 4, 7, 14]),
        claim_window_seconds=st.sampled_from([4, 0, 4, 4]),
    )
)
seeds = st.integers(0, 2**32 - 1)
#: Every table size is driven (Hypothesis would favour the first of a sampled_from).
PLAYERS = pytest.mark.parametrize("players", [2, 4, 6, 8])
CLAIMS = (Hook, Unhook)


class Step(NamedTuple):
    before: State
    action: object
    after: State
    events: tuple


def round_bound(options: Options) -> int:
    """At most every card played, each followed by a pass or an answer from every other seat,
    plus a timeout each: a generous bound on the actions of one round."""
    return 54 * options.decks * (2 * options.players + 2) + 10


def choose(state: State, rng: random.Random):
    """A seeded random choice: sometimes the clock runs out, else a random seat that may act
    (so window answers arrive in random order) picks uniformly among its legal actions."""
    if rng.random() < {WINDOW: 0.15, TRIBUTE: 0.3}.get(state.phase, 0.03):
        return Timeout()
    seat = rng.choice(seats_to_act(state))
    legal = legal_actions(state, seat)
    assert legal, f"seat {seat} must act but has no legal action"
    return rng.choice(legal)


def game(options: Options, seed: int, choices: int, rounds: int = 2):
    """Drive a match from ``new_match(options, seed)`` for up to ``rounds`` rounds; yields a Step
    per accepted action (NextRound included). Asserts every chosen action is accepted and every
    round ends within ``round_bound``."""
    rng = random.Random(choices)
    state = new_match(options, seed)
    for played in range(rounds):
        steps = 0
        while state.phase not in (ROUND_OVER, MATCH_OVER):
            action = choose(state, rng)
            outcome = apply(state, action)
            assert isinstance(outcome, Outcome), (action, outcome)
            yield Step(state, action, outcome.state, outcome.events)
            state = outcome.state
            steps += 1
            assert steps <= round_bound(options), "round did not terminate"
        if state.phase == MATCH_OVER or played == rounds - 1:
            return
        outcome = apply(state, NextRound())
        assert isinstance(outcome, Outcome), outcome
        yield Step(state, NextRound(), outcome.state, outcome.events)
        state = outcome.state


# --- cards are conserved -------------------------------------------------------------------------


@PLAYERS
@settings(max_examples=12 * SCALE, **SETTINGS)
@given(table=table_options, seed=seeds, choices=seeds)
def test_cards_are_conserved(players, table, seed, choices):
    """Hands plus every card played, hooked or unhooked this round is the full deck multiset (no
    copy twice, none lost); tribute and return cards move from one hand to the other; a pending
    claim's cards stay in the claimant's hand; the trick holds only played cards."""
    options = Options(players=players, **table)
    deck = Counter(full_deck(options.decks))
    played: Counter = Counter()
    for step in game(options, seed, choices, rounds=3):
        state = step.after
        for event in step.events:
            if isinstance(event, Dealt):
                played = Counter()
            elif isinstance(event, (Played, Bombed, Hooked, Unhooked)):
                played.update(event.cards)
            elif isinstance(event, TributePaid):
                assert event.card in state.hands[event.receiver]
            elif isinstance(event, Returned):
                assert event.card in state.hands[event.to]
                t = next(t for t in state.tributes if t.receiver == event.seat)
                assert t.returned == event.card and t.payer == event.to
        held = Counter(c for hand in state.hands for c in hand)
        assert held + played == deck
        assert max(held.values()) <= options.decks
        assert all(hand == sort_cards(hand) for hand in state.hands)
        trick = Counter(c for entry in state.trick for c in entry.cards)
        assert not trick - played
        if state.window is not None:
            for seat, answer in enumerate(state.window.answers):
                if answer:
                    assert remove_cards(state.hands[seat], answer) is not None


# --- legal_actions and apply agree ---------------------------------------------------------------


@PLAYERS
@settings(max_examples=10 * SCALE, **SETTINGS)
@given(table=table_options, seed=seeds, choices=seeds)
def test_every_offered_action_is_accepted(players, table, seed, choices):
    """At every step, every action ``legal_actions`` offers any seat that may act is accepted by
    ``apply``; seats that may not act are offered nothing; each offered play is one distinct
    rank combination."""
    options = Options(players=players, **table)
    for step in game(options, seed, choices):
        state = step.before
        if isinstance(step.action, NextRound):
            continue
        may_act = seats_to_act(state)
        for seat in range(options.players):
            legal = legal_actions(state, seat)
            if seat not in may_act and not answered_bomber(state, seat):
                assert legal == [], (seat, legal)
                continue
            if seat not in may_act:  # §6.4: a seat that answered may still bomb, nothing else
                assert all(isinstance(a, Play) for a in legal), (seat, legal)
            else:
                assert legal
            plays = [faces(a.cards) for a in legal if isinstance(a, Play)]
            assert len(plays) == len(set(plays))
            for action in legal:
                outcome = apply(state, action)
                assert isinstance(outcome, Outcome), (action, outcome)


def answered_bomber(state: State, seat: int) -> bool:
    """Under ``bomb_in_window``, an active non-owner seat that already answered the open window
    (it may still bomb, §6.4)."""
    return (
        state.phase == WINDOW
        and state.options.bomb_in_window
        and bool(state.hands[seat])
        and seat != state.window.owner
        and state.window.answers[seat] is not None
    )


def _other_copies(hand, play_cards, rng):
    """The same ranks as ``play_cards`` made of randomly chosen physical cards of ``hand``."""
    groups = cards_by_face(hand)
    need = Counter(FACE[c] for c in play_cards)
    picked = []
    for face, n in need.items():
        picked += rng.sample(groups[face], n)
    rng.shuffle(picked)
    return tuple(picked)


def _candidates(hand, rng):
    """Card sets a player might try: random subsets, several copies of a face, runs, 4-4-A."""
    groups = cards_by_face(hand)
    found = [tuple(rng.sample(hand, rng.randint(1, min(6, len(hand))))) for _ in range(4)]
    face = rng.choice(sorted(groups))
    found.append(tuple(rng.sample(groups[face], rng.randint(1, len(groups[face])))))
    width, start, length = rng.choice([1, 2]), rng.randint(2, 12), rng.randint(3, 6)
    run: list[str] = []
    for f in range(start, min(15, start + length)):
        if len(groups.get(f, ())) < width:
            break
        run += rng.sample(groups[f], width)
    if run:
        found.append(tuple(run))
    if len(groups.get(4, ())) >= 2 and groups.get(14):
        found.append((groups[4][0], groups[4][-1], groups[14][-1]))
    return found


def _sub_multisets(hand):
    """Every distinct non-empty sub-multiset of a (small) hand, with canonical cards."""
    groups = cards_by_face(hand)
    ranges = [range(len(cards) + 1) for cards in groups.values()]
    for counts in itertools.product(*ranges):
        chosen = tuple(
            c for cards, k in zip(groups.values(), counts, strict=True) for c in cards[:k]
        )
        if chosen:
            yield chosen


@PLAYERS
@settings(max_examples=8 * SCALE, **SETTINGS)
@given(table=table_options, seed=seeds, choices=seeds)
def test_every_accepted_play_is_offered(players, table, seed, choices):
    """A play (or claim) ``apply`` accepts has its sorted rank tuple among the offered ones, and
    ``apply`` accepts any physical cards forming an offered combination. Hands of up to 7
    cards are checked exhaustively."""
    options = Options(players=players, **table)
    rng = random.Random(seed ^ choices)
    for step in game(options, seed, choices):
        state = step.before
        if state.phase not in ("play", WINDOW):
            continue
        for seat in seats_to_act(state):
            hand = state.hands[seat]
            legal = legal_actions(state, seat)
            offered = {(type(a), faces(a.cards)) for a in legal if not isinstance(a, Pass)}
            tries = [(Play, c) for c in _candidates(hand, rng)]
            if state.phase == WINDOW:
                tries += [
                    (kind, tuple(rng.sample(hand, min(n, len(hand)))))
                    for kind, n in ((Hook, 2), (Unhook, 1))
                    for _ in range(2)
                ]
            for action in rng.sample(legal, min(3, len(legal))):
                if not isinstance(action, Pass):
                    tries.append((type(action), _other_copies(hand, action.cards, rng)))
            if len(hand) <= 7:
                tries += [(Play, c) for c in _sub_multisets(hand)]
            for kind, cards in tries:
                outcome = apply(state, kind(seat, cards))
                accepted = isinstance(outcome, Outcome)
                assert accepted == ((kind, faces(cards)) in offered), (kind, cards, outcome)


# --- termination, turns, windows -----------------------------------------------------------------


@PLAYERS
@settings(max_examples=15 * SCALE, **SETTINGS)
@given(table=table_options, seed=seeds, choices=seeds)
def test_rounds_terminate_and_turns_skip_finished_seats(players, table, seed, choices):
    """Every round ends within the bound with one team out; the turn never lands on a finished
    seat; the finish order lists exactly the seats without cards; the version grows by one per
    accepted action."""
    options = Options(players=players, **table)
    rounds_over = 0
    for step in game(options, seed, choices, rounds=3):
        state = step.after
        assert state.version == step.before.version + 1
        assert len(set(state.finished)) == len(state.finished)
        assert set(state.finished) == {s for s, h in enumerate(state.hands) if not h}
        if state.phase == "play":
            assert state.hands[state.turn], "turn on a finished seat"
            assert state.window is None
        elif state.phase in (ROUND_OVER, MATCH_OVER):
            rounds_over += 1
            team = state.result.team
            assert all(not state.hands[s] for s in range(team, options.players, 2))
            assert list(state.result.caught) == [
                s for s in range(1 - team, options.players, 2) if state.hands[s]
            ]
            assert (state.turn, state.top, state.window) == (None, None, None)
        else:
            assert state.turn is None
    assert rounds_over >= 1


@PLAYERS
@settings(max_examples=15 * SCALE, **SETTINGS)
@given(table=table_options, seed=seeds, choices=seeds)
def test_every_window_resolves(players, table, seed, choices):
    """An open window always waits for someone: some active non-owner seat has not answered (a
    window whose answers settle it is resolved at once); after a Timeout the window is gone or a
    new, unanswered chain window opened; no window ever opens with hooking disabled."""
    options = Options(players=players, **table)
    for step in game(options, seed, choices):
        state = step.after
        if state.phase == WINDOW:
            assert options.claim_window_seconds > 0
            window = state.window
            asked = answerers(state)
            assert asked and window.owner not in asked
            assert any(window.answers[s] is None for s in asked)
            assert all(window.answers[s] is None for s in range(options.players) if s not in asked)
            assert seats_to_act(state) == [s for s in asked if window.answers[s] is None]
            assert state.top is not None and state.turn is None
        else:
            assert state.window is None
        if isinstance(step.action, Timeout) and step.before.phase == WINDOW:
            assert state.window is None or (
                state.window.chain and all(a is None for a in state.window.answers)
            )


# --- views ---------------------------------------------------------------------------------------


@PLAYERS
@settings(max_examples=8 * SCALE, **SETTINGS)
@given(table=table_options, seed=seeds, choices=seeds)
def test_no_view_or_event_leaks_a_card(players, table, seed, choices):
    """seat_view shows exactly that seat's hand and only public cards elsewhere (trick, top
    play, tribute cards), its own window answer and nobody else's; the spectator view shows no
    hand; event_for never shows a seat another seat's pending claim or outranked notice."""
    options = Options(players=players, **table)
    for step in game(options, seed, choices):
        state = step.after
        for seat in range(options.players):
            check_view(seat_view(state, seat), state, seat)
        check_view(spectator_view(state), state, None)
        for event in step.events:
            for viewer in [None, *range(options.players)]:
                shown = event_for(event, viewer)
                if isinstance(event, Answered) and event.seat != viewer:
                    assert shown == HiddenAnswer(event.seat)
                    assert event_to_json(shown) == {"type": "answer", "seat": event.seat}
                elif isinstance(event, Outranked) and event.seat != viewer:
                    assert shown is None
                else:
                    assert shown == event
                if shown is not None:
                    json.dumps(event_to_json(shown))


# --- replay and codec ----------------------------------------------------------------------------


@PLAYERS
@settings(max_examples=10 * SCALE, **SETTINGS)
@given(table=table_options, seed=seeds, choices=seeds)
def test_replay_and_codec_are_exact(players, table, seed, choices):
    """Re-applying the recorded actions to ``new_match(options, seed)`` reproduces every event
    and the exact final state; the JSON codec round-trips every state, action and event (as
    every viewer sees it too) exactly, both ways."""
    options = Options(players=players, **table)
    actions, events, final = [], [], None
    for step in game(options, seed, choices, rounds=3):
        actions.append(step.action)
        events.append(step.events)
        final = step.after
        wire = json.loads(json.dumps(state_to_json(step.after)))
        assert state_from_json(wire) == step.after
        assert action_from_json(json.loads(json.dumps(action_to_json(step.action)))) == (
            step.action
        )
        for event in step.events:
            for shown in {event_for(event, v) for v in [None, *range(options.players)]} - {None}:
                assert shown is not None
                stored = json.loads(json.dumps(event_to_json(shown)))
                assert event_from_json(stored) == shown
                assert event_to_json(event_from_json(stored)) == stored
    state = new_match(options, seed)
    for action, expected in zip(actions, events, strict=True):
        outcome = apply(state, action)
        assert not isinstance(outcome, Rejection)
        assert outcome.events == expected
        state = outcome.state
    assert state == final
    assert state.version == len(actions)


def test_the_driver_reaches_windows_claims_tributes_and_timeouts():
    """The random driver exercises the interesting paths (so the properties above mean
    something): windows, hooks, unhooks, bombs into windows, timeouts, tributes and returns."""
    seen: Counter = Counter()
    for n, players in enumerate((2, 4, 6, 8)):
        options = Options(players=players, bomb_in_window=True, joker_hook=players >= 6)
        for step in game(options, 100 + n, 200 + n, rounds=3):
            seen.update(e.kind for e in step.events)
            seen[type(step.action).__name__] += 1
    for kind in (
        "window",
        "hook",
        "unhook",
        "bomb",
        "outranked",
        "tribute",
        "return",
        "trick_won",
        "round_over",
        "Timeout",
        "Return",
        "NextRound",
        "finished",
    ):
        assert seen[kind] > 0, kind
