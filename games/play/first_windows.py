"""Counting the claim windows a person answered while the table explained them (issue #18 §4).

``games.live.claim_help`` shows the help while ``User.claim_windows_explained`` is below
``EXPLAINED_WINDOWS``; the writer counts an answer here (one UPDATE, for a person's first few
windows only: none once the count is reached), and "Got it" sets the count at once.
"""

from __future__ import annotations

from django.db.models import F

from accounts.models import User
from games.live.claim_help import EXPLAINED_WINDOWS


def note_answer(user: User) -> None:
    """``user`` answered a claim window (a hook, an unhook or a pass). Inside the writer's
    transaction: rolled back with the answer. No statement once the help is done with."""
    if user.claim_windows_explained >= EXPLAINED_WINDOWS:
        return
    User.objects.filter(pk=user.pk, claim_windows_explained__lt=EXPLAINED_WINDOWS).update(
        claim_windows_explained=F("claim_windows_explained") + 1
    )
    user.claim_windows_explained += 1


def dismiss(user: User) -> None:
    """ "Got it": no more claim help for ``user``."""
    User.objects.filter(pk=user.pk).update(claim_windows_explained=EXPLAINED_WINDOWS)
    user.claim_windows_explained = EXPLAINED_WINDOWS
