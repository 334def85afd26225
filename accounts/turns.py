""" "Your turn" for a player who is not looking at the table.

The writer already knows which audiences have a socket open (``games.live.audiences.live``): when a
move hands the turn to a person's seat (not an AI, not their stand-in) and no socket of that
seat is registered, it queues ``accounts.tasks.turn_notice``, which checks again (they may have
opened the table meanwhile) and leaves a notice (``accounts.notices.your_turn``). A player at the
table costs the writer nothing more.

Such a notice is true only while the turn is theirs (issue #18 §2): when the turn leaves an absent
person's seat (the clock or their AI stand-in decided for them), or the match ends, the writer
queues ``accounts.tasks.turn_notices_gone``, which deletes the notices that no longer hold.
"""

from __future__ import annotations

import logging

from games.engine.state import MATCH_OVER, PLAY, State
from games.live.audiences import Audience
from games.models import Seat

log = logging.getLogger(__name__)


def arrived(old: State, new: State) -> int | None:
    """The seat whose turn ``new`` starts (RULES.md §5: ``turn`` is the seat to act in the play
    phase), or None when the move did not hand the turn to another seat."""
    if new.phase != PLAY or new.turn is None:
        return None
    if old.phase == PLAY and old.turn == new.turn:
        return None
    return new.turn


def left(old: State, new: State) -> int | None:
    """The seat whose turn ``old`` was and ``new`` no longer is (it played or passed, or the clock
    or a stand-in did for it; or the round or match ended), or None."""
    if old.phase != PLAY or old.turn is None:
        return None
    if new.phase == PLAY and new.turn == old.turn:
        return None
    return old.turn


def notify_if_away(
    match_id: int, seats: list[Seat], old: State, new: State, live: list[Audience]
) -> None:
    """After a move's frames went out: queue a turn notice if the turn reached a person whose
    seat has no socket open. ``seats`` are the table's seats, ``live`` its audiences. Also queue
    the removal of the turn notices that stopped being true: all of the table's once the match
    is over, else the one of an absent person whose turn just went."""
    _clear_if_gone(match_id, seats, old, new, live)
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


def _clear_if_gone(
    match_id: int, seats: list[Seat], old: State, new: State, live: list[Audience]
) -> None:
    """Queue ``turn_notices_gone`` when a notice may have stopped being true. A person whose page
    is open has none left (opening the table removes it: ``notices.seen_at_table``)."""
    if new.phase == MATCH_OVER and old.phase != MATCH_OVER:
        user_id = None  # every seat's
    else:
        seat = left(old, new)
        if seat is None or any(a.seat == seat for a in live):
            return
        row = next((s for s in seats if s.number == seat), None)
        if row is None or row.user_id is None:
            return
        user_id = row.user_id
    from accounts import tasks

    try:
        tasks.turn_notices_gone.delay(match_id, user_id)
    except Exception:  # the broker away: a stale notice is not worth failing a move for
        log.warning("turn notices of match %s not cleared", match_id, exc_info=True)
