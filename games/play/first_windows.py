"""Counting the claim windows a person answered while the table explained them (issue #18 §4).

``games.live.claim_help`` shows the help while ``User.claim_windows_explained`` is below
``EXPLAINED_WINDOWS``; the writer counts an answer here (one UPDATE, for a person's first few
windows only: none once the count is reached), and "Got it" sets the count at once.

The writer's UPDATE is fixed SQL, as ``games.play.writes``: it runs on every answer of a new
player, inside the move's transaction, and the ORM compiled it again each time (issue 19).
"""

from __future__ import annotations

from django.db import connection

from accounts.models import User
from games.live.claim_help import EXPLAINED_WINDOWS

_quote = connection.ops.quote_name
_COUNT = _quote(str(User._meta.get_field("claim_windows_explained").column))
_NOTE_ANSWER = (
    f"UPDATE {_quote(User._meta.db_table)} SET {_COUNT} = {_COUNT} + 1 "
    f"WHERE {_quote(str(User._meta.get_field('id').column))} = %s AND {_COUNT} < %s"
)


def note_answer(user: User) -> None:
    """``user`` answered a claim window (a hook, an unhook or a pass). Inside the writer's
    transaction: rolled back with the answer. No statement once the help is done with."""
    if user.claim_windows_explained >= EXPLAINED_WINDOWS:
        return
    with connection.cursor() as cursor:  # the writer's own connection: its transaction
        cursor.execute(_NOTE_ANSWER, [user.pk, EXPLAINED_WINDOWS])
    user.claim_windows_explained += 1


def dismiss(user: User) -> None:
    """ "Got it": no more claim help for ``user``."""
    User.objects.filter(pk=user.pk).update(claim_windows_explained=EXPLAINED_WINDOWS)
    user.claim_windows_explained = EXPLAINED_WINDOWS
