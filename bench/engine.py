"""Engine benchmark: random-play throughput and move-generation latency, beside rlcard.

    python bench/engine.py                      # default run, well under a minute
    python bench/engine.py --seconds 5          # quicker: 5 s of random play per engine
    python bench/engine.py --rounds 2000        # fixed work: 2000 rounds / 2000 rlcard games

Prints ONE JSON line. Our engine (4 players, 2 decks, default options):

- ``actions_per_second``, ``rounds_per_second``: uniformly random play from the deal
  (``new_match``) to round end. Each action: ``seats_to_act`` (one seat picked at random when
  several may answer a claim window), ``legal_actions`` for that seat, a uniform choice, ``apply``.
  The deal is inside the timed loop, as ``init_game`` is for rlcard.
- ``legal_actions_us``: median time of ``legal_actions`` for the leader of a fresh deal (27 cards),
  over ``--deals`` seeded deals (each deal timed as the best of a few short batches of calls).
- ``follow_actions_us``: median time of ``legal_actions`` for the seat facing a top play, right
  after the leader of a fresh deal made a random lead (claim windows all passed).
- ``apply_us``: median time of ``apply`` per accepted action, over random play; the same pass
  gives ``play_*_actions_us``, medians of ``legal_actions`` in play for a leader, a seat facing a
  top play and a claim-window answer (hands of every size, not only fresh 27-card ones).

rlcard 1.2.0's dou dizhu (``pip install rlcard==1.2.0``, the ``bench`` extra), in the same run:

- ``rlcard_steps_per_second``: ``DoudizhuGame``: ``init_game``, then a uniform pick from
  ``state["actions"]`` and ``step`` until ``is_over``; ``init_game`` is inside the timed loop.
- ``rlcard_leads_us``: median time of ``Judger.playable_cards_from_hand`` (the judger's
  playable-cards function, what fills ``state["actions"]`` at the first step) on the landlord's
  20-card hand of a fresh game.
- ``ratio_vs_rlcard`` = ``actions_per_second / rlcard_steps_per_second``.

Both random-play loops run in alternating slices of about a second (whole rounds/games), so
that both see the same machine load. Throughput is wall-clock; ``*_per_cpu_second`` divide by
this process's CPU time instead, and ``machine.load_average_1m`` (before, after) shows how busy
the machine was: on a shared machine the same-run ratios are the figures to compare.

Without rlcard importable, ``"rlcard": null`` stands in for its figures. Every run is seeded
(``--seed``): the same seed plays the same deals and choices, so runs are comparable (the script
runs itself under ``PYTHONHASHSEED=0``, which rlcard's action order needs).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine.actions import Pass, Rejection  # noqa: E402
from games.engine.deal import new_match  # noqa: E402
from games.engine.options import Options  # noqa: E402
from games.engine.rules import apply, legal_actions, seats_to_act  # noqa: E402
from games.engine.state import MATCH_OVER, PLAY, ROUND_OVER, WINDOW  # noqa: E402

OPTIONS = Options(players=4, decks=2)
DONE = (ROUND_OVER, MATCH_OVER)


# --- our engine -----------------------------------------------------------------------------


class Loop:
    """Random play in whole rounds (or games), run slice by slice; counts steps and time."""

    def __init__(self, play_round) -> None:
        self.play_round = play_round  # plays one round, returns its number of steps
        self.steps = self.rounds = 0
        self.wall = self.cpu = 0.0

    def run(self, seconds: float, max_rounds: float) -> None:
        """Play whole rounds for about ``seconds``, never beyond ``max_rounds`` in all."""
        cpu, start = time.process_time(), time.perf_counter()
        while self.rounds < max_rounds:
            self.steps += self.play_round()
            self.rounds += 1
            if time.perf_counter() - start >= seconds:
                break
        self.wall += time.perf_counter() - start
        self.cpu += time.process_time() - cpu


def engine_round(rng: random.Random) -> int:
    """One round of uniformly random play from the deal to round end; its number of actions."""
    state = new_match(OPTIONS, rng.getrandbits(32))
    actions = 0
    while state.phase not in DONE:
        seats = seats_to_act(state)
        seat = seats[0] if len(seats) == 1 else rng.choice(seats)
        outcome = apply(state, rng.choice(legal_actions(state, seat)))
        if isinstance(outcome, Rejection):
            raise AssertionError(f"legal action rejected: {outcome}")
        state = outcome.state
        actions += 1
    return actions


def play_alternately(loops: list[Loop], seconds: float, rounds: int | None) -> None:
    """Run every loop for ``seconds`` of wall time (or ``rounds`` rounds), in alternating slices."""
    slice_seconds = min(1.0, seconds / 5)
    target = rounds or float("inf")

    def unfinished(loop: Loop) -> bool:
        return loop.rounds < target if rounds else loop.wall < seconds

    while any(unfinished(loop) for loop in loops):
        for loop in loops:
            if unfinished(loop):
                loop.run(slice_seconds, target)


def throughput(loop: Loop, prefix: str, steps: str, rounds: str) -> dict:
    return {
        f"{prefix}{steps}_per_second": round(loop.steps / loop.wall),
        f"{prefix}{rounds}_per_second": round(loop.rounds / loop.wall, 1),
        f"{prefix}{rounds}": loop.rounds,
        f"{prefix}{steps}": loop.steps,
        f"{prefix}{steps}_per_{rounds[:-1]}": round(loop.steps / loop.rounds, 1),
        f"{prefix}seconds": round(loop.wall, 2),
        f"{prefix}{steps}_per_cpu_second": round(loop.steps / loop.cpu),
    }


def _per_call_us(fn, args, repeat: int, batches: int) -> float:
    """Microseconds per call: the best of ``batches`` batches of ``repeat`` calls (the best
    batch is the one least disturbed by other processes on the machine)."""
    best = float("inf")
    for _ in range(batches):
        start = time.perf_counter()
        for _ in range(repeat):
            fn(*args)
        best = min(best, time.perf_counter() - start)
    return best / repeat * 1e6


def leader_and_follower_us(seed: int, deals: int, repeat: int, batches: int) -> dict:
    """Median ``legal_actions`` time for a fresh deal's leader, and for the seat facing its lead."""
    rng = random.Random(seed)
    lead_us, follow_us, lead_counts, follow_counts = [], [], [], []
    for _ in range(deals):
        state = new_match(OPTIONS, rng.getrandbits(32))
        leader = state.turn
        lead_us.append(_per_call_us(legal_actions, (state, leader), repeat, batches))
        options = legal_actions(state, leader)
        lead_counts.append(len(options))
        state = apply(state, rng.choice(options)).state
        while state.phase == WINDOW:  # a single opened a claim window: everyone passes
            state = apply(state, Pass(seats_to_act(state)[0])).state
        assert state.phase == PLAY and state.top is not None
        follow_us.append(_per_call_us(legal_actions, (state, state.turn), repeat, batches))
        follow_counts.append(len(legal_actions(state, state.turn)))
    return {
        "legal_actions_us": round(statistics.median(lead_us), 2),
        "follow_actions_us": round(statistics.median(follow_us), 2),
        "leads_per_hand": round(statistics.mean(lead_counts), 1),
        "follows_per_hand": round(statistics.mean(follow_counts), 1),
    }


