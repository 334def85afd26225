"""The expert AI (``games.engine.ai.expert``), its samples (``ai.sampling``) and playouts
(``ai.rollout``).

No timed test here: speed is measured by ``bench/ai.py``. Every search below runs with a
deterministic budget (``samples``, no time limit) and a seeded rng.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.engine import NextRound, Options, Pass, Play, Return, legal_actions, new_match
from games.engine.ai import HeuristicPolicy, policy
from games.engine.ai.expert import ExpertPolicy, candidates, team_value
from games.engine.ai.rollout import outcome
from games.engine.ai.sampling import passed_since_top, sample_hands, sample_state, unseen_cards
from games.engine.cards import FACE, full_deck
from games.engine.codec import state_to_json
from games.engine.power import table_for
from games.engine.rules import apply, seats_to_act
from games.engine.simulate import play_round, step
from games.engine.state import MATCH_OVER, PLAY, ROUND_OVER, WINDOW, State
from games.engine.views import seat_view

from .helpers import cards, multiset, ok, table


class Checked:
    """A policy wrapper that asserts every choice is one of the legal actions it was given."""

    def __init__(self, inner) -> None:
        self.inner = inner
        self.name = inner.name
        self.calls = 0

    def choose(self, view, legal, rng):
        action = self.inner.choose(view, legal, rng)
        assert action in legal, (action, legal)
        self.calls += 1
        return action


def states_of_a_match(options: Options, seed: int, rounds: int = 2) -> list[State]:
    """Every state of a heuristic match (``rounds`` rounds at most), in order."""
    heuristic = [HeuristicPolicy()] * options.players
    rng = random.Random(seed)
    state = new_match(options, seed)
    seen = [state]
    for _ in range(rounds):
        while state.phase not in (ROUND_OVER, MATCH_OVER):
            state, _ = step(state, heuristic, rng)
            seen.append(state)
        if state.phase == MATCH_OVER:
            break
        state, _ = ok(state, NextRound())
        seen.append(state)
    return seen


@pytest.mark.parametrize(
    "players, extra",
    [
        (2, {}),
        (4, {}),
        (6, {}),
        (4, {"bomb_in_window": True, "joker_hook": True}),
        (6, {"joker_hook": True, "two_in_sequences": True, "lead_after_out": "next_player"}),
    ],
)
def test_the_expert_always_chooses_a_legal_action(players, extra):
    """Expert seats against heuristic seats, through two rounds and a tribute, on 2, 4 and 6
    players and several options: every choice is one of ``legal_actions`` for its seat."""
    options = Options(players=players, **extra)
    expert = Checked(ExpertPolicy(samples=2, time_budget=None))
    heuristic = Checked(HeuristicPolicy())
    policies = [expert if s % 2 == 0 else heuristic for s in range(players)]
    rng = random.Random(3)
    state = new_match(options, seed=40 + players)
    for _ in range(2):
        state = play_round(state, policies, rng)
        if state.phase == MATCH_OVER:
            break
        state, _ = ok(state, NextRound())
    assert expert.calls > 20 and heuristic.calls > 20


def shuffled_hidden(state: State, seat: int, rng: random.Random) -> State:
    """The same table with every other seat's cards dealt anew among them (same counts)."""
    others = [s for s in range(state.players) if s != seat]
    pool = [c for s in others for c in state.hands[s]]
    rng.shuffle(pool)
    hands = list(state.hands)
    start = 0
    for s in others:
        n = len(state.hands[s])
        hands[s] = tuple(sorted(pool[start : start + n], key=full_deck(2).index))
        start += n
    return state._replace(hands=tuple(hands))


def test_the_expert_never_reads_another_seats_hand():
    """At every decision point of a heuristic match where the expert would search, the same
    table with the other seats' cards dealt differently (same counts, same public table) gives
    the expert the same view and, for the same rng, the same action. The decision points
    include leads, follows and claim windows, and the shuffled tables differ from the real
    ones."""
    expert = ExpertPolicy(samples=3, time_budget=None)
    shuffle_rng = random.Random(9)
    checked = Counter()
    for i, state in enumerate(states_of_a_match(Options(players=4), seed=77, rounds=1)):
        leading = state.phase == PLAY and state.top is None
        for seat in seats_to_act(state):
            if state.phase not in (PLAY, WINDOW) or (i % 3 and not leading):
                continue
            legal = legal_actions(state, seat)
            if len(legal) < 2:
                continue
            if sum(1 for s in range(4) if s != seat and state.hands[s]) < 2:
                continue  # one other hand: nothing to deal differently
            other = shuffled_hidden(state, seat, shuffle_rng)
            assert state_to_json(other) != state_to_json(state)
            assert seat_view(other, seat) == seat_view(state, seat)
            mine = expert.choose(seat_view(state, seat), legal, random.Random(seat))
            theirs = expert.choose(
                seat_view(other, seat), legal_actions(other, seat), random.Random(seat)
            )
            assert mine == theirs
            checked[state.phase if state.top is not None or state.phase == WINDOW else "lead"] += 1
    assert checked["lead"] >= 3 and checked[PLAY] >= 3 and checked[WINDOW] >= 1, checked


