"""The review of a seat's round (``games.engine.review``, issue 20).

Every review here runs with no time budget (``budget=None``) and few samples, so it is
deterministic; speed and calibration are measured by ``bench/review.py``.
"""

from __future__ import annotations

import random

import pytest

from games.engine import NextRound, Options, Pass, Play, Return, new_match
from games.engine.actions import Hook, Unhook
from games.engine.ai import HeuristicPolicy, RandomPolicy
from games.engine.review import (
    BLUNDER,
    FORCED,
    GOOD,
    INACCURACY,
    MISTAKE,
    RecordError,
    RoundRecord,
    review_round,
)
from games.engine.review.marks import decision_accuracy, mark, round_accuracy
from games.engine.review.patterns import PASSED_GOING_OUT
from games.engine.review.record import decided_by, play_round, replay
from games.engine.rules import legal_actions
from games.engine.state import TRIBUTE, State
from games.engine.views import seat_view

from ..helpers import cards, ok, table

SAMPLES = 12
#: For the tests of which decisions are reviewed and of the review's determinism, not of its
#: judgement: the same search on fewer deals (a third of the CPU).
FEW = 4


def heuristic_round(seed: int) -> RoundRecord:
    return play_round(
        new_match(Options(players=4), seed), [HeuristicPolicy()] * 4, random.Random(seed)
    )


def test_marks_follow_the_thresholds():
    losses = (0.0, 0.099, 0.1, 0.349, 0.35, 0.749, 0.75, 2.0)
    assert [mark(x) for x in losses] == [
        GOOD, GOOD, INACCURACY, INACCURACY, MISTAKE, MISTAKE, BLUNDER, BLUNDER
    ]  # fmt: skip
    assert decision_accuracy(0.0) == 100.0
    assert decision_accuracy(0.5) == pytest.approx(36.79, abs=0.01)
    assert round_accuracy([0.0, 0.5]) == pytest.approx((100 + 36.788) / 2, abs=0.01)
    assert round_accuracy([]) is None


def test_every_decision_of_the_seat_is_reviewed_once_in_order():
    record = heuristic_round(3)
    review = review_round(record, 1, samples=SAMPLES, budget=None)
    mine = [i for i, a in enumerate(record.actions) if decided_by(a) == 1]
    assert [d.index for d in review.decisions] == mine
    assert all(d.played == record.actions[d.index] for d in review.decisions)
    assert sum(review.counts.values()) == len(mine)
    weighed = [d for d in review.decisions if d.mark != FORCED]
    assert weighed and all(d.samples == SAMPLES and d.loss >= 0 for d in weighed)
    assert all(d.best_value >= d.played_value - 1e-9 or d.loss == 0 for d in weighed)
    assert review.accuracy is not None and 0 < review.accuracy <= 100


