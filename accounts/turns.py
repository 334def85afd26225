""" "Your turn" for a player who is not looking at the table.

The writer already knows which audiences have a socket open (``games.live.audiences.live``): when a
move hands the turn to a person's seat (not an AI, not their stand-in) and no socket of that
seat is registered, it queues ``accounts.tasks.turn_notice``, which checks again (they may have
opened the table meanwhile) and leaves a notice (``accounts.notices.your_turn``). A player at the
table costs the writer nothing more.
"""

from __future__ import annotations

import logging

from games.engine.state import State
from games.live.audiences import Audience
from games.models import Seat

log = logging.getLogger(__name__)


def arrived(old: State, new: State) -> int | None:
    """The seat whose turn ``new`` starts (RULES.md §5: ``turn`` is the seat to act in the play
    phase), or None when the move did not hand the turn to another seat."""
    if new.phase != "play" or new.turn is None:
        return None
    if old.phase == "play" and old.turn == new.turn:
        return None
    return new.turn


def notify_if_away(
    match_id: int, seats: list[Seat], old: State, new: State, live: list[Audience]
) -> None:
    """After a move's frames went out: queue a turn notice if the turn reached a person whose
    seat has no socket open. ``seats`` are the table's seats, ``live`` its audiences."""
    seat = arrived(old, new)
    if seat is None or any(a.seat == seat for a in live):
        return
    row = next((s for s in seats if s.number == seat), None)
    if row is None or row.user_id is None or row.ai_policy:
        return
    from accounts import tasks

    try:
        tasks.turn_notice.delay(match_id, seat, new.version)
    except Exception:  # the broker away: a notice is not worth failing a move for
        log.warning("turn notice for match %s not queued", match_id, exc_info=True)
