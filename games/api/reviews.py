"""The bot API's read of the expert's round reviews (issue 20): ``GET /matches/{id}/reviews``.

The same rule as the record page (``visibility.readable_reviews``; docs/ACCESS.md): a match
whose table the token's person may not watch is "not found" (404, as the pages); among its
reviews, the person's own seat's once each round is over, and everyone's once the match is
finished for them. A review holds its own seat's hand and moves only (``records.reviews``), so
nothing here can show a card its reader could not see. Bot accounts are not reviewed (docs/AI.md):
a bot reads others' reviews of a finished match, never its own.
"""

from __future__ import annotations

from typing import Any

from accounts.models import User
from games import access
from games.live import visibility
from games.models import Match, RoundReview, Seat


class NotFound(Exception):
    """No such match for this person (or its table is hidden from them)."""


def reviews_json(match_id: int, user: User) -> dict[str, Any]:
    """``{"match", "over", "reviews": [...]}`` for ``user`` (``schemas.ReviewsOut``): ``over``
    whether the match is finished for them (then every person's review is there). Raises
    NotFound for no such match or one they may not watch."""
    match = Match.objects.select_related("table").filter(pk=match_id).first()
    if match is None or not access.can_watch(user, match.table):
        raise NotFound
    # One left for good is no longer theirs (Seat.held_by): read as a spectator.
    seat = Seat.objects.number_held_by(match.table_id, user)
    return {
        "match": match.pk,
        "over": visibility.finished_for(match, seat),
        "reviews": [review_json(r) for r in visibility.readable_reviews(match, user, seat)],
    }


def review_json(review: RoundReview) -> dict[str, Any]:
    """One stored review (``schemas.RoundReviewOut``): its round, seat, player's name, accuracy
    (0–100 or null), sampled deals per decision, counts per mark and decisions as stored."""
    return {
        "round": review.round_no,
        "seat": review.seat,
        "player": review.user.username if review.user is not None else None,
        "accuracy": None if review.accuracy is None else round(review.accuracy, 1),
        "samples": review.samples,
        "counts": review.data.get("counts", {}),
        "decisions": review.data.get("decisions", []),
    }
