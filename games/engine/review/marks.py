"""Marks and accuracy of reviewed decisions (issue 20): what a loss in round value means.

A decision's *loss* is the expected round value (``ai.expert.team_value``: a round won is worth
``1 + ½ × levels gained``, a round lost minus what the opponents gain, §8) of the expert's best
move minus that of the move played, both measured on the same sampled deals, never below 0. The
thresholds are in round-value units; docs/AI.md says how they were chosen (bench/review.py).
"""

from __future__ import annotations

import math

GOOD = "good"
INACCURACY = "inaccuracy"
MISTAKE = "mistake"
BLUNDER = "blunder"
#: No choice worth weighing (one legal move, or a move that empties the hand played at once).
FORCED = "forced"
MARKS = (GOOD, INACCURACY, MISTAKE, BLUNDER)

#: The least loss (round value) for each mark but good, worst first. Read against the Expert's
#: own decisions (bench/review.py, docs/AI.md), rounded to 0.05: a blunder is a loss they reach
#: about once in a hundred weighed decisions (their 99th percentile), a mistake or worse about
#: once in ten (their 90th); any clear loss below is an inaccuracy (a loss is clear or 0:
#: ``judge``).
THRESHOLDS: tuple[tuple[str, float], ...] = ((BLUNDER, 0.75), (MISTAKE, 0.35), (INACCURACY, 0.1))
#: A decision's accuracy is ``100 × exp(−loss / ACCURACY_SCALE)``: 100 for no loss, about 82 for
#: an inaccuracy's least loss, 50 for a mistake's, 22 for a blunder's.
ACCURACY_SCALE = 0.5


def mark(loss: float) -> str:
    """The mark of a decision that lost ``loss`` (≥ 0, round value) against the expert's move."""
    for name, least in THRESHOLDS:
        if loss >= least:
            return name
    return GOOD


def decision_accuracy(loss: float) -> float:
    """0–100: how close the move came to the expert's (100 when it lost nothing)."""
    return 100.0 * math.exp(-max(0.0, loss) / ACCURACY_SCALE)


def round_accuracy(losses: list[float]) -> float | None:
    """The mean of ``decision_accuracy`` over a round's searched decisions; None when the seat
    had no decision worth weighing."""
    if not losses:
        return None
    return sum(decision_accuracy(x) for x in losses) / len(losses)
