"""Simulate rounds or matches between AI policies, one policy per team.

    python -m games.engine.simulate --players 4 --rounds 1000 --seed 7 --policy heuristic,random
    python -m games.engine.simulate --matches 20 --seed 7 --policy heuristic,random

Prints a JSON summary: wins per team (a round is won by the team that finished first, §7),
average tricks, hooks and bombs per round, and levels reached. Same seed, same output.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from collections.abc import Sequence
from typing import Any

from .actions import NextRound, Outcome, Rejection
from .ai.base import Policy, act
from .ai.registry import KEYS, policy
from .cards import face_name
from .combos import BOMBS
from .deal import new_match
from .events import Bombed, Event, Hooked, Played, TrickWon
from .options import Options
from .rules import apply
from .state import MATCH_OVER, ROUND_OVER, State


def step(
    state: State, policies: Sequence[Policy], rng: random.Random
) -> tuple[State, tuple[Event, ...]]:
    """One action by one of the seats that may act now, chosen by its seat's policy.

    Window answers come from a randomly chosen unanswered seat, so arrival order is random.
    """
    action = act(state, policies, rng)
    outcome = apply(state, action)
    if isinstance(outcome, Rejection):
        raise AssertionError(f"policy chose an illegal action {action}: {outcome}")
    return outcome.state, outcome.events


def play_round(
    state: State,
    policies: Sequence[Policy],
    rng: random.Random,
    stats: Counter[str] | None = None,
) -> State:
    """Play from ``state`` until the round is over; count tricks, hooks and bombs in ``stats``."""
    while state.phase not in (ROUND_OVER, MATCH_OVER):
        state, events = step(state, policies, rng)
        if stats is not None:
            for event in events:
                if isinstance(event, TrickWon):
                    stats["tricks"] += 1
                elif isinstance(event, Hooked):
                    stats["hooks"] += 1
                elif isinstance(event, (Played, Bombed)) and event.combination in BOMBS:
                    stats["bombs"] += 1
    return state


def run(
    players: int,
    rounds: int,
    matches: int,
    seed: int,
    team_policies: Sequence[str],
    options: Options | None = None,
) -> dict[str, Any]:
    """Play ``rounds`` independent first rounds, or ``matches`` whole matches; the summary."""
    options = options or Options(players=players)
    policies = [policy(team_policies[s % 2]) for s in range(players)]
    rng = random.Random(seed)
    stats: Counter[str] = Counter()
    wins = [0, 0]
    levels: Counter[str] = Counter()
    played = 0
    for _ in range(matches or rounds):
        state = new_match(options, rng.getrandbits(32))
        while True:
            state = play_round(state, policies, rng, stats)
            played += 1
            result = state.result
            assert result is not None  # the round is over
            if not matches:
                wins[result.team] += 1
                levels[face_name(result.levels[result.team])] += 1
                break
            if state.phase == MATCH_OVER:
                assert result.match_winner is not None
                wins[result.match_winner] += 1
                for level in result.levels:
                    levels[face_name(level)] += 1
                break
            dealt = apply(state, NextRound())
            assert isinstance(dealt, Outcome)
            state = dealt.state
    return {
        "players": players,
        "seed": seed,
        "policies": list(team_policies),
        "mode": "matches" if matches else "rounds",
        "count": matches or rounds,
        "rounds_played": played,
        "wins": {"team0": wins[0], "team1": wins[1]},
        "team0_win_rate": round(wins[0] / max(1, matches or rounds), 4),
        "avg_tricks_per_round": round(stats["tricks"] / played, 2),
        "hooks_per_round": round(stats["hooks"] / played, 3),
        "bombs_per_round": round(stats["bombs"] / played, 3),
        "levels_reached": dict(sorted(levels.items())),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m games.engine.simulate",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=1000)
    parser.add_argument("--matches", type=int, default=0, help="play whole matches instead")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--policy",
        default="heuristic,random",
        help=f"team 0's policy, team 1's policy ({', '.join(KEYS)})",
    )
    args = parser.parse_args(argv)
    names = args.policy.split(",")
    if len(names) != 2 or any(n not in KEYS for n in names):
        parser.error(f"--policy takes two of {', '.join(KEYS)}, comma-separated")
    if args.players < 2 or args.players % 2:
        parser.error("--players must be an even number, at least 2")
    summary = run(args.players, args.rounds, args.matches, args.seed, names)
    print(json.dumps(summary, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
