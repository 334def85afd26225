"""The expert's reviews of people's rounds (issue 20): made by the review worker once per
finished round and per seat a person played (``make``), caught up by a sweep (``sweep``), and
read back for the record page with the privacy the issue asks (``visible``).

A review is ``games.engine.review.review_round`` on the round's record (the state it was dealt
in and its logged actions, ``round_record``): every decision judged from that seat's own
``View``, so what is stored holds that seat's hand and moves, never another seat's cards.
Who sees it: the seat's own player once the round is over; anyone else only once the match is
finished (``history.is_finished``: its hands are public by then) and on a page they may open.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db.models import Exists, OuterRef
from django.utils import timezone

from games.engine.actions import NextRound
from games.engine.codec import action_from_json, action_to_json
from games.engine.review import DEFAULT_BUDGET, DEFAULT_SAMPLES, RoundRecord, RoundReview
from games.engine.review import review_round as engine_review
from games.live import replay
from games.models import Match, Move, Round, Seat
from games.models import RoundReview as Stored
from games.records import history

log = logging.getLogger(__name__)

#: Rounds a sweep reviews at most per run (each some seconds of CPU: the next run goes on).
SWEEP_BATCH = 20
#: How far back the sweep looks for rounds without their reviews.
SWEEP_WINDOW = timedelta(days=1)


def round_record(match: Match, round_no: int) -> RoundRecord:
    """Round ``round_no`` of ``match`` as the engine replays it: the state it was dealt in (the
    deal for round 1, else the state after the ``NextRound`` that dealt it) and its actions up
    to its end. Raises ValueError for a round the match has no move of."""
    moves = list(
        Move.objects.filter(match=match, round_no=round_no)
        .order_by("seq")
        .values_list("seq", "action")
    )
    if not moves:
        raise ValueError(f"match {match.pk} has no move in round {round_no}")
    start = replay.state_at(match, moves[0][0] - 1)
    actions = [action_from_json(a) for _, a in moves]
    return RoundRecord(start, tuple(a for a in actions if not isinstance(a, NextRound)))


def people_seats(match: Match) -> dict[int, int]:
    """``{seat: user id}`` of the seats people play (no AI seat, no bot account)."""
    return dict(
        Seat.objects.filter(
            table=match.table_id, user__isnull=False, user__is_bot=False
        ).values_list("number", "user_id")
    )


def to_json(review: RoundReview) -> dict[str, Any]:
    """What is stored of a review (``RoundReview.data``)."""
    return {
        "counts": review.counts,
        "decisions": [
            {
                "index": d.index,
                "version": d.version,
                "kind": d.kind,
                "hand": list(d.hand),
                "played": action_to_json(d.played),
                "best": action_to_json(d.best),
                "played_value": d.played_value,
                "best_value": d.best_value,
                "loss": round(d.loss, 4),
                "mark": d.mark,
                "patterns": list(d.patterns),
                "options": d.options,
                "samples": d.samples,
            }
            for d in review.decisions
        ],
    }


def make(match_id: int, round_no: int, samples: int | None = None) -> int:
    """Review every person's seat of a finished round that has no review yet, on ``samples``
    deals per decision (None: ``settings.GAMES_REVIEW_SAMPLES``, or the engine's default); how
    many were stored. Never a second review of a seat's round (the unique constraint; a review made
    meanwhile by another worker wins). A round not over yet is left alone (0)."""
    match = Match.objects.select_related("table").get(pk=match_id)
    if not Round.objects.filter(match=match, number=round_no, ended_at__isnull=False).exists():
        return 0
    done = set(Stored.objects.filter(match=match, round_no=round_no).values_list("seat", flat=True))
    todo = {s: u for s, u in people_seats(match).items() if s not in done}
    if not todo:
        return 0
    record = round_record(match, round_no)
    samples = samples or settings.GAMES_REVIEW_SAMPLES or DEFAULT_SAMPLES
    made = []
    for seat, user_id in sorted(todo.items()):
        review = engine_review(
            record, seat, samples=samples, budget=DEFAULT_BUDGET, seed=match.seed + round_no
        )
        made.append(
            Stored(
                match=match,
                round_no=round_no,
                seat=seat,
                user_id=user_id,
                accuracy=review.accuracy,
                data=to_json(review),
                samples=samples,
                cpu_seconds=review.seconds,
            )
        )
    return len(Stored.objects.bulk_create(made, ignore_conflicts=True))


def missing(window: timedelta = SWEEP_WINDOW) -> list[tuple[int, int]]:
    """``(match id, round)`` of the rounds ended within ``window`` where a person's seat has no
    review, oldest first, at most ``SWEEP_BATCH``."""
    people = Seat.objects.filter(
        table=OuterRef("match__table"), user__isnull=False, user__is_bot=False
    ).exclude(
        Exists(
            Stored.objects.filter(
                match=OuterRef(OuterRef("match")),
                round_no=OuterRef(OuterRef("number")),
                seat=OuterRef("number"),
            )
        )
    )
    rows = (
        Round.objects.filter(ended_at__gte=timezone.now() - window)
        .filter(Exists(people))
        .order_by("ended_at")
        .values_list("match_id", "number")[:SWEEP_BATCH]
    )
    return list(rows)


def sweep(window: timedelta = SWEEP_WINDOW) -> int:
    """Make the reviews a lost task or a worker restart left unmade; how many were stored."""
    made = 0
    for match_id, round_no in missing(window):
        try:
            made += make(match_id, round_no)
        except Exception:
            log.exception("match %s round %s: its review failed", match_id, round_no)
    return made


def visible(match: Match, user: Any, seat: int | None, round_no: int | None = None) -> list[Stored]:
    """The reviews of ``match`` (of round ``round_no`` only, when given) that ``user`` (at
    ``seat``, or None) may read on its record page: their own seat's, and everyone's once the
    match is finished for them (``history.is_finished``). The caller checked that ``user`` may
    open the record."""
    reviews = Stored.objects.filter(match=match).order_by("round_no", "seat")
    if round_no is not None:
        reviews = reviews.filter(round_no=round_no)
    if history.is_finished(match, seat):
        return list(reviews)
    if seat is None or not getattr(user, "is_authenticated", False):
        return []
    return list(reviews.filter(seat=seat, user=user))
