"""AI benchmark (issue 11): the policies against each other in duplicate, and the expert's speed.

    nice -n 19 .venv/bin/python bench/ai.py --quick          # a few minutes on 2 cores
    nice -n 19 .venv/bin/python bench/ai.py                  # the issue's figures: 200 deal
                                                             # pairs (400 rounds) and 30 match
                                                             # pairs (60 matches) a pairing
    nice -n 19 .venv/bin/python bench/ai.py --pairs 50 --match-pairs 10 --pairings expert:heuristic

Duplicate format, so the luck of the deal cancels: every seeded deal (4 players, 2 decks, default
options) is played twice, the second time with the two teams' policies swapped; the same seed
also drives the order of window answers. For each pairing A:B it prints

- ``rounds``: first rounds of fresh deals; ``a_won`` / ``b_won`` (the team that finished first,
  §7), ``a_share`` with its 95% Wilson interval, and the mean levels gained per round by each
  side (a side gains c levels when it finishes first and catches c, §8) with a 95% bootstrap
  interval over deal pairs;
- ``matches``: whole matches to ``target_level`` 5 (a quick match, §10), also in duplicate:
  matches won by each side, A's share with its Wilson interval, rounds played;
- ``decisions``: for each policy, the number of decisions, the time per decision in ms (p50, p99,
  max; wall clock and this process's CPU time, which a busy machine inflates less; all
  decisions, and for the expert the ones it searched), and decisions per CPU second (decisions /
  CPU time spent choosing); ``partner_tops_with_a_bomb``, the decisions where the partner's play
  was on top (the opponent after it had passed) and the seat held a bomb that beats it, and
  ``bombs_over_partner``, how many of them it bombed its own partner's winning play (issue 18;
  ``rounds.per_pair`` lists them per deal pair with the rounds A won, to compare runs deal by
  deal).

The expert runs with its deterministic budget (``--samples`` deals per decision, no time limit),
so a run is reproducible: the same arguments give the same games. Work is split over
``--workers`` processes (default: every core). Prints one JSON document; ``wall_seconds`` and
``load_average`` (before, after) say how long it took on how busy a machine. With ``--out FILE``
the report is also rewritten every ``--progress`` finished tasks (``finished`` of ``tasks``), the
deal and match pairs of every pairing interleaved: a long run stopped early still leaves figures.
Run it under ``nice -n 19`` on a shared machine.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.run_header import emit, header, wilson  # noqa: E402
from games.engine.actions import NextRound, Play  # noqa: E402
from games.engine.ai import DEFAULT_SAMPLES, KEYS, ExpertPolicy, policy  # noqa: E402
from games.engine.ai.base import combo_of  # noqa: E402
from games.engine.deal import new_match  # noqa: E402
from games.engine.options import Options  # noqa: E402
from games.engine.rules import apply  # noqa: E402
from games.engine.simulate import play_round  # noqa: E402
from games.engine.state import MATCH_OVER  # noqa: E402

ROUND_OPTIONS = Options(players=4)
MATCH_OPTIONS = Options(players=4, target_level=5)
PAIRINGS = ("expert:heuristic", "heuristic:random", "expert:random")


class Timed:
    """A policy that records the wall and CPU time of each decision (and whether it searched)."""

    def __init__(self, inner) -> None:
        self.inner = inner
        self.name = inner.name
        self.wall: list[float] = []
        self.cpu_each: list[float] = []
        self.searched: list[float] = []
        self.searched_cpu: list[float] = []
        self.cpu = 0.0
        self.partner_tops = 0
        self.partner_bombed = 0

    def choose(self, view, legal, rng):
        last = getattr(self.inner, "last", None)
        t0, c0 = time.perf_counter(), time.process_time()
        action = self.inner.choose(view, legal, rng)
        c1, t1 = time.process_time(), time.perf_counter()
        self._count_partner_bomb(view, legal, action)
        self.wall.append(t1 - t0)
        self.cpu_each.append(c1 - c0)
        self.cpu += c1 - c0
        if getattr(self.inner, "last", None) is not last:
            self.searched.append(t1 - t0)
            self.searched_cpu.append(c1 - c0)
        return action

    def _count_partner_bomb(self, view, legal, action) -> None:
        """Count the decisions where the top play is the partner's, the opponents who had a turn
        since it passed (the partner wins the trick unless someone beats it), and the seat holds
        a bomb that beats it (``partner_tops``); and those where it played one
        (``partner_bombed``: bombing its own partner's winning play, issue 18)."""
        top = view.top
        if view.window is not None or top is None or top.seat % 2 != view.seat % 2:
            return
        bombs = [a for a in legal if isinstance(a, Play) and combo_of(a, view).is_bomb]
        if not bombs:
            return
        self.partner_tops += 1
        if action in bombs:
            self.partner_bombed += 1


def make(name: str, samples: int):
    if name == "expert":
        return ExpertPolicy(samples=samples, time_budget=None)
    return policy(name)


def play_pair(task: tuple) -> dict:
    """One seeded deal (or match) played twice, A on team 0 then on team 1. Returns per-side
    results: rounds won, levels gained, and the decisions' timings."""
    kind, a, b, seed, samples = task
    sides = {"a": Timed(make(a, samples)), "b": Timed(make(b, samples))}
    games = []
    for a_team in (0, 1):
        by_team = {a_team: sides["a"], 1 - a_team: sides["b"]}
        policies = [by_team[s % 2] for s in range(4)]
        rng = random.Random(f"bench:{seed}")
        if kind == "round":
            state = play_round(new_match(ROUND_OPTIONS, seed), policies, rng)
            won = "a" if state.result.team == a_team else "b"
            games.append({"won": won, "levels": len(state.result.caught), "rounds": 1})
        else:
            state = new_match(MATCH_OPTIONS, seed)
            rounds = 0
            while True:
                state = play_round(state, policies, rng)
                rounds += 1
                if state.phase == MATCH_OVER:
                    break
                state = apply(state, NextRound()).state
            won = "a" if state.result.match_winner == a_team else "b"
            games.append({"won": won, "levels": 0, "rounds": rounds})
    return {
        "kind": kind,
        "seed": seed,
        "games": games,
        "timing": {
            side: {
                "name": p.name,
                "wall": p.wall,
                "cpu_each": p.cpu_each,
                "searched": p.searched,
                "searched_cpu": p.searched_cpu,
                "cpu": p.cpu,
                "partner_tops": p.partner_tops,
                "partner_bombed": p.partner_bombed,
            }
            for side, p in sides.items()
        },
    }


def bootstrap_mean(pairs: list[list[float]], rounds: int = 2000, seed: int = 1) -> list[float]:
    """95% percentile bootstrap interval of the mean per game, resampling whole deal pairs."""
    if not pairs:
        return [0.0, 0.0]
    rng = random.Random(seed)
    means = []
    for _ in range(rounds):
        pick = [pairs[rng.randrange(len(pairs))] for _ in pairs]
        means.append(sum(sum(p) for p in pick) / sum(len(p) for p in pick))
    means.sort()
    return [round(means[int(0.025 * rounds)], 4), round(means[int(0.975 * rounds) - 1], 4)]


def ms(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    values = sorted(values)
    return round(1000 * values[min(len(values) - 1, int(q * len(values)))], 2)


def summarise(a: str, b: str, results: list[dict]) -> dict:
    rounds = [r for r in results if r["kind"] == "round"]
    matches = [r for r in results if r["kind"] == "match"]
    out: dict = {"a": a, "b": b}
    if rounds:
        games = [g for r in rounds for g in r["games"]]
        a_won = sum(g["won"] == "a" for g in games)
        levels = {
            side: [[g["levels"] if g["won"] == side else 0 for g in r["games"]] for r in rounds]
            for side in "ab"
        }
        out["rounds"] = {
            "deal_pairs": len(rounds),
            "rounds": len(games),
            "a_won": a_won,
            "b_won": len(games) - a_won,
            "a_share": round(a_won / len(games), 4),
            "a_share_95": wilson(a_won, len(games)),
            "a_levels_per_round": round(sum(map(sum, levels["a"])) / len(games), 4),
            "a_levels_per_round_95": bootstrap_mean(levels["a"]),
            "b_levels_per_round": round(sum(map(sum, levels["b"])) / len(games), 4),
            "b_levels_per_round_95": bootstrap_mean(levels["b"]),
            # Per deal pair: its seed, rounds A won, A's and B's bombs over the partner's play,
            # so that runs (or slices of runs) compare deal by deal.
            "per_pair": sorted(
                [
                    r["seed"],
                    sum(g["won"] == "a" for g in r["games"]),
                    r["timing"]["a"]["partner_bombed"],
                    r["timing"]["b"]["partner_bombed"],
                ]
                for r in rounds
            ),
        }
    if matches:
        games = [g for r in matches for g in r["games"]]
        a_won = sum(g["won"] == "a" for g in games)
        out["matches"] = {
            "match_pairs": len(matches),
            "matches": len(games),
            "target_level": "5",
            "a_won": a_won,
            "b_won": len(games) - a_won,
            "a_share": round(a_won / len(games), 4),
            "a_share_95": wilson(a_won, len(games)),
            "rounds_played": sum(g["rounds"] for g in games),
        }
    decisions = {}
    for side, name in (("a", a), ("b", b)):
        wall = [t for r in results for t in r["timing"][side]["wall"]]
        each = [t for r in results for t in r["timing"][side]["cpu_each"]]
        searched = [t for r in results for t in r["timing"][side]["searched"]]
        searched_cpu = [t for r in results for t in r["timing"][side]["searched_cpu"]]
        cpu = sum(r["timing"][side]["cpu"] for r in results)
        entry = {
            "policy": name,
            "decisions": len(wall),
            "p50_ms": ms(wall, 0.5),
            "p99_ms": ms(wall, 0.99),
            "max_ms": ms(wall, 1.0),
            "cpu_p50_ms": ms(each, 0.5),
            "cpu_p99_ms": ms(each, 0.99),
            "cpu_max_ms": ms(each, 1.0),
            "decisions_per_cpu_second": round(len(wall) / cpu, 1) if cpu else None,
            "partner_tops_with_a_bomb": sum(r["timing"][side]["partner_tops"] for r in results),
            "bombs_over_partner": sum(r["timing"][side]["partner_bombed"] for r in results),
        }
        if name == "expert":
            entry.update(
                {
                    "searched": len(searched),
                    "searched_p50_ms": ms(searched, 0.5),
                    "searched_p99_ms": ms(searched, 0.99),
                    "searched_max_ms": ms(searched, 1.0),
                    "searched_cpu_p50_ms": ms(searched_cpu, 0.5),
                    "searched_cpu_p99_ms": ms(searched_cpu, 0.99),
                    "searched_cpu_max_ms": ms(searched_cpu, 1.0),
                    "cpu_seconds": round(cpu, 1),
                }
            )
        decisions[side] = entry
    out["decisions"] = decisions
    return out


def _indexed(item: tuple[int, tuple]) -> tuple[int, dict]:
    return item[0], play_pair(item[1])


def _report(args, argv, pairings, tasks, results, load_before, start) -> dict:
    """The report over the tasks finished so far (``finished`` of ``tasks``)."""
    finished = [(t, r) for t, r in zip(tasks, results, strict=True) if r is not None]
    return {
        **header("bench/ai.py", argv, args.workers, load_before, start),
        "expert_samples": args.samples,
        "seed": args.seed,
        "tasks": len(tasks),
        "finished": len(finished),
        "pairings": [
            summarise(a, b, [r for t, r in finished if t[1] == a and t[2] == b])
            for a, b in pairings
        ],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="bench/ai.py",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--pairs", type=int, default=200, help="deal pairs per pairing")
    parser.add_argument(
        "--match-pairs", type=int, default=30, help="match pairs (two matches each) per pairing"
    )
    parser.add_argument(
        "--pairings", default=",".join(PAIRINGS), help="comma-separated A:B policy pairs"
    )
    parser.add_argument(
        "--samples", type=int, default=DEFAULT_SAMPLES, help="the expert's deals per decision"
    )
    parser.add_argument("--seed", type=int, default=1000, help="first deal seed")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--out", help="also write the JSON report to this file")
    parser.add_argument(
        "--progress",
        type=int,
        default=20,
        help="with --out, rewrite the report every this many finished tasks (0: only at the end)",
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="a short run: 30 deal pairs and 5 match pairs a pairing",
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.pairs, args.match_pairs = 30, 5
    pairings = [tuple(p.split(":")) for p in args.pairings.split(",")]
    for pair in pairings:
        if len(pair) != 2 or any(n not in KEYS for n in pair):
            parser.error(f"bad pairing {':'.join(pair)!r}: two of {', '.join(KEYS)}")
    tasks = []
    for a, b in pairings:
        tasks += [("round", a, b, args.seed + i, args.samples) for i in range(args.pairs)]
        tasks += [
            ("match", a, b, args.seed + 100_000 + i, args.samples) for i in range(args.match_pairs)
        ]
    # Deal pairs and match pairs of every pairing interleaved, so that a partial report (written
    # every ``--progress`` finished tasks) covers each of them.
    groups: dict[tuple, list] = {}
    for task in tasks:
        groups.setdefault(task[:3], []).append(task)
    tasks = [
        g[i]
        for i in range(max(map(len, groups.values()), default=0))
        for g in groups.values()
        if i < len(g)
    ]
    load_before = os.getloadavg()
    start = time.perf_counter()
    results: list = [None] * len(tasks)
    done = 0
    with Pool(args.workers) as pool:
        for index, result in pool.imap_unordered(_indexed, enumerate(tasks), chunksize=1):
            results[index] = result
            done += 1
            if args.out and args.progress and done % args.progress == 0 and done < len(tasks):
                report = _report(args, argv, pairings, tasks, results, load_before, start)
                Path(args.out).write_text(json.dumps(report, indent=1) + "\n")
    report = _report(args, argv, pairings, tasks, results, load_before, start)
    emit(report, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
