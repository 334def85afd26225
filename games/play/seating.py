"""The one step every seating or status change of a table ends with (DESIGN.md rule 2).

Whoever changes who sits where, who plays a seat (a person, an AI, a stand-in) or the table's
status — opening, sitting, standing up, an organiser's hand-over, a rematch, starting — holds
the table's row lock and calls ``changed``: the table's revision is bumped (pages drop frames
of an older seating) and, after the commit, every page of the table learns the seating (and
gets a full snapshot once a match runs, ``games.live.push.publish_table``) and the lobby
refreshes its public lists and the "my tables" of the people concerned.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import F

from games.live import lobby, notify, push
from games.models import Table


def changed(table: Table, left: int | None = None) -> None:
    """Bump ``table``'s revision (the caller holds its row lock; ``table.revision`` follows)
    and, after commit, tell its pages and the lobby: the public lists, and the "my tables" of
    its host, of the people seated now and of ``left`` (a user id: who just lost a seat)."""
    table_id = table.pk
    Table.objects.filter(pk=table_id).update(revision=F("revision") + 1)
    table.revision += 1  # exact: the row is locked; the writer's seats cache keys on it
    people = [*lobby.people_at(table), left]

    def tell() -> None:
        push.publish_table(table_id)
        notify.lobby_changed(people)

    transaction.on_commit(tell)
