"""The claim window explained where it happens, the first few times (issue #18 §4).

While a person has answered fewer than ``EXPLAINED_WINDOWS`` claim windows
(``User.claim_windows_explained``, counted by ``games.play.first_windows``), a window they may
answer comes with a short help in the claim bar: what a hook (or an unhook) is, and which of
*their own* cards they would use — the claim the engine offers their seat
(``legal_actions``), or that they hold none. Nothing here reads another seat's cards: the
window's owner and face are public (RULES.md §6), the cards named are the viewer's own claim.
"Got it" ends the help for good (``games.views.claim_help_done``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.cards import face_name
from games.engine.views import View
from games.live.cards import card_text
from games.live.own_seat import OwnSeat
from games.live.speech import gettext as _

#: How many answered windows the help is shown for.
EXPLAINED_WINDOWS = 3


def claim_help(
    view: View,
    own: OwnSeat,
    my_window: Mapping[str, Any] | None,
    claim: Mapping[str, Any] | None,
    names: Mapping[int, str],
) -> dict[str, str] | None:
    """The help for the open window, for a person who may answer it and is still learning:
    ``{"title", "what", "yours"}`` (translated sentences), else None. ``claim``: the seat's own
    claim (``{"mode", "cards"}``) or None; ``names``: seat names."""
    window = view.window
    if (
        window is None
        or not my_window
        or not my_window.get("can_answer")
        or own.explained is None
        or own.explained >= EXPLAINED_WINDOWS
    ):
        return None
    values = {"name": names.get(window.owner, ""), "face": face_name(window.face)}
    cards = " ".join(card_text(c) for c in claim["cards"]) if claim else ""
    if window.mode == "hook":
        return {
            "title": _("What is a hook?"),
            "what": _(
                "%(name)s played a single %(face)s. A player holding two %(face)s may hook it: "
                "play the pair now, out of turn, and it becomes the top play. If several claim, "
                "the one nearest %(name)s clockwise wins."
            )
            % values,
            "yours": (_("You can hook with your %(cards)s.") % {"cards": cards})
            if claim
            else _("You hold no pair of %(face)s: pass, or let the time run out.") % values,
        }
    return {
        "title": _("What is an unhook?"),
        "what": _(
            "%(name)s hooked with a pair of %(face)s. A player holding one more %(face)s may "
            "unhook it: play that single now, out of turn, and it becomes the top play."
        )
        % values,
        "yours": (_("You can unhook with your %(cards)s.") % {"cards": cards})
        if claim
        else _("You hold no %(face)s: pass, or let the time run out.") % values,
    }
