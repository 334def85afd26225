"""Social pages and actions: friends, follow/unfollow, invite to a table, mute, report.

The actions are POST forms (CSRF-protected). From the table page they come by htmx, which gets
a flash out of band (and, for a mute, an ``HX-Trigger`` event table.js uses to hide the muted
player's lines); a plain form gets a redirect with a message.
"""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts.models import User
from games import access
from games.models import Seat, Table
from social import friends, mutes
from social.models import ChatLine, ChatMute, ChatReport


def _answer(request: HttpRequest, message: str, back: str, error: bool = False) -> HttpResponse:
    """htmx: the message as an out-of-band flash; else a redirect to ``back`` with it."""
    if request.htmx:
        return HttpResponse(
            render_to_string(
                "games/partials/flash.html", {"message": message, "oob": True}, request=request
            )
        )
    (messages.error if error else messages.success)(request, message)
    return redirect(back)


def _back(request: HttpRequest, fallback: str) -> str:
    target = request.POST.get("next", "")
    return target if target.startswith("/") and not target.startswith("//") else fallback


@login_required
@require_GET
def friends_page(request: HttpRequest) -> HttpResponse:
    muted = User.objects.filter(
        pk__in=ChatMute.objects.filter(user=request.user).values("muted_id")
    ).order_by("username")
    return render(
        request,
        "social/friends.html",
        {
            "friends": friends.followed_with_presence(request.user, request.session),
            "muted": muted,
            # The tables the player may invite to: hosted or seated at, not over.
            "my_tables": Table.objects.filter(
                Q(host=request.user)
                | Q(pk__in=Seat.objects.filter(user=request.user).values("table_id")),
                status__in=(Table.Status.OPEN, Table.Status.PLAYING),
            ).order_by("-pk")[:10],
        },
    )


@login_required
@require_POST
def follow(request: HttpRequest, username: str) -> HttpResponse:
    other = get_object_or_404(User, username=username, is_active=True)
    friends.follow(request.user, other)
    return _answer(
        request,
        _("You follow %(name)s.") % {"name": other.username},
        _back(request, f"/accounts/{other.username}/"),
    )


@login_required
@require_POST
def unfollow(request: HttpRequest, username: str) -> HttpResponse:
    other = get_object_or_404(User, username=username)
    friends.unfollow(request.user, other)
    return _answer(
        request,
        _("You no longer follow %(name)s.") % {"name": other.username},
        _back(request, f"/accounts/{other.username}/"),
    )


@login_required
@require_POST
def invite(request: HttpRequest, table_id: int) -> HttpResponse:
    table = get_object_or_404(Table, pk=table_id)
    if not access.can_watch(request.user, table, request.session):
        raise Http404
    try:
        invitee = friends.invite(request.user, table, request.POST.get("username", ""))
    except friends.InviteError as e:
        return _answer(request, str(e), table.get_absolute_url(), error=True)
    return _answer(
        request,
        _("Invitation sent to %(name)s.") % {"name": invitee.username},
        table.get_absolute_url(),
    )


@login_required
@require_POST
def invite_any(request: HttpRequest) -> HttpResponse:
    """The friends page's invitation: the table comes with the form (``table``)."""
    table_id = request.POST.get("table", "")
    if not table_id.isdigit():
        return _answer(request, _("Choose a table."), "/social/friends/", error=True)
    table = get_object_or_404(Table, pk=int(table_id))
    if not access.can_watch(request.user, table, request.session):
        raise Http404
    try:
        invitee = friends.invite(request.user, table, request.POST.get("username", ""))
    except friends.InviteError as e:
        return _answer(request, str(e), "/social/friends/", error=True)
    return _answer(
        request, _("Invitation sent to %(name)s.") % {"name": invitee.username}, "/social/friends/"
    )


@login_required
@require_POST
def mute(request: HttpRequest, user_id: int) -> HttpResponse:
    other = get_object_or_404(User, pk=user_id)
    if other.pk == request.user.pk:
        return _answer(request, _("You cannot mute yourself."), "/", error=True)
    mutes.mute(request.user, other)
    response = _answer(
        request,
        _("%(name)s is muted: you will not see their chat.") % {"name": other.username},
        _back(request, "/social/friends/"),
    )
    response["HX-Trigger"] = json.dumps({"chat-muted": {"user": other.pk}})
    return response


@login_required
@require_POST
def unmute(request: HttpRequest, user_id: int) -> HttpResponse:
    other = get_object_or_404(User, pk=user_id)
    mutes.unmute(request.user, other)
    return _answer(
        request,
        _("%(name)s is no longer muted.") % {"name": other.username},
        _back(request, "/social/friends/"),
    )


def _may_read(user, line: ChatLine, session) -> bool:
    """Whether ``user`` may see ``line``: the players' lines their seated players, the
    spectators' lines those who may watch the table and do not sit at it."""
    seated = Seat.objects.filter(table_id=line.table_id, user=user).exists()
    if line.room == ChatLine.Room.PLAYERS:
        return seated
    return not seated and access.can_watch(user, line.table, session)


@login_required
@require_POST
def report(request: HttpRequest, line_id: int) -> HttpResponse:
    line = get_object_or_404(ChatLine.objects.select_related("table"), pk=line_id)
    if not _may_read(request.user, line, request.session):
        raise Http404
    if line.author_id == request.user.pk:
        return _answer(
            request, _("You cannot report yourself."), line.table.get_absolute_url(), error=True
        )
    ChatReport.objects.get_or_create(line=line, reporter=request.user)
    return _answer(
        request,
        _("Thank you: the staff will read this line."),
        line.table.get_absolute_url(),
    )
