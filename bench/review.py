"""Review benchmark (issue 20): does the expert's review tell good play from bad, and what does
a review cost?

    nice -n 5 .venv/bin/python bench/review.py --rounds 200 --out var/review.json   # the issue's
    nice -n 5 .venv/bin/python bench/review.py --rounds 20                          # a quick look

Duplicate deals: every seeded deal (4 players, 2 decks, default options, round 1) is played once
for each level (``--levels``, default expert, heuristic, random: Expert, Casual, Beginner) on
team 0 (seats 0 and 2) against Casual on team 1, the same seed driving the order of window
answers; then seat 0's round is reviewed (``games.engine.review.review_round``, ``--samples``
deals per decision, ``--budget`` CPU seconds per decision or ``none``: reproducible). For each
level it prints

- ``accuracy``: the mean round accuracy with a 95% interval (normal, over rounds), and for each
  pair of levels the mean difference deal by deal with its 95% interval (``gaps``);
- ``marks``: decisions weighed and the share of each mark (Wilson 95% intervals), ``forced``;
- ``loss_percentiles``: the losses of the weighed decisions at p50, p90, p95, p99 (what the
  thresholds in ``review.marks`` are read against: docs/AI.md);
- ``patterns``: how often each named pattern was found;
- ``cpu``: this process's CPU seconds per reviewed round (p50, p99, max, mean) and per weighed
  decision (p50, p99, max).

Work is split over ``--workers`` processes; ``wall_seconds`` and ``load_average`` (before,
after) say on how busy a machine. With ``--out FILE`` the report is rewritten every
``--progress`` finished deals, so a long run stopped early still leaves figures, and every
finished deal's per-level figures (each weighed decision's loss) go to ``FILE`` with the suffix
``.raw.json``: marks under other thresholds can be counted from them without a new run.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time
from collections import Counter
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.run_header import emit, header, wilson  # noqa: E402
from games.engine.ai import DEFAULT_SAMPLES as EXPERT_SAMPLES  # noqa: E402
from games.engine.ai import ExpertPolicy, HeuristicPolicy, policy  # noqa: E402
from games.engine.deal import new_match  # noqa: E402
from games.engine.options import Options  # noqa: E402
from games.engine.review import (  # noqa: E402
    DEFAULT_BUDGET,
    DEFAULT_SAMPLES,
    FORCED,
    MARKS,
    review_round,
)
from games.engine.review.record import play_round  # noqa: E402

OPTIONS = Options(players=4)
LEVELS = ("expert", "heuristic", "random")
LABELS = {"expert": "Expert", "heuristic": "Casual", "random": "Beginner"}


def make(name: str):
    if name == "expert":
        return ExpertPolicy(samples=EXPERT_SAMPLES, time_budget=None)
    return policy(name)


def review_deal(task: tuple) -> dict:
    """One deal played and reviewed once per level; per level the review's figures."""
    seed, levels, samples, budget = task
    out = {"seed": seed, "levels": {}}
    for level in levels:
        mine = make(level)
        policies = [mine, HeuristicPolicy(), mine, HeuristicPolicy()]
        record = play_round(new_match(OPTIONS, seed), policies, random.Random(f"review:{seed}"))
        start = time.process_time()
        review = review_round(record, 0, samples=samples, budget=budget, seed=seed)
        cpu = time.process_time() - start
        weighed = [d for d in review.decisions if d.mark != FORCED]
        out["levels"][level] = {
            "accuracy": review.accuracy,
            "losses": [round(d.loss, 4) for d in weighed],
            "marks": dict(review.counts),
            "patterns": dict(Counter(p for d in review.decisions for p in d.patterns)),
            "cpu": cpu,
            "decisions": len(review.decisions),
            "weighed": len(weighed),
        }
    return out


def mean_95(values: list[float]) -> dict:
    """The mean and its 95% normal interval (1.96 standard errors)."""
    n = len(values)
    if n < 2:
        return {"n": n, "mean": values[0] if values else None, "95": None}
    mean = sum(values) / n
    se = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n)
    return {
        "n": n,
        "mean": round(mean, 2),
        "95": [round(mean - 1.96 * se, 2), round(mean + 1.96 * se, 2)],
    }


def pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def summarise(level: str, rows: list[dict]) -> dict:
    accuracy = [r["accuracy"] for r in rows if r["accuracy"] is not None]
    losses = [x for r in rows for x in r["losses"]]
    marks: Counter[str] = Counter()
    patterns: Counter[str] = Counter()
    for r in rows:
        marks.update(r["marks"])
        patterns.update(r["patterns"])
    weighed = sum(marks[m] for m in MARKS)
    cpu = [r["cpu"] for r in rows]
    per_decision = [r["cpu"] / r["weighed"] for r in rows if r["weighed"]]
    return {
        "level": LABELS.get(level, level),
        "rounds": len(rows),
        "accuracy": mean_95(accuracy),
        "weighed": weighed,
        "forced": marks[FORCED],
        "marks": {
            m: {
                "count": marks[m],
                "share": round(marks[m] / max(1, weighed), 4),
                "95": wilson(marks[m], weighed),
            }
            for m in MARKS
        },
        "mean_loss": round(sum(losses) / max(1, len(losses)), 4),
        "loss_percentiles": {
            f"p{int(q * 100)}": round(pct(losses, q), 3) for q in (0.5, 0.9, 0.95, 0.99)
        },
        "patterns": dict(sorted(patterns.items())),
        "cpu": {
            "round_s": {
                "p50": round(pct(cpu, 0.5), 3),
                "p99": round(pct(cpu, 0.99), 3),
                "max": round(max(cpu, default=0), 3),
                "mean": round(sum(cpu) / max(1, len(cpu)), 3),
            },
            "weighed_decision_ms (round cpu / weighed)": {
                "p50": round(1000 * pct(per_decision, 0.5), 1),
                "p99": round(1000 * pct(per_decision, 0.99), 1),
            },
        },
    }


def _report(args, argv, results, load_before, start) -> dict:
    done = [r for r in results if r is not None]
    levels = args.levels.split(",")
    gaps = {}
    for i, a in enumerate(levels):
        for b in levels[i + 1 :]:
            diffs = [
                r["levels"][a]["accuracy"] - r["levels"][b]["accuracy"]
                for r in done
                if r["levels"][a]["accuracy"] is not None and r["levels"][b]["accuracy"] is not None
            ]
            gaps[f"{LABELS.get(a, a)} - {LABELS.get(b, b)}"] = mean_95(diffs)
    return {
        **header("bench/review.py", argv, args.workers, load_before, start),
        "samples": args.samples,
        "budget": args.budget,
        "seed": args.seed,
        "deals": len(results),
        "finished": len(done),
        "levels": [summarise(lv, [r["levels"][lv] for r in done]) for lv in levels],
        "gaps": gaps,
    }


def _indexed(item: tuple[int, tuple]) -> tuple[int, dict]:
    return item[0], review_deal(item[1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="bench/review.py",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--rounds", type=int, default=200, help="deals (rounds per level)")
    parser.add_argument("--levels", default=",".join(LEVELS), help="comma-separated policies")
    parser.add_argument(
        "--samples", type=int, default=DEFAULT_SAMPLES, help="review's deals per decision"
    )
    parser.add_argument(
        "--budget",
        default="none",
        help=f"CPU seconds per decision, or none (the product's: {DEFAULT_BUDGET})",
    )
    parser.add_argument("--seed", type=int, default=1000, help="first deal seed")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--out", help="also write the JSON report to this file")
    parser.add_argument("--progress", type=int, default=10)
    args = parser.parse_args(argv)
    budget = None if args.budget == "none" else float(args.budget)
    levels = tuple(args.levels.split(","))
    tasks = [(args.seed + i, levels, args.samples, budget) for i in range(args.rounds)]
    load_before = os.getloadavg()
    start = time.perf_counter()
    results: list = [None] * len(tasks)
    done = 0
    with Pool(args.workers) as pool:
        for index, result in pool.imap_unordered(_indexed, enumerate(tasks), chunksize=1):
            results[index] = result
            done += 1
            if args.out and args.progress and done % args.progress == 0 and done < len(tasks):
                report = _report(args, argv, results, load_before, start)
                Path(args.out).write_text(json.dumps(report, indent=1) + "\n")
                raw = [r for r in results if r is not None]
                Path(args.out).with_suffix(".raw.json").write_text(json.dumps(raw) + "\n")
    report = _report(args, argv, results, load_before, start)
    emit(report, args.out)
    if args.out:
        raw = [r for r in results if r is not None]
        Path(args.out).with_suffix(".raw.json").write_text(json.dumps(raw) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
