"""Summaries of load steps: merge the clients' results, then a markdown table, JSON and a plot."""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path

P99_LIMIT_MS = 100.0


def percentile(values: list[float], q: float) -> float | None:
    """Nearest-rank percentile (q in 0..100) of ``values``, or None when empty."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


def spread(values: list[float]) -> dict:
    return {
        "n": len(values),
        "p50": _r(percentile(values, 50)),
        "p95": _r(percentile(values, 95)),
        "p99": _r(percentile(values, 99)),
        "max": _r(max(values) if values else None),
    }


def merge(results: list[dict]) -> dict:
    """One step's client results (one per client process) as one."""
    merged = {
        "latency": {},
        "own": {},
        "reach": {},
        "frame_bytes": {},
        "counts": Counter(),
        "refused": Counter(),
        "closes": Counter(),
        "connect_failures": Counter(),
        "errors": Counter(),
        "loop_lag_ms": [],
        "protocols": Counter(),
        "client_cpu_seconds": [],
        "client_wall_seconds": [],
        "connect_seconds": [],
        "sockets": 0,
    }
    for result in results:
        for key in ("latency", "own", "reach", "frame_bytes"):
            for kind, values in result.get(key, {}).items():
                merged[key].setdefault(kind, []).extend(values)
        for key in ("counts", "refused", "closes", "connect_failures", "errors", "protocols"):
            merged[key].update(result[key])
        merged["loop_lag_ms"].extend(result["loop_lag_ms"])
        merged["client_cpu_seconds"].append(round(result["cpu_seconds"], 2))
        merged["client_wall_seconds"].append(round(result["wall_seconds"], 2))
        merged["connect_seconds"].append(result.get("connect_seconds"))
        merged["sockets"] += result["sockets"]
    return merged


def summarise(step: dict, merged: dict) -> dict:
    """The figures of one step (``step`` holds its setup and the server-side readings)."""
    last = [v for values in merged["latency"].values() for v in values]
    own = [v for values in merged["own"].values() for v in values]
    counts = merged["counts"]
    lost = sum(v for k, v in counts.items() if k.startswith("lost"))
    server_closes = sum(merged["closes"].values())
    errors = (
        sum(merged["connect_failures"].values())
        + server_closes
        + lost
        + sum(merged["errors"].values())
    )
    actions = len(last)
    duration = step["duration"]
    frames = {
        kind: {
            "count": len(sizes),
            "mean": round(sum(sizes) / len(sizes)),
            "p95": percentile(sizes, 95),
            "max": max(sizes),
        }
        for kind, sizes in sorted(merged["frame_bytes"].items())
        if sizes
    }
    seat_sizes = [
        s
        for kind, sizes in merged["frame_bytes"].items()
        if kind.startswith("seat") and kind.split()[1] in ("full", "delta")
        for s in sizes
    ]
    summary = {
        **step,
        "sockets": merged["sockets"],
        "actions": actions,
        "actions_per_second": round(actions / duration, 1) if duration else 0,
        "target_actions_per_second": round(step["tables"] * step["rate"], 1),
        "latency_ms": spread(last),
        "own_socket_latency_ms": spread(own),
        "latency_by_kind_ms": {k: spread(v) for k, v in sorted(merged["latency"].items())},
        # send -> the last seat's socket, and -> the last spectator's (issue 19's two goals)
        "reach_ms": {k: spread(v) for k, v in sorted(merged["reach"].items())},
        "errors": errors,
        "lost": lost,
        "closes": dict(merged["closes"]),
        "connect_failures": dict(merged["connect_failures"]),
        "client_errors": dict(merged["errors"]),
        "refused": dict(merged["refused"]),
        "counts": dict(counts),
        "protocols": dict(merged["protocols"]),
        "frames": frames,
        "mean_seat_frame_bytes": round(sum(seat_sizes) / len(seat_sizes)) if seat_sizes else None,
        "updates": {
            "lost": lost,
            "gaps": counts.get("gaps (delta on another version)", 0),
            "duplicates": counts.get("duplicate or old delta (dropped)", 0)
            + counts.get("repeated full (same version)", 0),
            "out_of_order": counts.get("out-of-order full (dropped)", 0),
            "skipped_but_covered_by_full": counts.get("versions skipped, covered by a full", 0),
            "resync_requests": counts.get("resync requests", 0),
        },
        "client": {
            "cpu_seconds": merged["client_cpu_seconds"],
            "wall_seconds": merged["client_wall_seconds"],
            "connect_seconds": merged["connect_seconds"],
            "loop_lag_ms": spread(merged["loop_lag_ms"]),
        },
    }
    # A client process near a full core, or whose loop lags, adds its own delay to the figures.
    wall = max(merged["client_wall_seconds"] or [0]) or 1
    lag = summary["client"]["loop_lag_ms"]["p99"] or 0
    summary["client_saturated"] = max(merged["client_cpu_seconds"] or [0]) / wall > 0.7
    # A client loop that lags with CPU to spare waits for a core: the machine is oversubscribed.
    summary["client_starved"] = lag > 20 and not summary["client_saturated"]
    sql = step.get("sql")
    if sql and actions:
        summary["sql_per_action"] = {k: round(v / actions, 1) for k, v in sql.items()}
    pg = step.get("pg")
    if pg and actions:
        summary["pg_per_action"] = {
            k: round(pg[k] / actions, 2)
            for k in (
                "xact_commit",
                "sessions",
                "tup_fetched",
                "tup_inserted",
                "tup_updated",
                "statement_calls",
            )
            if k in pg
        }
    p99 = summary["latency_ms"]["p99"]
    summary["held"] = bool(actions) and errors == 0 and p99 is not None and p99 < P99_LIMIT_MS
    return summary


