"""Template helpers for league and tournament pages (and the header's notice count)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django import template
from django.template.context import Context
from django.urls import NoReverseMatch

from leagues.notices import unseen_count

if TYPE_CHECKING:
    from games.models import Table
    from leagues.models import Fixture

register = template.Library()


@register.filter
def table_url(table: Table | None) -> str:
    """The page of a games table (``/tables/<id>/``)."""
    if table is None:
        return ""
    try:
        return str(table.get_absolute_url())
    except NoReverseMatch:  # the games pages are not mounted (yet): the path is stable
        return f"/tables/{table.pk}/"


@register.filter
def team_players(fixture: Fixture, team: int | str) -> list[str]:
    """The usernames a fixture seats on engine team ``team`` (0 or 1), in seat order — for
    the ``team`` partial's ``team_players``. Uses the prefetched ``players``."""
    try:
        number = int(team)
    except (TypeError, ValueError):
        return []
    return [p.user.username for p in fixture.players.all() if p.team == number]


@register.simple_tag(takes_context=True)
def unseen_notices(context: Context) -> int:
    """The signed-in viewer's unseen notices (0 without a request or a user)."""
    request = context.get("request")
    return unseen_count(getattr(request, "user", None))
