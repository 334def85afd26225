"""leagues.pairing: Swiss by maximum-weight matching and round robin, without a database."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from leagues.pairing import BYE, round_robin, rounds_needed, swiss_round


def perfect_matchings(nodes):
    """Every way to pair ``nodes`` (an even count): the brute force the tests check against."""
    if not nodes:
        yield []
        return
    first, rest = nodes[0], nodes[1:]
    for i, other in enumerate(rest):
        for tail in perfect_matchings(rest[:i] + rest[i + 1 :]):
            yield [(first, other), *tail]


def repeat_free_exists(teams, met, had_bye):
    """Whether any pairing of ``teams`` repeats no meeting and gives no second bye."""
    nodes = list(teams) + ([BYE] if len(teams) % 2 else [])
    for matching in perfect_matchings(nodes):
        ok = True
        for a, b in matching:
            if BYE in (a, b):
                ok = ok and (b if a == BYE else a) not in had_bye
            else:
                ok = ok and frozenset((a, b)) not in met
        if ok:
            return True
    return False


def play_swiss(n, rounds, seed):
    """Run ``rounds`` Swiss rounds for ``n`` teams with random winners; check every round."""
    rng = random.Random(seed)
    teams = [f"t{i}" for i in range(n)]
    scores = dict.fromkeys(teams, 0)
    met, byes, history = set(), [], []
    for _ in range(rounds):
        ranked = sorted(teams, key=lambda t: (-scores[t], t))
        avoidable = repeat_free_exists(teams, met, set(byes))
        paired = swiss_round(ranked, scores, [tuple(p) for p in met], byes)
        seen = [t for pair in paired.pairs for t in pair] + ([paired.bye] if paired.bye else [])
        assert sorted(seen) == sorted(teams)  # everyone plays or has the bye, once
        repeats = [p for p in paired.pairs if frozenset(p) in met]
        if avoidable:
            assert repeats == [] and paired.bye not in byes, (history, paired)
        for a, b in paired.pairs:
            met.add(frozenset((a, b)))
            scores[rng.choice((a, b))] += 1
        if paired.bye:
            byes.append(paired.bye)
            scores[paired.bye] += 1
        history.append(paired)
    return history, byes


@pytest.mark.parametrize("n", [4, 5, 6, 8])
@pytest.mark.parametrize("seed", range(12))
def test_swiss_repeats_no_meeting_while_a_repeat_free_pairing_exists(n, seed):
    """Over n − 1 rounds (n for an odd count) with random results, a round repeats a meeting
    or a bye only when no repeat-free pairing of the remaining meetings exists."""
    play_swiss(n, n if n % 2 else n - 1, seed)


@pytest.mark.parametrize("n", [4, 5, 8])
def test_swiss_never_repeats_within_the_usual_number_of_rounds(n):
    """Within ⌈log2 n⌉ rounds (what a Swiss plays by default) no pair meets twice."""
    for seed in range(30):
        history, _ = play_swiss(n, rounds_needed("swiss", n), seed)
        meetings = [frozenset(p) for r in history for p in r.pairs]
        assert len(meetings) == len(set(meetings))


@pytest.mark.parametrize("n", [5, 7])
def test_swiss_byes_go_to_a_different_team_every_round(n):
    """With an odd count, n rounds give n byes to n different teams."""
    for seed in range(10):
        _, byes = play_swiss(n, n, seed)
        assert len(byes) == n and len(set(byes)) == n


def test_swiss_bye_goes_to_the_lowest_ranked_team_without_one():
    """The bye goes to the last team in the standings unless it already had a bye."""
    ranked = ["a", "b", "c", "d", "e"]
    scores = {"a": 2, "b": 2, "c": 1, "d": 1, "e": 0}
    assert swiss_round(ranked, scores).bye == "e"
    assert swiss_round(ranked, scores, had_bye=["e"]).bye == "d"


def test_swiss_pairs_close_scores_and_neighbours_in_the_standings():
    """Round one pairs neighbours (1v2, 3v4); later rounds pair equal scores together."""
    assert swiss_round(["a", "b", "c", "d"], {}).pairs == (("a", "b"), ("c", "d"))
    paired = swiss_round(["a", "c", "b", "d"], {"a": 1, "c": 1}, met=[("a", "b"), ("c", "d")])
    assert paired.pairs == (("a", "c"), ("b", "d")) and paired.bye is None


def test_swiss_repeats_only_the_unavoidable_meeting():
    """Four teams that have all met except one pair: that pair meets, and the other pair has
    to repeat (the least bad choice)."""
    met = [("a", "b"), ("a", "c"), ("a", "d"), ("b", "c"), ("b", "d")]
    paired = swiss_round(["a", "b", "c", "d"], {}, met=met)
    assert set(map(frozenset, paired.pairs)) == {frozenset("cd"), frozenset("ab")}


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7, 8, 9, 10])
def test_round_robin_meets_every_pair_exactly_once(n):
    """The circle method gives every pair one meeting, each team one game (or the bye) per
    round, and with an odd count every team one bye."""
    teams = list(range(n))
    rounds = round_robin(teams)
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    meetings = [frozenset(p) for r in rounds for p in r.pairs]
    assert sorted(meetings, key=sorted) == sorted(
        map(frozenset, combinations(teams, 2)), key=sorted
    )
    for r in rounds:
        seen = [t for p in r.pairs for t in p] + ([r.bye] if r.bye is not None else [])
        assert sorted(seen) == teams
    byes = [r.bye for r in rounds if r.bye is not None]
    assert sorted(byes) == (teams if n % 2 else [])


def test_round_robin_alternates_sides():
    """No team plays as team 0 in every round of a 4-team round robin."""
    rounds = round_robin(["a", "b", "c", "d"])
    for team in "abcd":
        sides = [0 if p[0] == team else 1 for r in rounds for p in r.pairs if team in p]
        assert sides != [0, 0, 0], team


def test_rounds_needed():
    """Round robin plays n − 1 (even) or n (odd) rounds; Swiss ⌈log2 n⌉ capped at that."""
    assert [rounds_needed("round_robin", n) for n in (2, 3, 4, 5, 8)] == [1, 3, 3, 5, 7]
    assert [rounds_needed("swiss", n) for n in (2, 3, 4, 5, 8, 9, 16)] == [1, 2, 2, 3, 3, 4, 4]
