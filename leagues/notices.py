"""Notices: what a player should see next time they look (a table is ready, a league let them in).

Stored, not pushed: the site header shows how many are unseen (``leagues_tags``) and the notices
page lists them with their links. Texts are rendered in the reader's language from ``kind``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from django.db import transaction

from leagues.models import Notice

if TYPE_CHECKING:
    from django.contrib.auth.models import _User as User  # (the leagues import no accounts)

    from games.access import Viewer


def do_notify(users: Iterable[User], kind: str, **links: Any) -> list[Notice]:
    """One notice per user (``links``: tournament, league, table). Runs in the caller's
    transaction, so a rolled-back action leaves no notice."""
    with transaction.atomic():
        return Notice.objects.bulk_create(Notice(user=u, kind=kind, **links) for u in users)


def unseen_count(user: Viewer) -> int:
    """How many notices ``user`` has not seen (0 for an anonymous viewer or None)."""
    if user is None or not user.is_authenticated:
        return 0
    return Notice.objects.filter(user=user, seen_at__isnull=True).count()
