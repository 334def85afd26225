"""The expert's review of a seat's play in a round (issue 20): pure, standard library only.

Owns:

- ``record``: ``RoundRecord`` (the state a round was dealt in and its actions) and its replay;
- ``judge``: one decision weighed from the seat's ``View`` on sampled deals, as the expert weighs
  its own moves (``ai.expert``, ``ai.sampling``, ``ai.rollout``);
- ``marks``: the loss thresholds of good / inaccuracy / mistake / blunder, and accuracy;
- ``patterns``: named patterns (missed hook, bomb over the partner, ...);
- ``review``: ``review_round(record, seat, ...) -> RoundReview``.

May import: the standard library, ``games.engine`` and its ``ai`` package. Imports go one way:
``review`` -> ``judge``, ``patterns``, ``record`` -> ``marks``; no module imports this
``__init__``, which only re-exports.
"""

from .marks import BLUNDER, FORCED, GOOD, INACCURACY, MARKS, MISTAKE, THRESHOLDS
from .patterns import PATTERNS
from .record import RecordError, RoundRecord
from .review import DEFAULT_BUDGET, DEFAULT_SAMPLES, Reviewed, RoundReview, review_round

__all__ = [
    "BLUNDER",
    "DEFAULT_BUDGET",
    "DEFAULT_SAMPLES",
    "FORCED",
    "GOOD",
    "INACCURACY",
    "MARKS",
    "MISTAKE",
    "PATTERNS",
    "THRESHOLDS",
    "RecordError",
    "Reviewed",
    "RoundRecord",
    "RoundReview",
    "review_round",
]