def apply_us(seed: int, rounds: int) -> dict:
    """Median time of one accepted ``apply``, and of ``legal_actions`` by situation (a leader,
    a seat facing a top play, a claim-window answer), over random play."""
    rng = random.Random(seed)
    clock = time.perf_counter_ns
    apply_ns, legal_ns = [], []
    by_situation: dict[str, list[int]] = {"lead": [], "follow": [], "window": []}
    for _ in range(rounds):
        state = new_match(OPTIONS, rng.getrandbits(32))
        while state.phase not in DONE:
            seats = seats_to_act(state)
            seat = seats[0] if len(seats) == 1 else rng.choice(seats)
            t0 = clock()
            legal = legal_actions(state, seat)
            t1 = clock()
            action = rng.choice(legal)
            t2 = clock()
            outcome = apply(state, action)
            t3 = clock()
            legal_ns.append(t1 - t0)
            apply_ns.append(t3 - t2)
            situation = (
                "window" if state.phase == WINDOW else "lead" if state.top is None else "follow"
            )
            by_situation[situation].append(t1 - t0)
            state = outcome.state
    result = {
        "apply_us": round(statistics.median(apply_ns) / 1000, 2),
        "play_legal_actions_us": round(statistics.median(legal_ns) / 1000, 2),
    }
    for situation, times in by_situation.items():
        result[f"play_{situation}_actions_us"] = round(statistics.median(times) / 1000, 2)
    return result


# --- rlcard's dou dizhu -----------------------------------------------------------------------


