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
    queue(due(match_id, seats, old, new, live))


#: A task ``queue`` sends: its name in ``accounts.tasks`` and its arguments.
type Due = tuple[str, tuple[int | None, ...]]


def due(
    match_id: int, seats: list[Seat], old: State, new: State, live: list[Audience]
) -> list[Due]:
    """What ``notify_if_away`` queues for the move from ``old`` to ``new``, without queuing it:
    ``turn_notices_gone`` first, then ``turn_notice`` (usually nothing: every seat's page open)."""
    tasks = _gone(match_id, seats, old, new, live)
    seat = arrived(old, new)
    if seat is None or any(a.seat == seat for a in live):
        return tasks
    row = next((s for s in seats if s.number == seat), None)
    if row is None or row.user_id is None or row.ai_policy:
        return tasks
    return [*tasks, ("turn_notice", (match_id, seat, new.version))]


def queue(tasks: list[Due]) -> None:
    """Send each task of ``due`` to the broker; a broker away is logged (a notice is not worth
    failing a move for)."""
    if not tasks:
        return
    from accounts import tasks as task_module

    for name, args in tasks:
        try:
            getattr(task_module, name).delay(*args)
        except Exception:
            log.warning("%s for match %s not queued", name, args[0], exc_info=True)


def _gone(
    match_id: int, seats: list[Seat], old: State, new: State, live: list[Audience]
) -> list[Due]:
    """``turn_notices_gone`` when a notice may have stopped being true. A person whose page is
    open has none left (opening the table removes it: ``notices.seen_at_table``)."""
    if new.phase == MATCH_OVER and old.phase != MATCH_OVER:
        return [("turn_notices_gone", (match_id, None))]  # every seat's
    seat = left(old, new)
    if seat is None or any(a.seat == seat for a in live):
        return []
    row = next((s for s in seats if s.number == seat), None)
    if row is None or row.user_id is None:
        return []
    return [("turn_notices_gone", (match_id, row.user_id))]
