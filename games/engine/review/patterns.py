"""Named patterns: what a reviewed decision shows in plain words, from the engine's facts only
(issue 20). Every test reads the seat's own view, the move played, the expert's choice and
what the table saw after it (public events); a pattern is named only when the move cost at least
an inaccuracy's loss (``marks.THRESHOLDS``), so a sound move is never blamed.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..actions import Action, Hook, Pass, Play, Unhook
from ..cards import FACE
from ..combos import SINGLE, classify
from ..events import Event, Hooked
from ..views import View
from .marks import THRESHOLDS

#: A missed hook (or unhook) that the expert's search scored better (§6).
MISSED_HOOK = "missed_hook"
MISSED_UNHOOK = "missed_unhook"
#: A bomb played over the partner's winning play (§4, §5).
BOMB_OVER_PARTNER = "bomb_over_partner"
#: A pair, straight or bomb broken up to beat a single (§3).
BROKE_COMBINATION = "broke_combination"
#: A pass when a legal play would have emptied the hand (and, with the partner out, ended the
#: round, §7).
PASSED_GOING_OUT = "passed_going_out"
PASSED_ENDING_ROUND = "passed_ending_round"
#: A single led that an opponent hooked (§6).
LEAD_HOOKED = "lead_hooked"

PATTERNS = (
    MISSED_HOOK,
    MISSED_UNHOOK,
    BOMB_OVER_PARTNER,
    BROKE_COMBINATION,
    PASSED_GOING_OUT,
    PASSED_ENDING_ROUND,
    LEAD_HOOKED,
)

_LEAST = THRESHOLDS[-1][1]


def patterns(
    view: View,
    legal: Sequence[Action],
    played: Action,
    best: Action,
    loss: float,
    later: Sequence[Event],
) -> tuple[str, ...]:
    """The patterns ``played`` shows (``PATTERNS`` names, in that order). ``later`` are the public
    events from the move up to the seat's next decision (what the table saw it cause)."""
    seat = view.seat
    assert seat is not None  # a seat's view
    found: list[str] = []
    if loss < _LEAST:
        return ()
    if isinstance(played, Pass) and view.window is not None:
        if isinstance(best, Hook):
            found.append(MISSED_HOOK)
        elif isinstance(best, Unhook):
            found.append(MISSED_UNHOOK)
    if isinstance(played, Play):
        combo = classify(played.cards, view.level, view.options)
        top = view.top
        partner_on_top = top is not None and top.seat != seat and top.seat % 2 == seat % 2
        if combo is not None and combo.is_bomb and partner_on_top:
            found.append(BOMB_OVER_PARTNER)
        if top is not None and top.combo.category == SINGLE and len(played.cards) == 1:
            face = FACE[played.cards[0]]
            if sum(FACE[c] == face for c in view.hand) >= 2:
                found.append(BROKE_COMBINATION)
    if isinstance(played, Pass) and view.window is None:
        out = [a for a in legal if isinstance(a, Play) and len(a.cards) == len(view.hand)]
        if out:
            mates = [s for s in range(seat % 2, view.players, 2) if s != seat]
            ends = all(view.hand_sizes[s] == 0 for s in mates)
            found.append(PASSED_ENDING_ROUND if ends else PASSED_GOING_OUT)
    if isinstance(played, Play) and view.top is None and len(played.cards) == 1:
        if any(isinstance(e, Hooked) and e.owner == seat and e.seat % 2 != seat % 2 for e in later):
            found.append(LEAD_HOOKED)
    return tuple(found)
