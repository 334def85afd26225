"""Stopping a table's match without a result: the one way every stop is made.

Two callers: an organiser's ``stewarding.abandon`` (a forfeit), and a casual table that nobody
is at any more (``unattended``: the last person left for good, or nobody has been there for a
while). Both hold the writer's row locks and end with the one seating-changed step, so every
page gets a snapshot of the stopped table.

May import ``seating`` and the models only: the writer's own modules (``standins``, through
``unattended``) call it, so it imports none of them.
"""

from __future__ import annotations

from games.models import Match, Table
from games.play import seating


def do_stop(table: Table, match: Match | None) -> None:
    """Stop ``table``'s ``match`` (None: a table whose match never started) without a result:
    the table is marked abandoned, the match's deadline is cleared and its timer token moves to
    a value no scheduled wake-up carries (the next version, which no move will make), so pending
    timeouts, AI turns and kept AI answers do nothing (DESIGN.md rule 3). The match keeps its
    record; after commit every page of the table gets its snapshot (``seating.changed``).

    Precondition: the caller holds the table's row lock and the match's (the writer's order:
    the match locked with its table), and has checked the match is not over."""
    if match is not None:
        match.deadline = None
        match.deadline_kind = ""
        match.deadline_token = match.version + 1
        match.save(update_fields=["deadline", "deadline_kind", "deadline_token"])
    table.status = Table.Status.ABANDONED
    table.save(update_fields=["status"])
    seating.changed(table)
