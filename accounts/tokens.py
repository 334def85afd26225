"""Making, checking and revoking personal access tokens (docs/BOT_API.md, "Tokens").

A token is ``c414_`` followed by 43 random URL-safe characters (256 bits). Only its SHA-256 is
stored (``AccessToken.digest``); the token is returned once by ``create`` and never again. A
revoked token is refused by the very next request, and every stream opened with it is told
at once through its channel group (``token_group``) and ends.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from accounts.models import AccessToken, User
from games.live import notify

log = logging.getLogger(__name__)

TOKEN_PREFIX = "c414_"
#: Tokens a user may hold at once (revoked ones do not count).
MAX_ACTIVE_TOKENS = 10
#: ``last_used_at`` is written at most this often per token, not on every request.
TOUCH_EVERY = timedelta(minutes=1)


class TokenError(Exception):
    """A token that cannot be made (the message says why, for people)."""


def digest(raw: str) -> str:
    """The SHA-256 hex digest under which ``raw`` is stored."""
    return hashlib.sha256(raw.encode("utf-8", "surrogatepass")).hexdigest()


def token_group(token_id: int) -> str:
    """The channel group every open stream of token ``token_id`` listens on for its revocation."""
    return f"api-token-{token_id}"


def create(user: User, name: str, scope: str = AccessToken.Scope.PLAY) -> tuple[AccessToken, str]:
    """Make a token for ``user`` named ``name``: returns ``(row, token)``, the only time the
    token itself is known. Raises TokenError for an empty name, an unknown scope, or when the
    user already holds ``MAX_ACTIVE_TOKENS`` active tokens."""
    from django.utils.translation import gettext as _

    name = (name or "").strip()[:60]
    if not name:
        raise TokenError(_("Give the token a name."))
    if scope not in AccessToken.Scope.values:
        raise TokenError(_("Unknown scope."))
    if AccessToken.objects.filter(user=user, revoked_at__isnull=True).count() >= MAX_ACTIVE_TOKENS:
        raise TokenError(_("Revoke a token before making another."))
    raw = TOKEN_PREFIX + secrets.token_urlsafe(32)
    row = AccessToken.objects.create(
        user=user, name=name, scope=scope, prefix=raw[: len(TOKEN_PREFIX) + 6], digest=digest(raw)
    )
    return row, raw


def revoke(user: User, token_id: int) -> bool:
    """Revoke ``user``'s token ``token_id``; after commit its open streams are told to end.
    Returns False when the user has no such active token (nothing changes)."""
    changed = AccessToken.objects.filter(pk=token_id, user=user, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )
    if changed:
        transaction.on_commit(lambda: _tell_streams(token_id))
    return bool(changed)


def _tell_streams(token_id: int) -> None:
    try:
        notify.send_many([(token_group(token_id), {"type": "api.revoked"})])
    except Exception:  # the streams also re-check the token at every event and keep-alive
        log.warning("could not tell the streams of token %s", token_id, exc_info=True)


def authenticate(raw: object) -> AccessToken | None:
    """The active token whose text is ``raw``, with its active user loaded, or None."""
    if not isinstance(raw, str) or not raw.startswith(TOKEN_PREFIX) or len(raw) > 100:
        return None
    token = (
        AccessToken.objects.select_related("user")
        .filter(digest=digest(raw), revoked_at__isnull=True, user__is_active=True)
        .first()
    )
    if token is not None:
        now = timezone.now()
        if token.last_used_at is None or now - token.last_used_at > TOUCH_EVERY:
            AccessToken.objects.filter(pk=token.pk).update(last_used_at=now)
            token.last_used_at = now
    return token


def still_active(token_id: int) -> bool:
    """Whether token ``token_id`` is still active (not revoked, its user active)."""
    return AccessToken.objects.filter(
        pk=token_id, revoked_at__isnull=True, user__is_active=True
    ).exists()
