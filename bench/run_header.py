"""The head every CPU bench report starts with (``bench/ai.py``, ``bench/review.py``): the
command, the Python, the machine's cores, the worker processes, the load average before and
after and the wall time, so a figure is always read beside how busy the machine was; and the
95% Wilson interval both benches put on their shares; ``emit`` writes a finished report."""

from __future__ import annotations

import json
import math
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any


def header(
    script: str, argv: list[str] | None, workers: int, load_before: tuple[float, ...], start: float
) -> dict:
    """``command`` (``script`` and its arguments: ``argv``, or the process's), ``python``,
    ``cpus``, ``workers``, ``load_average`` (1-minute, at ``load_before`` and now) and
    ``wall_seconds`` since ``start`` (``time.perf_counter``)."""
    return {
        "command": " ".join([script, *(argv if argv is not None else sys.argv[1:])]),
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "workers": workers,
        "load_average": [round(load_before[0], 2), round(os.getloadavg()[0], 2)],
        "wall_seconds": round(time.perf_counter() - start, 1),
    }


def wilson(k: int, n: int, z: float = 1.96) -> list[float]:
    """The 95% Wilson score interval of k successes in n trials."""
    if n == 0:
        return [0.0, 1.0]
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return [round(centre - half, 4), round(centre + half, 4)]


def emit(report: dict[str, Any], out: str | None) -> None:
    """Print ``report`` as indented JSON, and write it to the file ``out`` too when given."""
    text = json.dumps(report, indent=1)
    if out:
        Path(out).write_text(text + "\n")
    print(text)
