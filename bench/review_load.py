"""Does a busy review worker slow the AI seats? (issue 20: "0 effect on live AI latency").

    nice -n 5 .venv/bin/python bench/review_load.py --blocks 6 --decisions 20 --out var/rl.json

The AI seats' expert decisions, as the AI worker makes them (``ExpertPolicy`` at the product's
budget: up to 48 sampled deals, at most 0.5 s of wall time), on positions from heuristic rounds
(seat 0's searched turns), in ``--ai-procs`` processes at once (the AI worker's pool: 2), while
the review worker's one process (``-c 1``) does one of:

- ``idle``: nothing (the floor);
- ``review``: reviews rounds back to back (``review_round`` at the product's samples and budget),
  at the AI's priority;
- ``review_nice``: the same at ``nice 10``;
- ``review_idle``: the same under Linux's ``SCHED_IDLE`` policy (CPU only when no other process
  wants it), as deploy/club414-review-worker.service runs it (``CPUSchedulingPolicy=idle``).

Conditions alternate in ``--blocks`` blocks of ``--decisions`` decisions per AI process, so a
noisy machine weighs on each alike. Per condition: decision wall latency p50/p99 (ms), sampled
deals reached p50 (the budget cuts the search short on a busy machine: that, not the latency,
is what contention costs), and the 1-minute load average at each block's end (mean, max).
The queue side (a review never delays an AI decision or a timer: separate queues and workers)
is the test's: tests/games/play/test_review_worker.py.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.run_header import emit, header  # noqa: E402
from games.engine.actions import Play  # noqa: E402
from games.engine.ai import ExpertPolicy, HeuristicPolicy  # noqa: E402
from games.engine.deal import new_match  # noqa: E402
from games.engine.options import Options  # noqa: E402
from games.engine.review import review_round  # noqa: E402
from games.engine.review.record import play_round, replay  # noqa: E402
from games.engine.rules import legal_actions  # noqa: E402
from games.engine.state import PLAY  # noqa: E402
from games.engine.views import seat_view  # noqa: E402

OPTIONS = Options(players=4)
CONDITIONS = ("idle", "review", "review_nice", "review_idle")


def positions(count: int, seed: int) -> list:
    """Seat 0's turns in play, from heuristic rounds: ``(view, legal)`` pairs."""
    found: list = []
    n = seed
    while len(found) < count:
        record = play_round(new_match(OPTIONS, n), [HeuristicPolicy()] * 4, random.Random(n))
        for step in replay(record):
            state = step.before
            if state.phase == PLAY and state.turn == 0 and isinstance(step.action, Play):
                found.append((seat_view(state, 0), legal_actions(state, 0)))
        n += 1
    return found[:count]


def reviewer(stop, cond: str, seed: int) -> None:
    """The review worker's process under condition ``cond``: reviews rounds back to back until
    ``stop`` is set."""
    if cond == "review_nice":
        os.nice(10)
    elif cond == "review_idle":
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    n = seed
    while not stop.is_set():
        record = play_round(new_match(OPTIONS, n), [HeuristicPolicy()] * 4, random.Random(n))
        review_round(record, 0, seed=n)
        n += 1


def decide(task: tuple) -> list[tuple[float, int]]:
    """``(wall seconds, deals sampled)`` of each searched decision on the given positions."""
    start, count, seed = task
    found = []
    for i, (view, legal) in enumerate(positions(start + count, seed)[start:]):
        expert = ExpertPolicy()  # the product's samples and budget
        began = time.perf_counter()
        expert.choose(view, legal, random.Random(i))
        took = time.perf_counter() - began
        if expert.last is not None:
            found.append((took, expert.last.samples))
    return found


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else 0.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="bench/review_load.py",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--blocks", type=int, default=6, help="blocks per condition")
    parser.add_argument("--decisions", type=int, default=20, help="per AI process and block")
    parser.add_argument("--ai-procs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=500)
    parser.add_argument("--out", help="also write the JSON report to this file")
    args = parser.parse_args(argv)
    load_before, began = os.getloadavg(), time.perf_counter()
    rows: dict[str, list[tuple[float, int]]] = {c: [] for c in CONDITIONS}
    loads: dict[str, list[float]] = {c: [] for c in CONDITIONS}
    ctx = mp.get_context("fork")
    with ctx.Pool(args.ai_procs) as pool:
        for block in range(args.blocks):
            for cond in CONDITIONS:
                stop = ctx.Event()
                bg = None
                if cond != "idle":
                    bg = ctx.Process(target=reviewer, args=(stop, cond, 9000 + block))
                    bg.start()
                    time.sleep(1.0)  # the review under way before the first decision
                tasks = [
                    (block * args.decisions, args.decisions, args.seed + 1000 * p)
                    for p in range(args.ai_procs)
                ]
                for found in pool.map(decide, tasks):
                    rows[cond] += found
                loads[cond].append(os.getloadavg()[0])
                if bg is not None:
                    stop.set()
                    bg.join(60)
                    if bg.is_alive():
                        bg.terminate()
    report = {
        **header("bench/review_load.py", argv, args.ai_procs, load_before, began),
        "blocks": args.blocks,
        "decisions_per_block": args.decisions * args.ai_procs,
        "conditions": {
            c: {
                "decisions": len(rows[c]),
                "latency_ms": {
                    "p50": round(1000 * pct([t for t, _ in rows[c]], 0.5), 1),
                    "p99": round(1000 * pct([t for t, _ in rows[c]], 0.99), 1),
                },
                "samples_p50": pct([float(s) for _, s in rows[c]], 0.5),
                "full_search_share": round(
                    sum(s >= 48 for _, s in rows[c]) / max(1, len(rows[c])), 3
                ),
                "load_average": {
                    "mean": round(statistics.fmean(loads[c]), 2) if loads[c] else None,
                    "max": round(max(loads[c]), 2) if loads[c] else None,
                },
            }
            for c in CONDITIONS
        },
    }
    emit(report, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
