"""Table chat actions: mute, unmute, report a line.

They are POST forms (CSRF-protected). From the table page they come by htmx, which gets a flash
out of band (and, for a mute, an ``HX-Trigger`` event table.js uses to hide the muted player's
lines); a plain form gets a redirect with a message. ``answer`` and ``back`` serve the friends
pages' actions too (``accounts.friends_views``).
"""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.sessions.backends.base import SessionBase
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.models import User
from accounts.requests import Request, SignedInRequest
from config.redirects import safe_next
from games import access
from games.chat import mutes
from games.models import ChatLine, ChatReport, Seat


def answer(request: Request, message: str, back: str, error: bool = False) -> HttpResponse:
    """htmx: the message as an out-of-band flash; else a redirect to ``back`` with it."""
    if request.htmx:
        return HttpResponse(
            render_to_string(
                "games/partials/flash.html", {"message": message, "oob": True}, request=request
            )
        )
    (messages.error if error else messages.success)(request, message)
    return redirect(back)


def back(request: HttpRequest, fallback: str) -> str:
    """The form's ``next`` if it is a path on this site, else ``fallback``
    (``config.redirects.safe_next``: not ``/\\evil.example``, which browsers follow off site)."""
    return safe_next(request, fallback)


@login_required
@require_POST
def mute(request: SignedInRequest, user_id: int) -> HttpResponse:
    other = get_object_or_404(User, pk=user_id)
    if other.pk == request.user.pk:
        return answer(request, _("You cannot mute yourself."), "/", error=True)
    mutes.mute(request.user, other)
    response = answer(
        request,
        _("%(name)s is muted: you will not see their chat.") % {"name": other.username},
        back(request, "/social/friends/"),
    )
    response["HX-Trigger"] = json.dumps({"chat-muted": {"user": other.pk}})
    return response


@login_required
@require_POST
def unmute(request: SignedInRequest, user_id: int) -> HttpResponse:
    other = get_object_or_404(User, pk=user_id)
    mutes.unmute(request.user, other)
    return answer(
        request,
        _("%(name)s is no longer muted.") % {"name": other.username},
        back(request, "/social/friends/"),
    )


def _may_read(user: User, line: ChatLine, session: SessionBase) -> bool:
    """Whether ``user`` may see ``line``: the players' lines their seated players, the
    spectators' lines those who may watch the table and do not sit at it."""
    seated = Seat.objects.filter(table_id=line.table_id, user=user).exists()
    if line.room == ChatLine.Room.PLAYERS:
        return seated
    return not seated and access.can_watch(user, line.table, session)


@login_required
@require_POST
def report(request: SignedInRequest, line_id: int) -> HttpResponse:
    line = get_object_or_404(ChatLine.objects.select_related("table"), pk=line_id)
    if not _may_read(request.user, line, request.session):
        raise Http404
    if line.author_id == request.user.pk:
        return answer(
            request, _("You cannot report yourself."), line.table.get_absolute_url(), error=True
        )
    ChatReport.objects.get_or_create(line=line, reporter=request.user)
    return answer(
        request,
        _("Thank you: the staff will read this line."),
        line.table.get_absolute_url(),
    )