def test_the_same_view_and_rng_give_the_same_action_and_other_rngs_may_differ():
    """With no time limit the choice is a function of the view and the rng: repeated calls with
    equal rngs agree; the search's values come from the samples it was told to play."""
    state = states_of_a_match(Options(players=4), seed=5, rounds=1)[8]
    seat = seats_to_act(state)[0]
    view, legal = seat_view(state, seat), legal_actions(state, seat)
    expert = ExpertPolicy(samples=4, time_budget=None)
    first = expert.choose(view, legal, random.Random(1))
    assert expert.last is not None and expert.last.samples == 4
    assert expert.choose(view, legal, random.Random(1)) == first
    assert len(expert.last.values) == len(expert.last.candidates) >= 2


def test_the_time_budget_stops_the_search_after_the_sample_that_overruns_it():
    """A clock that moves one second per reading and a 0.5 s budget: the search plays one
    sample and stops (the budget is checked after each sample), whatever ``samples`` says."""
    ticks = iter(range(1000))
    state = states_of_a_match(Options(players=4), seed=5, rounds=1)[8]
    seat = seats_to_act(state)[0]
    expert = ExpertPolicy(samples=50, time_budget=0.5, clock=lambda: float(next(ticks)))
    action = expert.choose(seat_view(state, seat), legal_actions(state, seat), random.Random(0))
    assert action in legal_actions(state, seat)
    assert expert.last.samples == 1


def test_a_single_legal_action_or_a_return_is_chosen_without_search():
    """With one legal action (a pass it cannot avoid) the expert answers it at once; a tribute
    return is the heuristic's (the weakest legal card, §9.4)."""
    state = table("3S 4H", "AS AH", "5S 6S", "7S 8S")
    state, _ = ok(state, Play(0, cards("4H")))
    state, _ = ok(state, Pass(1))
    expert = ExpertPolicy(samples=2, time_budget=None)
    assert expert.choose(seat_view(state, 2), [Pass(2)], random.Random(0)) == Pass(2)
    assert expert.last is None
    tribute = next(
        s
        for s in states_of_a_match(Options(players=4), seed=3)
        if s.tributes and s.phase == "tribute"
    )
    receiver = tribute.tributes[0].receiver
    legal = legal_actions(tribute, receiver)
    assert isinstance(legal[0], Return)
    view = seat_view(tribute, receiver)
    assert expert.choose(view, legal, random.Random(0)) == HeuristicPolicy().choose(
        view, legal, random.Random(0)
    )


def test_candidates_put_the_heuristic_first_and_take_a_winning_play_alone():
    """The candidates start with the heuristic's choice and hold no duplicates; when a play
    empties the hand it is the only candidate."""
    state = table("3S 4H 5D 9C 9S KD BJ BJ", "6S 7S", "6H 7H", "AS AH", decks=2)
    view, legal = seat_view(state, 0), legal_actions(state, 0)
    first = HeuristicPolicy().choose(view, legal, random.Random(0))
    found = candidates(view, legal, first)
    assert found[0] == first == Play(0, cards("3S 4H 5D"))
    assert len(found) == len(set(found)) and set(found) <= set(legal)
    assert Play(0, cards("BJ BJ")) in found  # the lowest bomb is kept
    out = table("9C 9S", "6S 7S", "6H 7H", "AS AH")
    view, legal = seat_view(out, 0), legal_actions(out, 0)
    assert candidates(view, legal, legal[0]) == [Play(0, cards("9S 9C"))]


def test_team_value_counts_the_team_and_the_levels():
    """A round won by the seat's team is worth 1 + 0.5 per caught opponent; lost, the same
    negative (§8)."""
    assert team_value(0, 2, 0) == 2.0 and team_value(0, 2, 1) == -2.0
    assert team_value(1, 1, 1) == 1.5 and team_value(1, 1, 0) == -1.5