def test_moves_someone_else_made_at_the_seat_are_not_its_decisions():
    """A stand-in's moves at the seat (``others``) are neither reviewed nor counted: the review
    and its accuracy are those of the seat's remaining decisions alone."""
    record = heuristic_round(3)
    mine = [i for i, a in enumerate(record.actions) if decided_by(a) == 1]
    others = set(mine[len(mine) // 2 :])  # the stand-in played the second half
    full = review_round(record, 1, samples=FEW, budget=None)
    part = review_round(record, 1, samples=FEW, budget=None, others=others)
    assert [d.index for d in part.decisions] == mine[: len(mine) // 2]
    assert part.decisions == full.decisions[: len(part.decisions)]  # each judged the same
    kept = [d.loss for d in part.decisions if d.mark != FORCED]
    assert part.accuracy == round_accuracy(kept)
    assert sum(part.counts.values()) == len(part.decisions)
    nothing = review_round(record, 1, samples=FEW, budget=None, others=set(mine))
    assert nothing.decisions == () and nothing.accuracy is None


def test_the_same_record_and_seed_give_the_same_review():
    record = heuristic_round(4)
    first = review_round(record, 0, samples=FEW, budget=None, seed=9)
    assert review_round(record, 0, samples=FEW, budget=None, seed=9) == first
    other = review_round(record, 0, samples=FEW, budget=None, seed=10)
    assert [d.played_value for d in other.decisions] != [d.played_value for d in first.decisions]


def _reshuffled(start: State, actions: tuple, seat: int, seed: int) -> State:
    """``start`` with the other seats' cards dealt again among them (each keeps its count and
    the cards it shows in ``actions``): the same round as ``seat`` sees it, other hidden hands."""
    shown: dict[int, list[str]] = {s: [] for s in range(start.players)}
    for action in actions:
        if isinstance(action, (Play, Hook, Unhook)) and action.seat != seat:
            shown[action.seat] += list(action.cards)
    others = [s for s in range(start.players) if s != seat]
    pool: list[str] = []
    rest: dict[int, list[str]] = {}
    for s in others:
        hand = list(start.hands[s])
        for card in shown[s]:
            hand.remove(card)
        rest[s] = hand
        pool += hand
    random.Random(seed).shuffle(pool)
    hands = list(start.hands)
    at = 0
    for s in others:
        hands[s] = tuple(sorted(shown[s] + pool[at : at + len(rest[s])]))
        at += len(rest[s])
    return start._replace(hands=tuple(hands))


@pytest.mark.parametrize("seed", [5, 6])
def test_the_review_is_the_same_whatever_the_hidden_hands(seed):
    """Same views for the seat → same review, though every other hand differs."""
    record = heuristic_round(seed)
    seat = 0
    # up to the seat's 12th decision: the round so far, legal in both deals
    mine = [i for i, a in enumerate(record.actions) if decided_by(a) == seat]
    actions = record.actions[: mine[11] + 1]
    other = RoundRecord(_reshuffled(record.start, actions, seat, seed), actions)
    assert other.start.hands[seat] == record.start.hands[seat]
    assert all(sorted(other.start.hands[s]) != sorted(record.start.hands[s]) for s in (1, 2, 3))
    here = RoundRecord(record.start, actions)
    steps_a, steps_b = list(replay(here)), list(replay(other))  # both replay
    for a, b in zip(steps_a, steps_b, strict=True):
        if decided_by(a.action) == seat:
            assert seat_view(a.before, seat) == seat_view(b.before, seat)
    review = review_round(here, seat, samples=FEW, budget=None, seed=1)
    assert len(review.decisions) == 12
    assert review_round(other, seat, samples=FEW, budget=None, seed=1) == review


def test_a_pass_that_could_have_gone_out_is_marked():
    start = table("5C 5D", "4S 4H KD QD", "6S 7H 8D 9C", "3S JH JD 10C", leader=1)
    actions = (Play(1, cards("4S 4H")), Pass(2), Pass(3), Pass(0))
    review = review_round(RoundRecord(start, actions), 0, samples=SAMPLES, budget=None)
    (decision,) = review.decisions
    assert isinstance(decision.best, Play) and sorted(decision.best.cards) == ["5C", "5D"]
    assert decision.mark in (MISTAKE, BLUNDER) and decision.loss >= 0.35
    assert PASSED_GOING_OUT in decision.patterns
    assert review.accuracy is not None and review.accuracy < 61


def test_going_out_is_good_and_needs_no_search():
    start = table("5C 5D", "4S 4H KD QD", "6S 7H 8D 9C", "3S JH JD 10C", leader=1)
    actions = (Play(1, cards("4S 4H")), Pass(2), Pass(3), Play(0, cards("5C 5D")))
    (decision,) = review_round(RoundRecord(start, actions), 0, samples=SAMPLES).decisions
    assert decision.mark == FORCED and decision.samples == 0 and decision.loss == 0


def test_a_tribute_return_is_weighed():
    for seed in range(1, 40):
        record = heuristic_round(seed)
        end = list(replay(record))[-1].after
        dealt, _ = ok(end, NextRound())
        if dealt.phase != TRIBUTE:
            continue
        receiver = dealt.tributes[0].receiver
        faces = {c[:-1] for c in (a.card for a in legal_actions(dealt, receiver))}
        if len(faces) < 2:
            continue
        second = play_round(dealt, [HeuristicPolicy()] * 4, random.Random(seed))
        # The receiver's first decision is the one weighed here: the round reviewed up to it
        # (a record may stop at any point), not the twenty-odd plays after it.
        own = next(i for i, a in enumerate(second.actions) if decided_by(a) == receiver)
        upto = RoundRecord(second.start, second.actions[: own + 1])
        review = review_round(upto, receiver, samples=SAMPLES, budget=None)
        (first,) = review.decisions
        assert first.kind == "return" and isinstance(first.played, Return)
        assert first.samples == SAMPLES and first.options == len(faces)
        assert first.played_value is not None
        return
    raise AssertionError("no round 2 with a choice of return in 40 seeds")


@pytest.mark.slow  # eight rounds reviewed with 48 samples each: ~9 s of CPU; `make test` runs it
def test_a_beginner_scores_below_casual_on_the_same_deals():
    """Four deals (the first of ``bench/review.py``), the reviewed seat's team Beginner, then
    Casual, the other team Casual. 48 samples: with fewer, a loss is seldom clear
    (``judge.Judgement.loss``). The calibration over 200 deals is the bench's (docs/AI.md)."""

    def reviews(make) -> list:
        found = []
        for seed in (1000, 1001, 1002, 1003):
            mine = make()
            policies = [mine, HeuristicPolicy(), mine, HeuristicPolicy()]
            start = new_match(Options(players=4), seed)
            record = play_round(start, policies, random.Random(f"review:{seed}"))
            found.append(review_round(record, 0, samples=48, budget=None))
        return found

    beginner, casual = reviews(RandomPolicy), reviews(HeuristicPolicy)
    mean = lambda rs: sum(r.accuracy for r in rs) / len(rs)  # noqa: E731
    assert mean(beginner) < mean(casual) - 5
    blunders = lambda rs: sum(r.counts[BLUNDER] for r in rs)  # noqa: E731
    assert blunders(beginner) >= 2 * blunders(casual)


def test_a_record_that_does_not_replay_is_refused():
    start = table("5C 5D", "4S 4H KD QD", "6S 7H 8D 9C", "3S JH JD 10C", leader=1)
    with pytest.raises(RecordError):
        review_round(RoundRecord(start, (Pass(0),)), 0)
    with pytest.raises(ValueError):
        review_round(RoundRecord(start, ()), 4)


def test_each_decision_carries_the_noise_its_loss_was_judged_against():
    """``noise`` is the bar the judge's gap must clear to be a loss (``clear_gain``): a
    decision has a loss exactly when the expert's move's value exceeds the played one's by more
    than it, so a review page can show how close "no loss" was."""
    policies = [HeuristicPolicy(), RandomPolicy(), HeuristicPolicy(), RandomPolicy()]
    start = new_match(Options(players=4), 1000)
    record = play_round(start, policies, random.Random("review:1000"))
    review = review_round(record, 1, samples=SAMPLES, budget=None)
    weighed = [d for d in review.decisions if d.mark != FORCED]
    assert weighed and all(d.noise is not None and d.noise >= 0 for d in weighed)
    assert all(d.noise is None for d in review.decisions if d.mark == FORCED)
    for d in weighed:
        gap = d.best_value - d.played_value
        if abs(gap - d.noise) > 1e-9:  # off the bar itself, where rounding could decide
            assert (d.loss > 0) == (gap > 0 and gap > d.noise), (gap, d.noise, d.loss)
    assert any(d.loss == 0 and d.best != d.played for d in weighed)  # the case the pages explain
    assert any(d.loss > 0 for d in weighed)
