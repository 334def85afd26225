"""What the league and tournament admins share: running a service on every selected row (one
message per outcome), and the winner column as every page names it. For ``leagues.admin``'s
rooms only."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from django.contrib import admin, messages
from django.db.models import Model, QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from games.live.teams import team_name
from leagues.services import LeagueError
from leagues.tournaments import TournamentError

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

    from leagues.models import Fixture, Pairing


def _each[M: Model](
    modeladmin: admin.ModelAdmin[M],
    request: HttpRequest,
    queryset: QuerySet[M],
    service: Callable[[M], object],
    done: StrOrPromise,
) -> None:
    """Run ``service(obj)`` for every selected row; one message per outcome (``done``, the
    success's, with the count)."""
    ok = 0
    for obj in queryset:
        try:
            service(obj)
        except (TournamentError, LeagueError) as e:
            modeladmin.message_user(request, f"{obj}: {e}", messages.ERROR)
        else:
            ok += 1
    if ok:
        modeladmin.message_user(request, f"{done} ({ok})", messages.SUCCESS)


@admin.display(description=_("winner"))
def _winner_column(obj: Fixture | Pairing) -> str:
    """The winner as every page names it ("Team 1"), not the stored 0/1."""
    return team_name(obj.winner_team) if obj.winner_team is not None else "—"
