"""Notices: what a player should see next time they look (a table is ready, a league let them in).

Stored, not pushed: the site header shows how many are unseen (``leagues_tags``) and the notices
page lists them with their links. Texts are rendered in the reader's language from ``kind``.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction

from leagues.models import Notice


def do_notify(users: Iterable, kind: str, **links) -> list[Notice]:
    """One notice per user (``links``: tournament, league, table). Runs in the caller's
    transaction, so a rolled-back action leaves no notice."""
    with transaction.atomic():
        return Notice.objects.bulk_create(Notice(user=u, kind=kind, **links) for u in users)


def unseen_count(user) -> int:
    if user is None or not user.is_authenticated:
        return 0
    return Notice.objects.filter(user=user, seen_at__isnull=True).count()
