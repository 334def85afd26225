"""What the league pages share: the league a request may see, a service call reported as a
message, the fixture rows a page lists, and table options as the ``_options_summary.html``
partial lists them (the tournament pages use that one too)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django.contrib import messages
from django.db.models import QuerySet
from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404

from leagues import services
from leagues.models import League
from leagues.services import LeagueError

if TYPE_CHECKING:
    # django-stubs' name for settings.AUTH_USER_MODEL (its plugin expands it to the user model):
    # the leagues import nothing from accounts, not even a type.
    from django.contrib.auth.models import _User

    from leagues.models import Fixture


class AuthenticatedHttpRequest(HttpRequest):
    """The request of a ``login_required`` view, whose user is signed in. A type only: Django
    passes a plain HttpRequest, and login_required is what keeps the promise."""

    user: _User


def option_items(options: object) -> list[tuple[str, Any]]:
    """Stored table options as sorted (name, value) pairs for ``_options_summary.html``
    (nothing for a value that is not a set of options)."""
    return sorted(options.items()) if isinstance(options, dict) else []


def visible_league(request: HttpRequest, slug: str) -> League:
    """The league at ``slug``, if the request's user may see it (404 otherwise)."""
    league = get_object_or_404(League, slug=slug)
    if not services.can_see(league, request.user):
        raise Http404
    return league


def run_service(request: HttpRequest, action: Callable[[], object], success: str) -> bool:
    """Call a service; report its outcome as a message."""
    try:
        action()
    except LeagueError as e:
        messages.error(request, str(e))
        return False
    messages.success(request, success)
    return True


def fixture_rows(fixtures: QuerySet[Fixture]) -> list[Fixture]:
    """A page's fixtures with their table, season and players, in one query each."""
    return list(fixtures.select_related("table__host", "season").prefetch_related("players__user"))