def capacity(steps: list[dict], mode: str, processes: int, proxy: str) -> int:
    """The most tables held (p99 < 100 ms, no errors) by ``mode`` in the table steps."""
    held = [
        s["tables"]
        for s in steps
        if s["scenario"] == "tables"
        and s["mode"] == mode
        and s["processes"] == processes
        and s["proxy"] == proxy
        and s["held"]
    ]
    return max(held, default=0)


def markdown(steps: list[dict]) -> str:
    head = (
        "| scenario | mode | proc | proxy | tables | sockets | actions/s (target) | p50 ms "
        "| p95 ms | p99 ms | max ms | errors | lost | gaps/dup/ooo | closes | SQL/action "
        "| PG sessions/action "
        "| seat frame B (mean) | client CPU % | machine CPU % (before) | load avg | held |"
    )
    rows = [head, "|" + "---|" * (head.count("|") - 1)]
    for s in steps:
        lat = s["latency_ms"]
        sql = s.get("sql_per_action", {})
        wall = max(s["client"]["wall_seconds"] or [1]) or 1
        client_cpu = round(100 * sum(s["client"]["cpu_seconds"]) / wall)
        rows.append(
            "| "
            + " | ".join(
                str(x)
                for x in [
                    s["scenario"] + (f" +{s['spectators']} spect." if s.get("spectators") else ""),
                    s["mode"],
                    s["processes"],
                    s["proxy"],
                    s["tables"],
                    s["sockets"],
                    f"{s['actions_per_second']} ({s['target_actions_per_second']})",
                    _f(lat["p50"]),
                    _f(lat["p95"]),
                    _f(lat["p99"]),
                    _f(lat["max"]),
                    s["errors"],
                    s["lost"],
                    "{gaps}/{duplicates}/{out_of_order}".format(**s["updates"]),
                    _closes(s["closes"]),
                    sql.get("statements", "–"),
                    s.get("pg_per_action", {}).get("sessions", "–"),
                    s.get("mean_seat_frame_bytes") or "–",
                    f"{client_cpu}{' (saturated)' if s['client_saturated'] else ''}"
                    f"{' (starved)' if s.get('client_starved') else ''}",
                    f"{s.get('processes_cost', {}).get('machine', {}).get('cpu_percent', '–')} "
                    f"({s.get('background_cpu_percent', '–')})",
                    s["loadavg"],
                    "yes" if s["held"] else "no",
                ]
            )
            + " |"
        )
    return "\n".join(rows)


def plot(steps: list[dict], path: Path) -> None:
    """p99 against tables, one line per (mode, processes, proxy) of the table steps."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    lines: dict[tuple, list] = {}
    for s in steps:
        if s["scenario"] == "tables" and s["latency_ms"]["p99"] is not None:
            lines.setdefault((s["mode"], s["processes"], s["proxy"]), []).append(
                (s["tables"], s["latency_ms"]["p99"], s["held"])
            )
    fig, ax = plt.subplots(figsize=(8, 5))
    colours = {}
    for (mode, processes, proxy), points in sorted(lines.items()):
        points.sort()
        label = f"{'app' if mode == 'app' else 'bare Channels'}, {processes} Daphne" + (
            ", nginx" if proxy == "nginx" else ""
        )
        colour = colours.setdefault((processes, proxy), f"C{len(colours)}")
        ax.plot(
            [p[0] for p in points],
            [p[1] for p in points],
            marker="o",
            color=colour,
            linestyle="-" if mode == "app" else "--",
            label=label,
        )
        for tables, p99, held in points:
            if not held:
                ax.plot([tables], [p99], marker="x", color="red", markersize=10)
    ax.axhline(P99_LIMIT_MS, color="grey", linewidth=0.8, linestyle=":")
    ax.set_yscale("log")
    ax.set_xlabel("concurrent 4-seat tables (one action per second per table)")
    ax.set_ylabel("p99 send → last socket (ms, log)")
    ax.set_title("414 Club: p99 against tables (x: not held)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def _closes(closes: dict) -> str:
    return ", ".join(f"{code}×{n}" for code, n in sorted(closes.items())) or "–"


def _f(value) -> str:
    return "–" if value is None else f"{value:.1f}"


def _r(value):
    return None if value is None else round(value, 2)
