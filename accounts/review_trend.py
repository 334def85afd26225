"""A player's accuracy trend on the profile (issue 20): their accuracy in each of their latest
reviewed matches, as the expert's round reviews measured it (``games.records.review_page``:
each match's rounds weighted by their weighed decisions).

Counted only where the profile's match list would show the match to the viewer and its reviews
are open to them: a finished match (``accounts.records.seen_finished_q``, which already takes a
delayed table's spectators and private tables into account). Numbers only: no card is read.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any, TypedDict

from django.utils.translation import gettext as _

from accounts.models import User
from accounts.records import seen_finished_q

if TYPE_CHECKING:
    from django.contrib.sessions.backends.base import SessionBase

    from games.access import Viewer

#: How many of the latest reviewed matches the trend shows.
TREND_LENGTH = 20


class TrendPoint(TypedDict):
    """One match of the trend, oldest first."""

    n: int
    id: str
    match_id: int
    table: str
    finished_at: datetime | None
    accuracy: int
    rounds: int


def accuracy_trend(
    player: User, viewer: Viewer = None, session: SessionBase | None = None
) -> list[TrendPoint]:
    """``player``'s accuracy in their latest ``TREND_LENGTH`` finished matches with a weighed
    review that ``viewer`` (with ``session``'s invites) may see, oldest first."""
    from games.models import RoundReview, automatic_name
    from games.records.review_page import match_accuracy, weight_of

    seen = RoundReview.objects.filter(user=player, accuracy__isnull=False).filter(
        seen_finished_q(viewer, session, prefix="match__table__")
    )
    # DISTINCT over (match, its finish time): one row per match, newest first.
    wanted = list(
        seen.order_by("-match__finished_at", "-match_id")
        .values_list("match_id", flat=True)
        .distinct()[:TREND_LENGTH]
    )
    rows = seen.filter(match_id__in=wanted).values_list(
        "match_id",
        "accuracy",
        "data__counts",
        "match__table__name",
        "match__table__auto_name",
        "match__table__host__username",
        "match__finished_at",
    )
    by_match: dict[int, dict[str, Any]] = {}
    for match_id, accuracy, counts, name, auto_name, host, finished_at in rows:
        # Table.display_name, from the columns read: an automatic name in the reader's language.
        shown = automatic_name(auto_name, host) if auto_name else name
        entry = by_match.setdefault(
            match_id, {"table": shown, "finished_at": finished_at, "rounds": []}
        )
        entry["rounds"].append((accuracy, weight_of(counts)))
    trend: list[TrendPoint] = []
    for match_id in reversed(wanted):
        entry = by_match[match_id]
        accuracy = match_accuracy(entry["rounds"])
        if accuracy is None:
            continue
        trend.append(
            {
                "n": len(trend) + 1,
                "id": f"trend-{match_id}",
                "match_id": match_id,
                "table": entry["table"],
                "finished_at": entry["finished_at"],
                "accuracy": round(accuracy),
                "rounds": len(entry["rounds"]),
            }
        )
    return trend


def trend_chart(trend: list[TrendPoint]) -> dict[str, Any]:
    """The trend as ``static/js/review_chart.js`` draws it: one point per match, 0–100, the
    x axis from half a match before the first to half a match after the last."""
    return {
        "x": [p["n"] for p in trend],
        "lines": [{"label": _("Accuracy"), "values": [p["accuracy"] for p in trend]}],
        "marks": ["" for _p in trend],
        "targets": [p["id"] for p in trend],
        "x_label": _("Match"),
        "y_label": _("Accuracy (%)"),
        "y_range": [0, 100],
        # Half a match either side: uPlot's own range around a single point runs 0–2, with
        # ticks at matches that do not exist.
        "x_range": [0.5, len(trend) + 0.5],
    }
