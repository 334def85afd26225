"""The expert's reviews of people's rounds (issue 20): made by the review worker once per
finished round and per seat a person played (``make``), caught up by a sweep (``sweep``), and
read back for the record page with the privacy the issue asks (``visible``).

A review is ``games.engine.review.review_round`` on the round's record (the state it was dealt
in and its logged actions, ``round_record``): every decision judged from that seat's own
``View``, so what is stored holds that seat's hand and moves, never another seat's cards.
Who sees it: the seat's own player once the round is over; anyone else only once the match is
finished (``visibility.finished_for``: its hands are public by then) and on a page they may
open, or through the bot API (``games.api.reviews``): one rule, ``visibility.readable_reviews``.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, QuerySet
from django.utils import timezone

from games.engine.actions import Action, NextRound
from games.engine.codec import action_from_json, action_to_json
from games.engine.review import DEFAULT_BUDGET, DEFAULT_SAMPLES, RoundRecord, RoundReview
from games.engine.review import review_round as engine_review
from games.live import replay, visibility
from games.models import Match, Move, Round, Seat
from games.models import RoundReview as Stored

log = logging.getLogger(__name__)

#: The constraint that keeps a seat's round to one review (``RoundReview.Meta``).
UNIQUE = "unique_round_review"
#: Rounds a sweep reviews at most per run (each some seconds of CPU: the next run goes on).
SWEEP_BATCH = 20
#: How far back the sweep looks for rounds without their reviews.
SWEEP_WINDOW = timedelta(days=1)


#: What a seat decides (``engine.review.record.DECIDED``, as the move log writes them: plays
#: and passes §5, hooks and unhooks §6, tribute returns §9): a resignation, the clock's
#: timeouts (§10) and the next round's deal are nobody's decision to review.
DECIDED_TYPES = ("play", "pass", "hook", "unhook", "return")


def round_record(match: Match, round_no: int) -> RoundRecord:
    """Round ``round_no`` of ``match`` as the engine replays it: the state it was dealt in (the
    deal for round 1, else the state after the ``NextRound`` that dealt it) and its actions up
    to its end. Raises ValueError for a round the match has no move of."""
    return _round(match, round_no)[0]


def _round(match: Match, round_no: int) -> tuple[RoundRecord, dict[int, set[int]]]:
    """``round_record`` and, per seat, the indexes of its actions an AI chose (``Move.by_ai``:
    a stand-in playing a person's seat)."""
    moves = list(
        Move.objects.filter(match=match, round_no=round_no)
        .order_by("seq")
        .values_list("seq", "action", "seat", "by_ai")
    )
    if not moves:
        raise ValueError(f"match {match.pk} has no move in round {round_no}")
    start = replay.state_at(match, moves[0][0] - 1)
    actions: list[Action] = []
    by_ai: dict[int, set[int]] = {}
    for _, data, seat, ai in moves:
        action = action_from_json(data)
        if isinstance(action, NextRound):
            continue
        if ai and seat is not None:
            by_ai.setdefault(seat, set()).add(len(actions))
        actions.append(action)
    return RoundRecord(start, tuple(actions)), by_ai


def _people() -> QuerySet[Seat]:
    """Seats people play: no AI seat (no user), no bot account (``User.is_bot``: bots are not
    reviewed, docs/AI.md)."""
    return Seat.objects.filter(user__isnull=False, user__is_bot=False)


def _own_decisions(match: Any, round_no: Any, seat: Any) -> QuerySet[Move]:
    """The moves a seat's person decided in a round: not the clock's, not a stand-in's
    (``Move.by_ai``), not a resignation. Arguments may be ``OuterRef``s."""
    return Move.objects.filter(
        match=match, round_no=round_no, seat=seat, by_ai=False, action__type__in=DECIDED_TYPES
    )


def people_seats(match: Match, round_no: int | None = None) -> dict[int, int]:
    """``{seat: user id}`` of the seats people play (no AI seat, no bot account); with
    ``round_no``, only those whose person made at least one decision of their own in that round
    (a round the stand-in played wholly, or the clock, has nothing of theirs to review)."""
    seats = _people().filter(table=match.table_id)
    if round_no is not None:
        seats = seats.filter(Exists(_own_decisions(match.pk, round_no, OuterRef("number"))))
    return dict(seats.values_list("number", "user_id"))


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
                "noise": None if d.noise is None else round(d.noise, 4),
            }
            for d in review.decisions
        ],
    }


