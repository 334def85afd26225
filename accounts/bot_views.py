"""The profile page's bot section: the bot-account mark and personal access tokens.

Plain POST forms (CSRF-protected) that answer with a redirect to the profile. A new token is
kept in the session just until the profile shows it, once (``new_token_of``): only its hash
is stored.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts import bots, tokens
from accounts.models import AccessToken, User
from accounts.requests import SignedInRequest

NEW_TOKEN_SESSION_KEY = "botapi_new_token"


def _profile(request: HttpRequest) -> HttpResponse:
    return redirect("profile", request.user.username)


@login_required
@require_POST
def create_token(request: SignedInRequest) -> HttpResponse:
    """Make a token named by the form's ``name``; the profile shows it once."""
    try:
        row, raw = tokens.create(request.user, request.POST.get("name", ""))
    except tokens.TokenError as e:
        messages.error(request, str(e))
    else:
        request.session[NEW_TOKEN_SESSION_KEY] = {"id": row.pk, "token": raw}
    return _profile(request)


@login_required
@require_POST
def revoke_token(request: SignedInRequest, pk: int) -> HttpResponse:
    """Revoke the user's token ``pk``: refused at once, its open streams end."""
    if tokens.revoke(request.user, pk):
        messages.success(request, _("The token is revoked."))
    else:
        messages.error(request, _("There is no such token."))
    return _profile(request)


@login_required
@require_POST
def set_bot(request: SignedInRequest) -> HttpResponse:
    """Mark the account a bot account (``is_bot`` = "1") or a person's (anything else)."""
    try:
        bots.set_bot(request.user, request.POST.get("is_bot") == "1")
    except bots.BotError as e:
        messages.error(request, str(e))
    return _profile(request)


def new_token_of(request: HttpRequest) -> dict[str, Any] | None:
    """The token made just now, to show once (``{"id", "token"}``), taken out of the session."""
    new: dict[str, Any] | None = request.session.pop(NEW_TOKEN_SESSION_KEY, None)
    return new


def bot_context(request: HttpRequest, owner: User) -> dict[str, Any]:
    """What the profile's bot section shows ``owner``, the signed-in viewer of their own
    profile: the tokens, a new one, the bot mark."""
    return {
        "tokens": list(AccessToken.objects.filter(user=owner)),
        "new_token": new_token_of(request),
        "bot_locked": bots.has_played_rated(owner),
        # The scope a new token has (tokens.create's default), named as the list names it.
        "new_token_scope": AccessToken.SCOPE_NAMES[AccessToken.Scope.PLAY],
    }
