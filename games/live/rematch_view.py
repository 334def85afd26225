"""The rematch region of a finished table's page (``games.play.rematches`` asks, answers and
settles; this module only reads): the offer, who answered what, the countdown, the new table.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils import timezone

from games import organisers
from games.models import Rematch, Seat, Table

YES, NO = "yes", "no"


def answer_seconds() -> float:
    """How long the people asked have to answer (``GAMES_REMATCH_SECONDS``, default 60)."""
    return settings.GAMES_REMATCH_SECONDS


def _loaded(table: Table) -> tuple[bool, Rematch | None]:
    """Whether ``table`` may have a rematch once its match is over, and its rematch: kept on
    the table object, so one push renders every page from one or two statements."""
    cached = table.__dict__.get("_rematch_loaded")
    if cached is None:
        rematch = (
            Rematch.objects.filter(table_id=table.pk)
            .select_related("new_table", "proposer")
            .first()
        )
        # Not the table's status: the writer's copy of the table is from before the last move.
        eligible = rematch is not None or not organisers.is_scheduled(table.pk)
        cached = table.__dict__["_rematch_loaded"] = (eligible, rematch)
    return cached


def rematch_context(
    table: Table, match_over: bool, me: int | None, seats: list[Seat], names: dict[int, str]
) -> dict[str, Any] | None:
    """The rematch region for the viewer at seat ``me`` (None: a spectator), or None before the
    match is over (as this viewer sees it) or where no rematch is possible.

    ``{"state": "offer"|"asking"|"settled", "can_ask", "asked", "my_answer", "answers":
    [(name, "yes"|"no"|"")…], "proposer", "seconds", "new_url", "new_started", "new_closed", "go",
    "countdown"}``: ``go`` is true for a viewer seated at the new table (the page goes there);
    ``countdown`` (the time left, changing every moment) is a clock: the table context holds it
    apart (``rematch_countdown``), out of the region's delta key (``games.live.regions``)."""
    if not match_over:
        return None
    eligible, rematch = _loaded(table)
    if not eligible:
        return None
    mine = next((s for s in seats if s.number == me), None)
    my_user = mine.user_id if mine is not None else None
    context = {
        "state": "offer",
        "can_ask": my_user is not None,
        "asked": False,
        "my_answer": "",
        "answers": [],
        "proposer": "",
        "seconds": int(answer_seconds()),
        "new_url": "",
        "new_started": False,
        "new_closed": False,
        "go": False,
        "countdown": None,
    }
    if rematch is None:
        return context
    my_key = next((n for n, person in rematch.people.items() if person == my_user), None)
    context.update(
        state="settled" if rematch.settled else "asking",
        can_ask=False,
        asked=my_key is not None,
        my_answer=rematch.answers.get(my_key, "") if my_key else "",
        answers=[
            (names.get(int(n), ""), rematch.answers.get(n, ""))
            for n in sorted(rematch.people, key=int)
        ],
        proposer=rematch.proposer.username,
    )
    if rematch.settled and rematch.new_table is not None:
        new = rematch.new_table
        seated_there = my_key is not None and rematch.answers.get(my_key) == YES
        closed = new.is_closed()  # before it started: no link, no page to go to
        if not closed and (seated_there or new.visibility == Table.Visibility.PUBLIC):
            context["new_url"] = new.get_absolute_url()
        context["new_started"] = new.status != Table.Status.OPEN and not closed
        context["new_closed"] = closed
        context["go"] = seated_there and not closed
    elif not rematch.settled:
        remaining = max(0.0, (rematch.deadline - timezone.now()).total_seconds())
        context["countdown"] = {
            "kind": "rematch",
            "remaining": round(remaining, 2),
            "total": float(answer_seconds()),
            "deadline_ms": int(rematch.deadline.timestamp() * 1000),
        }
    return context