def make(match_id: int, round_no: int, samples: int | None = None) -> int:
    """Review every person's seat of a finished round that has no review yet and where the
    person made a decision of their own (``people_seats``; the stand-in's moves are left out
    of the review and of its accuracy), on ``samples`` deals per decision (None:
    ``settings.GAMES_REVIEW_SAMPLES``, or the engine's default); how many were stored. Never a
    second review of a seat's round (the unique constraint, ``_store``: a review made meanwhile
    by another worker wins). A round not over yet is left alone (0)."""
    match = Match.objects.select_related("table").get(pk=match_id)
    if not Round.objects.filter(match=match, number=round_no, ended_at__isnull=False).exists():
        return 0
    done = set(Stored.objects.filter(match=match, round_no=round_no).values_list("seat", flat=True))
    todo = {s: u for s, u in people_seats(match, round_no).items() if s not in done}
    if not todo:
        return 0
    record, by_ai = _round(match, round_no)
    samples = samples or settings.GAMES_REVIEW_SAMPLES or DEFAULT_SAMPLES
    made = []
    for seat, user_id in sorted(todo.items()):
        review = engine_review(
            record,
            seat,
            samples=samples,
            budget=DEFAULT_BUDGET,
            seed=match.seed + round_no,
            others=by_ai.get(seat, ()),
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
    return sum(_store(review) for review in made)


def _store(review: Stored) -> bool:
    """Store ``review`` unless its seat's round has one already (another worker made it while
    this one reviewed): whether it was stored. Its own savepoint, so a lost race costs only
    this row. Not ``bulk_create(ignore_conflicts=True)``: that hands back every row given,
    stored or not, and the count ``make`` returns must be true."""
    try:
        with transaction.atomic():
            review.save(force_insert=True)
    except IntegrityError as error:
        if getattr(getattr(error.__cause__, "diag", None), "constraint_name", "") != UNIQUE:
            raise
        log.info("match %s round %s seat %s: reviewed already", *_key(review))
        return False
    return True


def _key(review: Stored) -> tuple[int, int, int]:
    return review.match_id, review.round_no, review.seat


def missing(window: timedelta = SWEEP_WINDOW) -> list[tuple[int, int]]:
    """``(match id, round)`` of the rounds ended within ``window`` where a person's seat that
    made a decision of its own (as ``make`` reviews) has no review, oldest first, at most
    ``SWEEP_BATCH``."""
    return list(missing_query(window))


def missing_query(window: timedelta = SWEEP_WINDOW) -> QuerySet[Round, tuple[int, int]]:
    """``missing``'s query. Its scan of the rounds reads the partial index ``round_ended_at``
    (``Round.Meta``: rounds with an end, by end time), in order, so each run reads the rounds of
    its window and stops at ``SWEEP_BATCH`` found (tests/games/records/test_review_sweep.py
    shows the plan)."""
    own = _own_decisions(
        OuterRef(OuterRef("match")), OuterRef(OuterRef("number")), OuterRef("number")
    )
    reviewed = Stored.objects.filter(
        match=OuterRef(OuterRef("match")),
        round_no=OuterRef(OuterRef("number")),
        seat=OuterRef("number"),
    )
    people = (
        _people()
        .filter(table=OuterRef("match__table"))
        .filter(Exists(own))
        .exclude(Exists(reviewed))
    )
    return (
        Round.objects.filter(ended_at__isnull=False, ended_at__gte=timezone.now() - window)
        .filter(Exists(people))
        .order_by("ended_at")
        .values_list("match_id", "number")[:SWEEP_BATCH]
    )


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
    match is finished for them (``visibility.readable_reviews``, which the bot API reads too).
    The caller checked that ``user`` may open the record."""
    return visibility.readable_reviews(match, user, seat, round_no)


def visible_query(match: Match, user: Any, seat: int | None) -> QuerySet[Stored]:
    """``visible``'s reviews of every round as a query not yet run (for the record page, which
    reads all rounds' accuracies but one round's decisions)."""
    return visibility.readable_reviews_query(match, user, seat)