def rlcard_setup(seed: int):
    """rlcard 1.2.0's ``DoudizhuGame`` as a ``Loop``, and a function measuring its leads; or
    None when rlcard is not importable."""
    try:
        import numpy as np
        import rlcard
        from rlcard.games.doudizhu.game import DoudizhuGame
        from rlcard.games.doudizhu.judger import DoudizhuJudger
        from rlcard.games.doudizhu.utils import cards2str
    except ImportError:
        return None
    rng = random.Random(seed)
    game = DoudizhuGame()
    game.np_random = np.random.RandomState(seed)  # init_game deals from the game's generator

    def play_game() -> int:
        state, _ = game.init_game()
        steps = 0
        while not game.is_over():
            state, _ = game.step(rng.choice(state["actions"]))
            steps += 1
        return steps

    def leads(deals: int, repeat: int, batches: int) -> dict:
        leads_us, lead_counts = [], []
        for _ in range(deals):
            game.init_game()
            hand = cards2str(game.players[game.round.landlord_id].current_hand)
            assert len(hand) == 20
            leads_us.append(
                _per_call_us(DoudizhuJudger.playable_cards_from_hand, (hand,), repeat, batches)
            )
            lead_counts.append(len(DoudizhuJudger.playable_cards_from_hand(hand)))
        return {
            "rlcard_version": rlcard.__version__,
            "numpy_version": np.__version__,
            "rlcard_leads_us": round(statistics.median(leads_us), 2),
            "rlcard_leads_per_hand": round(statistics.mean(lead_counts), 1),
            "rlcard_leads_measured": "Judger.playable_cards_from_hand(landlord's 20-card hand)",
        }

    return Loop(play_game), leads


def _fix_hash_seed() -> None:
    """rlcard lists a hand's actions from a set of strings, whose order follows Python's string
    hash seed; run again under a fixed seed so that rlcard's random play is repeatable too."""
    if os.environ.get("PYTHONHASHSEED") != "0":
        os.execve(
            sys.executable, [sys.executable, *sys.argv], {**os.environ, "PYTHONHASHSEED": "0"}
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--seconds",
        type=float,
        default=15.0,
        help="seconds of random play for each engine (default 15)",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=None,
        help="play exactly this many rounds (and rlcard games) instead",
    )
    parser.add_argument("--seed", type=int, default=414)
    parser.add_argument(
        "--deals",
        type=int,
        default=300,
        help="fresh deals timed for the lead/follow/rlcard-leads medians",
    )
    parser.add_argument("--repeat", type=int, default=5, help="calls per timed batch")
    parser.add_argument(
        "--batches", type=int, default=4, help="batches per deal; the best batch counts"
    )
    parser.add_argument(
        "--apply-rounds",
        type=int,
        default=200,
        help="rounds whose every apply is timed for apply_us",
    )
    parser.add_argument("--no-rlcard", action="store_true", help="skip rlcard")
    args = parser.parse_args(argv)

    load_before = os.getloadavg()[0]
    result: dict = {
        "benchmark": "engine",
        "seed": args.seed,
        "players": OPTIONS.players,
        "decks": OPTIONS.decks,
    }
    rng = random.Random(args.seed)
    engine = Loop(lambda: engine_round(rng))
    rl = None if args.no_rlcard else rlcard_setup(args.seed)
    play_alternately([engine] if rl is None else [engine, rl[0]], args.seconds, args.rounds)
    result.update(throughput(engine, "", "actions", "rounds"))
    result.update(leader_and_follower_us(args.seed, args.deals, args.repeat, args.batches))
    result.update(apply_us(args.seed, args.apply_rounds))
    if rl is None:
        result["rlcard"] = None
    else:
        result.update(throughput(rl[0], "rlcard_", "steps", "games"))
        result.update(rl[1](args.deals, args.repeat, args.batches))
        result["ratio_vs_rlcard"] = round(
            result["actions_per_second"] / result["rlcard_steps_per_second"], 2
        )
        result["ratio_vs_rlcard_cpu"] = round(
            result["actions_per_cpu_second"] / result["rlcard_steps_per_cpu_second"], 2
        )
        result["goal_ratio_4x"] = result["ratio_vs_rlcard"] >= 4
    result["goal_leads_under_50us"] = result["legal_actions_us"] < 50
    result["goal_follows_under_10us"] = result["follow_actions_us"] < 10
    result.update(
        {
            "python": platform.python_version(),
            "implementation": platform.python_implementation(),
            "machine": {
                "platform": platform.platform(),
                "processor": platform.machine(),
                "cpu_count": os.cpu_count(),
                "load_average_1m": [round(load_before, 2), round(os.getloadavg()[0], 2)],
            },
        }
    )
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    _fix_hash_seed()
    sys.exit(main())