def test_samples_keep_the_hand_and_the_counts_and_deal_exactly_the_unseen_cards():
    """A sample gives the viewer its own hand and every other seat as many cards as it holds,
    drawn from the decks minus the viewer's hand minus the played cards; two rngs deal
    differently."""
    state = states_of_a_match(Options(players=4), seed=11, rounds=1)[30]
    view = seat_view(state, 1)
    unseen = unseen_cards(view)
    assert Counter(unseen) == multiset(*(state.hands[s] for s in (0, 2, 3)))
    deck = Counter(full_deck(2))
    assert Counter(view.played) == deck - multiset(*state.hands)
    a = sample_hands(view, random.Random(1))
    b = sample_hands(view, random.Random(2))
    for hands in (a, b):
        assert hands[1] == state.hands[1]
        assert [len(h) for h in hands] == [len(h) for h in state.hands]
        assert multiset(*(hands[s] for s in (0, 2, 3))) == Counter(unseen)
    assert a != b


def test_samples_respect_the_tribute_a_payer_gave():
    """A payer gave its highest card (§9.1): in every sample it holds nothing stronger, except
    the card returned to it."""
    for state in states_of_a_match(Options(players=4), seed=3, rounds=3):
        if state.phase == PLAY and state.tributes and len(state.trick) == 0:
            break
    else:
        pytest.fail("no round with tribute")
    viewer = next(s for s in range(4) if all(t.payer != s for t in state.tributes))
    view = seat_view(state, viewer)
    power = table_for(view.level, view.options)
    for k in range(30):
        hands = sample_hands(view, random.Random(k))
        for t in state.tributes:
            if t.payer == viewer:
                continue
            cap = power[FACE[t.card]]
            assert all(power[FACE[c]] <= cap or c == t.returned for c in hands[t.payer])


def test_a_sampled_state_matches_the_public_table_and_plays_to_the_end():
    """A sample has the view's phase, turn, top play, trick, passes and levels; in a window it
    keeps the viewer's own answer unanswered and marks who has answered; a heuristic playout
    from it ends the round."""
    states = states_of_a_match(Options(players=4), seed=13, rounds=1)
    windows = [
        s for s in states if s.phase == WINDOW and any(a is not None for a in s.window.answers)
    ]
    assert windows
    for state in windows[:5] + states[5:60:11]:
        seat = seats_to_act(state)[0]
        view = seat_view(state, seat)
        sample = sample_state(view, random.Random(0))
        assert (sample.phase, sample.turn, sample.top, sample.trick, sample.levels) == (
            state.phase,
            state.turn,
            state.top,
            state.trick,
            state.levels,
        )
        assert sample.passed == state.passed == passed_since_top(view)
        if state.window is not None:
            assert [a is not None for a in sample.window.answers] == [
                a is not None for a in state.window.answers
            ]
            assert sample.window.answers[seat] is None
        team, caught = outcome(sample)
        assert team in (0, 1) and 1 <= caught <= 2


def test_the_playout_plays_the_heuristics_moves():
    """From one real state the playout and the heuristic policy, every seat answering a window
    nearest the owner first, reach the same end of round."""
    for seed in (1, 2, 3):
        state = new_match(Options(players=4), seed)
        heuristic = HeuristicPolicy()
        slow = state
        while slow.phase not in (ROUND_OVER, MATCH_OVER):
            seat = seats_to_act(slow)[0]
            action = heuristic.choose(
                seat_view(slow, seat), legal_actions(slow, seat), random.Random(0)
            )
            slow = apply(slow, action).state
        assert outcome(state) == (slow.result.team, len(slow.result.caught))


def test_expert_is_a_named_policy():
    """``policy("expert")`` is an ExpertPolicy with the default time budget."""
    expert = policy("expert")
    assert isinstance(expert, ExpertPolicy) and expert.time_budget is not None
    with pytest.raises(ValueError):
        ExpertPolicy(samples=0)


def duplicate_rounds(pairs: int, samples: int, seed: int) -> Counter:
    """Rounds won by the expert and by the heuristic over ``pairs`` seeded deals, each played
    twice with the teams' policies swapped."""
    won: Counter = Counter()
    expert, heuristic = ExpertPolicy(samples=samples, time_budget=None), HeuristicPolicy()
    for i in range(pairs):
        for expert_team in (0, 1):
            policies = [expert if s % 2 == expert_team else heuristic for s in range(4)]
            state = play_round(
                new_match(Options(players=4), seed + i), policies, random.Random(seed + i)
            )
            won["expert" if state.result.team == expert_team else "heuristic"] += 1
    return won


@pytest.mark.slow
def test_the_expert_beats_the_heuristic_in_duplicate():
    """12 seeded deals, each played twice with the policies swapped (24 rounds; the expert with
    8 samples a decision): the expert finishes first in clearly more than half. Pinned for
    seed 500, so a change in the search shows here (17 of 24 before issue 18's clear-gain rule
    and bold playouts, 21 of 24 since)."""
    won = duplicate_rounds(12, 8, seed=500)
    assert sum(won.values()) == 24
    assert won["expert"] >= 15, won
    assert won == Counter(expert=21, heuristic=3)
