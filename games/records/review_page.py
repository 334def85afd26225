"""The record page's section of the expert's round reviews (issue 20): what each stored review
says, in the reader's language. Which reviews a reader gets is ``reviews.visible``'s; a round's
decisions one by one and its chart are ``review_detail``'s.

Accuracy of a match: the mean of the player's reviewed rounds' accuracies, each round weighted
by its weighed decisions (the ones not forced), so it is the mean accuracy of every decision of
the match that was worth weighing: a round of 3 weighed decisions counts for less than one of 20.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

from django.db.models import QuerySet
from django.utils.translation import gettext_lazy, pgettext

from games.live.cards import card_text
from games.models import RoundReview

#: The marks, worst last (``games.engine.review.marks``).
MARK_LABELS = {
    "good": gettext_lazy("good"),
    "inaccuracy": gettext_lazy("inaccuracy"),
    "mistake": gettext_lazy("mistake"),
    "blunder": gettext_lazy("blunder"),
}
#: A decision with one sensible move (``marks.FORCED``): listed, never weighed.
FORCED_LABEL = gettext_lazy("forced")
#: The named patterns (``games.engine.review.patterns``), one plain sentence each.
PATTERNS = {
    "missed_hook": gettext_lazy("A hook was there to take, and it scored better."),
    "missed_unhook": gettext_lazy("An unhook was there to take, and it scored better."),
    "bomb_over_partner": gettext_lazy("A bomb spent while the partner held the trick."),
    "broke_combination": gettext_lazy("A pair or a bomb broken up to beat a single."),
    "passed_going_out": gettext_lazy("A pass when a play would have emptied the hand."),
    "passed_ending_round": gettext_lazy("A pass when a play would have ended the round."),
    "lead_hooked": gettext_lazy("This single lead handed the opponents a hook."),
}
#: Marks listed decision by decision (a good move needs no comment).
LISTED = ("inaccuracy", "mistake", "blunder")
#: The kinds of decision made in a claim window (``engine.review.review.kind_of``).
WINDOW_KINDS = ("hook", "unhook", "window_pass")


def played_text(kind: str, action: dict[str, Any]) -> str:
    """A reviewed move, said once under the row's label: a play's cards ("Played: 6♥"), any
    other decision its verb ("Passed", "Hooked with 9♥ 9♣"). The row read "Played: play: 6♥"
    (Indonesian "Main: main: 6♥") with the kind of decision before the move. The expert's move
    is said the same way (``expert_text``). ``kind`` (``engine.review.review.kind_of``) tells a
    window's pass from a turn's; a row stored without it says a pass plainly."""
    kind_of_action = action.get("type")
    cards = list(action.get("cards", [])) + ([action["card"]] if "card" in action else [])
    text = " ".join(card_text(c) for c in cards)
    if kind_of_action == "pass":
        if kind == "window_pass":
            return pgettext("a reviewed move, played or the expert's", "Passed the claim window")
        return pgettext("a reviewed move, played or the expert's", "Passed")
    if kind_of_action == "hook":
        return pgettext("a reviewed move, played or the expert's", "Hooked with %(cards)s") % {
            "cards": text
        }
    if kind_of_action == "unhook":
        return pgettext("a reviewed move, played or the expert's", "Unhooked with %(cards)s") % {
            "cards": text
        }
    if kind_of_action == "return":
        return pgettext("a reviewed move, played or the expert's", "Returned %(card)s") % {
            "card": text
        }
    return text


def expert_text(kind: str, action: dict[str, Any]) -> str:
    """The expert's move for a decision of ``kind`` (the move played's), said as the move
    played is (``played_text``): the expert's pass read "pass" beside the player's "Passed",
    its hook "hook with 9♥ 9♣" beside "Hooked with 9♥ 9♣". A pass in a claim window is that
    window's pass whatever the player did there (hooked, unhooked)."""
    return played_text("window_pass" if kind in WINDOW_KINDS else kind, action)


def weighed(review: RoundReview) -> int:
    """How many of a review's decisions were weighed (not forced): its weight in the match."""
    counts = review.data.get("counts", {}) if isinstance(review.data, dict) else {}
    return weight_of(counts)


def weight_of(counts: Any) -> int:
    """The weighed decisions a stored review's ``counts`` hold (1 when a row has none)."""
    if not isinstance(counts, dict):
        return 1
    return sum(int(counts.get(m, 0)) for m in MARK_LABELS)


def match_accuracy(rounds: Iterable[tuple[float | None, int]]) -> float | None:
    """The accuracy of a match from its rounds' ``(accuracy, weighed decisions)``: their mean
    weighted by the decisions (module docstring); None when no round had one to weigh."""
    total = weight = 0.0
    for accuracy, n in rounds:
        if accuracy is not None and n > 0:
            total += accuracy * n
            weight += n
    return total / weight if weight else None


def accuracies(player_id: int, match_ids: Iterable[int]) -> dict[int, int]:
    """``{match id: whole percent}``: the player's accuracy in each of ``match_ids`` that has a
    weighed review of theirs, in one statement that reads accuracies and counts only. The caller
    passes only matches whose reviews the reader may see (finished for them)."""
    rounds: dict[int, list[tuple[float | None, int]]] = {}
    rows = RoundReview.objects.filter(user_id=player_id, match_id__in=list(match_ids)).order_by()
    for match_id, accuracy, counts in rows.values_list("match_id", "accuracy", "data__counts"):
        rounds.setdefault(match_id, []).append((accuracy, weight_of(counts)))
    found = {m: percent(match_accuracy(r)) for m, r in rounds.items()}
    return {m: a for m, a in found.items() if a is not None}


def percent(value: float | None) -> int | None:
    """An accuracy as a whole percent, or None."""
    return None if value is None else round(value)


class Brief(NamedTuple):
    """What the accuracy table reads of a stored review: never its decisions (``brief``)."""

    round_no: int
    seat: int
    accuracy: float | None
    counts: Any


def brief(reviews: QuerySet[RoundReview]) -> list[Brief]:
    """``reviews``' rounds, seats, accuracies and mark counts, in one statement that leaves
    their decisions (most of each row) in the database."""
    return [
        Brief(*row) for row in reviews.values_list("round_no", "seat", "accuracy", "data__counts")
    ]


def accuracy_table(reviews: list[Brief], names: dict[int, str]) -> dict[str, Any]:
    """Accuracy by round and player, and per player over the match: ``seats`` (the reviewed
    players, in seat order, with their match accuracy), ``rounds`` (one row per round, one cell
    per seat: a whole percent, None with nothing weighed, "" with no review)."""
    seats = sorted({r.seat for r in reviews})
    by_round: dict[int, dict[int, Brief]] = {}
    for review in reviews:
        by_round.setdefault(review.round_no, {})[review.seat] = review
    rows = []
    for round_no, found in sorted(by_round.items()):
        cells = []
        for seat in seats:
            cell = found.get(seat)
            accuracy = None if cell is None else percent(cell.accuracy)
            cells.append({"reviewed": cell is not None, "accuracy": accuracy})
        rows.append({"round": round_no, "cells": cells})
    players = [
        {
            "seat": seat,
            "name": names.get(seat, ""),
            "accuracy": percent(
                match_accuracy((r.accuracy, weight_of(r.counts)) for r in reviews if r.seat == seat)
            ),
            "rounds": sum(1 for r in reviews if r.seat == seat),
        }
        for seat in seats
    ]
    return {"seats": players, "rounds": rows}
