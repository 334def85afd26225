"""The record page's section of the expert's round reviews (issue 20): what each stored review
says, in the reader's language. Which reviews a reader gets is ``reviews.visible``'s."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.live.cards import card_text
from games.models import RoundReview

#: The marks, worst last (``games.engine.review.marks``).
MARK_LABELS = {
    "good": gettext_lazy("good"),
    "inaccuracy": gettext_lazy("inaccuracy"),
    "mistake": gettext_lazy("mistake"),
    "blunder": gettext_lazy("blunder"),
}
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


def move_text(action: dict[str, Any]) -> str:
    """A logged move (``engine.codec`` JSON) as a line of text: its cards, or "pass"."""
    if action.get("type") == "pass":
        return _("pass")
    cards = list(action.get("cards", [])) + ([action["card"]] if "card" in action else [])
    return " ".join(card_text(c) for c in cards)


def rows(reviews: list[RoundReview], names: dict[int, str]) -> list[dict[str, Any]]:
    """One row per review, in the stored order: round, player, accuracy (a whole percent, or
    None), the count of each mark, and the decisions marked worse than good with the expert's
    move and the patterns they show."""
    found = []
    for review in reviews:
        counts = review.data.get("counts", {})
        listed = [
            {
                "n": n,
                "mark": d["mark"],
                "mark_label": MARK_LABELS[d["mark"]],
                "played": move_text(d["played"]),
                "best": move_text(d["best"]),
                "loss": f"{d['loss']:.2f}",
                "patterns": [PATTERNS[p] for p in d["patterns"] if p in PATTERNS],
            }
            for n, d in enumerate(review.data.get("decisions", []), start=1)
            if d["mark"] in LISTED
        ]
        found.append(
            {
                "round": review.round_no,
                "seat": review.seat,
                "name": names.get(review.seat, ""),
                "accuracy": None if review.accuracy is None else round(review.accuracy),
                "counts": [(MARK_LABELS[m], counts.get(m, 0)) for m in MARK_LABELS],
                "decisions": listed,
            }
        )
    return found
