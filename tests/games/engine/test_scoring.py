"""RULES.md §7 (finishing, round end) and §8 (levels and the match), incl. ``target_level``."""

from __future__ import annotations

import pytest

from games.engine import (
    Hook,
    NextRound,
    Options,
    OptionsError,
    Pass,
    Play,
    Return,
    Timeout,
    Unhook,
    apply,
)
from games.engine.events import Dealt, MatchOver, RoundOver
from games.engine.scoring import score_round
from games.engine.state import RoundResult

from .helpers import cards, lv, ok, refused, run, table, types


def catch_both(levels=("2", "2"), level=None, **options):
    """Seats 0 then 2 go out mid-trick: team 0 finishes, seats 1 and 3 are caught."""
    state = table(
        "6S 6H", "5S 5H 6C", "BJ BJ", "4S 4H QD", level=level or levels[0], levels=levels, **options
    )
    return run(state, Play(0, cards("6S 6H")), Pass(1), Play(2, cards("BJ BJ")))


def catch_one(levels=("2", "2"), level=None, **options):
    """Finish order 0, 1, 2: team 0 finishes, seat 3 is caught."""
    state = table(
        "6S 6H", "BJ BJ", "RJ RJ", "8S 8H 6C", level=level or levels[0], levels=levels, **options
    )
    return run(
        state,
        Play(0, cards("6S 6H")),
        Play(1, cards("BJ BJ")),
        Pass(2),
        Pass(3),
        Play(3, cards("8S 8H")),
        Play(2, cards("RJ RJ")),
    )


def test_the_round_ends_the_moment_a_team_has_all_finished_even_mid_trick():
    """When every seat of a team has finished the round ends at once; there is no top play and no
    turn; opponents still holding cards are caught (§7)."""
    state, events = catch_both()
    assert types(events)[-3:] == ["play", "finished", "round_over"]
    assert events[-3].combination == "joker_bomb"
    assert events[-1] == RoundOver(
        team=0, caught=(1, 3), levels=(4, 2), next_level=4, match_winner=None
    )
    assert (state.phase, state.top, state.turn, state.window) == ("round_over", None, None, None)
    assert state.finished == (0, 2)
    assert state.result == RoundResult(0, (1, 3), (4, 2), 4, None)


def test_a_team_rises_by_the_number_caught():
    """T's level rises by c, the number caught; the other team does not move (§8)."""
    state, _ = catch_one(levels=("3", "5"))
    assert state.finished == (0, 1, 2)
    assert state.result == RoundResult(0, (3,), (4, 5), 4, None)


def test_nothing_is_accepted_after_the_round_but_next_round():
    """After the round ends only NextRound is accepted (§7)."""
    state, _ = catch_both()
    refused(state, Play(1, cards("5S 5H")), "round_over")
    refused(state, Pass(1), "round_over")
    refused(state, Hook(1, cards("5S 5H")), "round_over")
    refused(state, Unhook(1, ("5S",)), "round_over")
    refused(state, Return(1, "5S"), "round_over")
    refused(state, Timeout(), "round_over")


def test_the_next_round_is_played_at_the_winning_teams_new_level():
    """The next round's level is T's new level; its first finisher deals (§1, §8)."""
    state, _ = catch_one(levels=("3", "5"))
    nxt, events = ok(state, NextRound())
    assert events[0] == Dealt(round=2, dealer=0, level=4)
    assert (nxt.level, nxt.levels, nxt.round_no, nxt.dealer) == (4, (4, 5), 2, 0)
    assert nxt.result is None and nxt.finished == ()


def test_levels_cap_at_a_and_extra_steps_are_lost():
    """A team at K that catches 2 rises to A but has not won (§8, §11.12)."""
    state, _ = catch_both(levels=("K", "3"))
    assert state.result == RoundResult(0, (1, 3), (14, 3), 14, None)
    assert state.phase == "round_over"


def test_a_team_at_a_catching_one_of_two_stays_at_a():
    """At A, catching only some of the opponents changes nothing (§8, §11.12)."""
    state, _ = catch_one(levels=("A", "7"))
    assert state.result == RoundResult(0, (3,), (14, 7), 14, None)
    assert state.phase == "round_over"


