"""A reviewed round decision by decision, and its advantage chart (issue 20): for the record page
(``section``) and the replay (``at_step``, ``marked_steps``).

Everything here reads one stored ``RoundReview``: the reviewed seat's own hand and moves and the
expert's moves from that hand (``reviews.to_json``), never another seat's cards. Which reviews a
reader gets is ``reviews.visible``'s; the chart's JSON holds numbers, marks and row ids only.

A decision's move in the log: the state a decision was made in has version ``version``, and
``Move.seq`` equals the version the move produced, so the decision is move ``version + 1``.
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from games.live.cards import card_text
from games.models import RoundReview
from games.records.review_page import (
    FORCED_LABEL,
    LISTED,
    MARK_LABELS,
    PATTERNS,
    expert_text,
    percent,
    played_text,
)


def step_of(decision: dict[str, Any]) -> int:
    """The replay step (``Move.seq``) of a stored decision: the move it made."""
    return int(decision["version"]) + 1


def row_id(review: RoundReview, n: int) -> str:
    """The page id of decision ``n`` (from 1) of ``review``: the chart's points jump to it."""
    return f"review-{review.round_no}-{review.seat}-{n}"


def _value(value: Any) -> float | None:
    return None if value is None else round(float(value), 3)


def decision_row(
    review: RoundReview, n: int, d: dict[str, Any], replay_url: str | None
) -> dict[str, Any]:
    """Decision ``n`` of ``review`` as the page shows it: the seat's hand then, what was played,
    the expert's move, both values, the loss, the mark and the pattern sentences, and its move
    in the replay (``replay_url`` None: the match has no replay yet)."""
    mark = d.get("mark", "")
    step = step_of(d)
    played_value, best_value = _value(d.get("played_value")), _value(d.get("best_value"))
    loss = float(d.get("loss", 0.0))
    same = d["played"] == d["best"]
    # The judge counts a gap inside the samples' noise as no loss (``Judgement.loss``), so a
    # different expert's move with no loss is one the move played is as good as, whichever of
    # the two means came out higher: the row says so rather than show the expert's move as the
    # better one (a walk's player read 0.81 against 0.83 played as a broken review).
    even = not same and loss <= 0 and played_value is not None and best_value is not None
    return {
        "n": n,
        "id": row_id(review, n),
        "step": step,
        "replay": None if replay_url is None else f"{replay_url}?step={step}&seat={review.seat}",
        "hand": " ".join(card_text(c) for c in d.get("hand", [])),
        "played": played_text(d.get("kind", ""), d["played"]),
        "best": expert_text(d.get("kind", ""), d["best"]),
        "same": same,
        "even": even,
        "even_note": even_note(played_value, best_value, d.get("noise")) if even else "",
        "played_value": played_value,
        "best_value": best_value,
        # A number, as both values: the template formats it in the reader's language.
        "loss": loss,
        "mark": mark,
        "mark_label": MARK_LABELS.get(mark, FORCED_LABEL),
        "listed": mark in LISTED,
        "patterns": [PATTERNS[p] for p in d.get("patterns", []) if p in PATTERNS],
    }


def even_note(played: float | None, best: float | None, noise: Any) -> str:
    """The row's note when the move played is as good as the expert's different move: valued
    no lower (the expert keeps its own move unless another's gain is clear), or the gap
    between their values is inside the samples' ``noise`` (the stored margin; rows reviewed
    before it was stored have none, nor has a margin of 0, and the note then goes without)."""
    if played is not None and best is not None and played >= best:
        return _("The move played is as good: valued no lower than the expert's move.")
    if not noise:
        return _("The move played is as good: the gap is within the samples' noise.")
    return _("The move played is as good: the gap is within the samples' noise (±%(noise)s).") % {
        "noise": number_format(float(noise), 2)  # as the values beside it: 0,31 in es
    }


def chart_data(review: RoundReview, decisions: list[dict[str, Any]]) -> dict[str, Any]:
    """The round's advantage chart for ``static/js/review_chart.js``: one point per decision,
    the team's expected round value with the move played and with the expert's (None for a
    forced decision: nothing was weighed), each point's mark and the row it jumps to."""
    return {
        "x": [d["n"] for d in decisions],
        "lines": [
            {"label": _("With the move played"), "values": [d["played_value"] for d in decisions]},
            {
                "label": _("With the expert's move"),
                "values": [d["best_value"] for d in decisions],
                "dash": True,
            },
        ],
        "marks": [d["mark"] if d["listed"] else "" for d in decisions],
        "targets": [d["id"] for d in decisions],
        "keys_label": _(
            "Advantage chart: the arrow keys move from decision to decision in the table below."
        ),
        "x_label": _("Decision"),
        "y_label": _("Expected round value"),
    }


def replay_url_for(review: RoundReview, finished: bool) -> str | None:
    """The match's replay page, or None while it has none (a match not finished)."""
    return reverse("games:match_replay", args=[review.match_id]) if finished else None


def section(review: RoundReview, name: str, finished: bool) -> dict[str, Any]:
    """One reviewed seat's round for the record page: round, seat, player, accuracy, counts per
    mark, every decision (``decision_row``) and the chart's data and element ids."""
    url = replay_url_for(review, finished)
    found = review.data.get("decisions", []) if isinstance(review.data, dict) else []
    decisions = [decision_row(review, n, d, url) for n, d in enumerate(found, start=1)]
    counts = review.data.get("counts", {}) if isinstance(review.data, dict) else {}
    return {
        "round": review.round_no,
        "seat": review.seat,
        "name": name,
        "accuracy": percent(review.accuracy),
        "counts": [(m, MARK_LABELS[m], counts.get(m, 0)) for m in MARK_LABELS],
        "decisions": decisions,
        "chart": chart_data(review, decisions),
        "chart_id": f"review-chart-{review.round_no}-{review.seat}",
        "chart_data_id": f"review-chart-{review.round_no}-{review.seat}-data",
        "charted": any(d["played_value"] is not None for d in decisions),
    }


def at_step(reviews: list[RoundReview], step: int, names: dict[int, str]) -> dict[str, Any] | None:
    """The reviewed decision that made move ``step`` (among ``reviews``, which the reader may
    see), as ``decision_row`` with the player's name and round; None when no review has it."""
    for review in reviews:
        for n, d in enumerate(review.data.get("decisions", []), start=1):
            if step_of(d) == step:
                row = decision_row(review, n, d, None)
                row.update(name=names.get(review.seat, ""), round=review.round_no)
                return row
    return None


def marked_steps(reviews: list[RoundReview], names: dict[int, str]) -> list[dict[str, Any]]:
    """Every decision of ``reviews`` marked worse than good, in the order of the moves: its
    step, player, mark and label, for the replay's links to those moves."""
    found = [
        {
            "step": step_of(d),
            "name": names.get(review.seat, ""),
            "seat": review.seat,
            "mark": d["mark"],
            "mark_label": MARK_LABELS[d["mark"]],
        }
        for review in reviews
        for d in review.data.get("decisions", [])
        if d.get("mark") in LISTED
    ]
    return sorted(found, key=lambda x: x["step"])
