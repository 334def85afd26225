"""Friends pages and actions: the friends page, follow/unfollow, invite to a table.

The actions are POST forms (CSRF-protected) answered like the chat's (``games.chat.views``):
a flash out of band for htmx, else a redirect with a message.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts import friends
from accounts.models import User
from accounts.requests import SignedInRequest
from games import access
from games.chat.views import answer, back
from games.models import ChatMute, Seat, Table


@login_required
@require_GET
def friends_page(request: SignedInRequest) -> HttpResponse:
    muted = User.objects.filter(
        pk__in=ChatMute.objects.filter(user=request.user).values("muted_id")
    ).order_by("username")
    return render(
        request,
        "accounts/friends.html",
        {
            "friends": friends.followed_with_presence(request.user, request.session),
            "muted": muted,
            # The tables the player may invite to: hosted or seated at, not over.
            "my_tables": Table.objects.select_related("host")
            .filter(
                Q(host=request.user)
                | Q(pk__in=Seat.objects.filter(user=request.user).values("table_id")),
                status__in=(Table.Status.OPEN, Table.Status.PLAYING),
            )
            .order_by("-pk")[:10],
        },
    )


@login_required
@require_POST
def follow(request: SignedInRequest, username: str) -> HttpResponse:
    other = get_object_or_404(User, username=username, is_active=True)
    friends.follow(request.user, other)
    return answer(
        request,
        _("You follow %(name)s.") % {"name": other.username},
        back(request, f"/accounts/{other.username}/"),
    )


@login_required
@require_POST
def unfollow(request: SignedInRequest, username: str) -> HttpResponse:
    other = get_object_or_404(User, username=username)
    friends.unfollow(request.user, other)
    return answer(
        request,
        _("You no longer follow %(name)s.") % {"name": other.username},
        back(request, f"/accounts/{other.username}/"),
    )


@login_required
@require_POST
def invite(request: SignedInRequest, table_id: int) -> HttpResponse:
    table = get_object_or_404(Table, pk=table_id)
    if not access.can_watch(request.user, table, request.session):
        raise Http404
    try:
        invitee = friends.invite(request.user, table, request.POST.get("username", ""))
    except friends.InviteError as e:
        # Beside the form's field, as the site's forms show errors: swapped in for htmx, kept
        # for the table page a plain form goes back to.
        if request.htmx:
            return HttpResponse(_invite_error(request, str(e)))
        friends.remember_refusal(request.session, table.pk, str(e))
        return redirect(table)
    response = answer(
        request,
        _("Invitation sent to %(name)s.") % {"name": invitee.username},
        table.get_absolute_url(),
    )
    if request.htmx:  # the flash says it; an error shown before goes
        response.content += _invite_error(request, "").encode()
    return response


def _invite_error(request: SignedInRequest, message: str) -> str:
    """The table page's invite error (``message``; "" clears it), out of band."""
    return render_to_string(
        "accounts/partials/invite_error.html", {"invite_error": message, "oob": True}, request
    )


@login_required
@require_POST
def invite_any(request: SignedInRequest) -> HttpResponse:
    """The friends page's invitation: the table comes with the form (``table``)."""
    table_id = request.POST.get("table", "")
    # ASCII digits, fewer than a bigint's 19: str.isdigit alone takes "²" and 5000 digits,
    # which int() refuses (a server error).
    if not (table_id.isascii() and table_id.isdigit()) or len(table_id) > 18:
        return answer(request, _("Choose a table."), "/social/friends/", error=True)
    table = get_object_or_404(Table, pk=int(table_id))
    if not access.can_watch(request.user, table, request.session):
        raise Http404
    try:
        invitee = friends.invite(request.user, table, request.POST.get("username", ""))
    except friends.InviteError as e:
        return answer(request, str(e), "/social/friends/", error=True)
    return answer(
        request, _("Invitation sent to %(name)s.") % {"name": invitee.username}, "/social/friends/"
    )