def test_a_team_at_a_catching_every_opponent_wins_the_match():
    """A team that started the round at A and caught the whole other team wins; no next round
    and nothing more is accepted (§8)."""
    state, events = catch_both(levels=("A", "7"))
    assert types(events)[-2:] == ["round_over", "match_over"]
    assert events[-2].next_level is None and events[-2].match_winner == 0
    assert events[-1] == MatchOver(winner=0)
    assert state.phase == "match_over"
    assert state.result == RoundResult(0, (1, 3), (14, 7), None, 0)
    refused(state, NextRound(), "match_over")
    refused(state, Timeout(), "match_over")


def test_the_round_level_does_not_decide_the_match_the_teams_level_does():
    """The match test reads T's level at the start of the round, not the round level (§8)."""
    state, _ = catch_both(levels=("K", "A"), level="A")
    assert state.result == RoundResult(0, (1, 3), (14, 14), 14, None)


@pytest.mark.parametrize(
    ("levels", "team", "caught", "players", "target", "result"),
    [
        ((2, 2), 0, (1, 3), 4, 14, RoundResult(0, (1, 3), (4, 2), 4, None)),
        ((2, 9), 1, (0,), 4, 14, RoundResult(1, (0,), (2, 10), 10, None)),
        ((6, 3), 0, (1, 5), 6, 14, RoundResult(0, (1, 5), (8, 3), 8, None)),
        ((6, 3), 0, (1, 3, 5), 6, 14, RoundResult(0, (1, 3, 5), (9, 3), 9, None)),
        ((2, 2), 1, (0, 2, 4, 6), 8, 14, RoundResult(1, (0, 2, 4, 6), (2, 6), 6, None)),
        ((12, 2), 0, (1, 3), 4, 14, RoundResult(0, (1, 3), (14, 2), 14, None)),
        ((14, 2), 0, (1,), 4, 14, RoundResult(0, (1,), (14, 2), 14, None)),
        ((14, 2), 0, (1, 3), 4, 14, RoundResult(0, (1, 3), (14, 2), None, 0)),
        ((14, 2), 0, (1, 3), 6, 14, RoundResult(0, (1, 3), (14, 2), 14, None)),
        ((4, 2), 0, (1, 3), 4, 5, RoundResult(0, (1, 3), (5, 2), 5, None)),
        ((5, 2), 0, (1,), 4, 5, RoundResult(0, (1,), (5, 2), 5, None)),
        ((5, 2), 0, (1, 3), 4, 5, RoundResult(0, (1, 3), (5, 2), None, 0)),
        ((3, 3), 1, (0, 2), 4, 3, RoundResult(1, (0, 2), (3, 3), None, 1)),
    ],
)
def test_score_round(levels, team, caught, players, target, result):
    """§8 with target_level: rise by c capped at the target; starting at the target and catching
    the whole other team wins the match."""
    assert score_round(levels, team, caught, players, target) == result


def test_target_level_quick_match_through_the_engine():
    """target_level=5: a team at 4 catching 2 caps at 5; at 5 catching 2 wins (§10)."""
    state, _ = catch_both(levels=("4", "2"), target_level=5)
    assert state.result == RoundResult(0, (1, 3), (5, 2), 5, None)
    state, _ = catch_both(levels=("5", "2"), target_level=5)
    assert (state.phase, state.result.match_winner) == ("match_over", 0)


def test_target_level_values():
    """target_level is A or any level 3..K; faces are accepted from JSON (§10)."""
    assert Options().target_level == lv("A")
    assert Options.from_dict({"target_level": "K"}).target_level == 13
    assert Options.from_dict({"target_level": "3"}).target_level == 3
    for bad in (2, 15, 16, "2", "BJ", "X"):
        with pytest.raises(OptionsError):
            Options.from_dict({"target_level": bad})


def test_next_round_is_refused_after_a_match_win_even_with_a_raw_apply():
    """After a match win there is no next round (§8)."""
    state, _ = catch_both(levels=("A", "A"))
    outcome = apply(state, NextRound())
    assert outcome.code == "match_over"
