"""What the viewer's own seat's screen offers them, decided in one place (issue #18 §2).

A seated person acts at the table unless the AI stands in for them (``games.play.standins``:
``Seat.stand_in`` says why): then their page shows no turn of theirs — no "Your turn" (so no
"your turn" alert or tab title), no claim buttons (so no "Press K to claim or P to pass" line),
no hints, Play or Pass, no tribute return — but says that the AI is playing for them, and the
seat menu's banner offers "I'm back". The writer refuses those actions anyway ("The AI is
playing for you"); this keeps the page from offering them. Once the match was stopped (its
table abandoned: ``games.play.stopping``) the seat offers nothing at all, and no AI plays it.

``presenters.table_context`` asks here for every render of a seat's table, and both the page
(``games.views``) and every pushed frame (``games.live.frames``, ``push``) are rendered from that
context, so the two cannot disagree.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from games.engine.state import PLAY
from games.engine.views import View
from games.models import Seat


@dataclass(frozen=True, slots=True)
class OwnSeat:
    """The viewer's seat (None: a spectator), why the AI plays it ("" while they do), how
    many claim windows its person answered while they were explained (``claim_help``; None
    when no person plays it from a page: an AI seat, a bot account) and whether the match was
    stopped (nobody plays any more)."""

    seat: int | None
    stand_in: str = ""
    explained: int | None = None
    stopped: bool = False

    @property
    def acting(self) -> int | None:
        """The seat whose choices this page offers: the viewer's own while they play it, None
        for a spectator, while the AI stands in, or once the match was stopped."""
        return self.seat if not self.stand_in and not self.stopped else None

    def my_turn(self, view: View) -> bool:
        """Is it this person's own turn to play (the page's "Your turn")?"""
        return self.acting is not None and view.phase == PLAY and view.turn == self.acting

    def ai_turn(self, view: View) -> bool:
        """Is the AI standing in for this person taking their turn now?"""
        return (
            self.seat is not None
            and bool(self.stand_in)
            and not self.stopped
            and view.phase == PLAY
            and view.turn == self.seat
        )


def own_seat(seats: Iterable[Seat], me: int | None, stopped: bool = False) -> OwnSeat:
    """The viewer's ``OwnSeat`` among the table's ``seats``; ``stopped``: the match was."""
    if me is None:
        return OwnSeat(None, stopped=stopped)
    mine = next((s for s in seats if s.number == me), None)
    if mine is None:
        return OwnSeat(me, stopped=stopped)
    person = mine.user if mine.user_id is not None else None
    if person is None or person.is_bot:
        return OwnSeat(me, mine.stand_in, stopped=stopped)
    return OwnSeat(me, mine.stand_in, person.claim_windows_explained, stopped)
