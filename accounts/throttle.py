"""Throttling of log-in and sign-up: too many wrong passwords, or too many new accounts, from
one address.

- **Log-in** (django-axes): after ``AXES_FAILURE_LIMIT`` failed log-ins for one username from
  one address, that pair is locked out for ``AXES_COOLOFF_TIME`` (the right password too); each
  failure during the lockout starts the cool-off again, a success resets the count.
  ``LoginThrottleBackend`` (first in ``AUTHENTICATION_BACKENDS``) refuses a locked-out pair and
  the log-in forms (``accounts.forms``, the site's and the admin's) show ``lockout_message`` as
  a form error (``AxesMiddleware``, last, answers any other lockout with axes' own 429).
  Attempts are rows of axes' tables; ``manage.py axes_reset`` clears them.
- **Sign-up** (django-ratelimit, in the cache): at most ``ACCOUNTS_SIGNUP_RATE`` new accounts per
  address ("10/h": ten an hour); the next is refused with ``signup_message`` as a form error.
  Only accounts created count, not forms sent back with mistakes.

Both name the client by ``client_ip``, by the sockets' rule (``games.sockets.socket_limits``): the
peer, or, when the peer is one of ``GAMES_TRUSTED_PROXIES`` (nginx), the address it reports in
``X-Real-IP`` (else the last ``X-Forwarded-For`` entry) — never one the client wrote itself. An
IPv6 client counts by its /64 network.
"""

from __future__ import annotations

import logging

from axes.backends import AxesStandaloneBackend
from django.conf import settings
from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django_ratelimit.core import get_usage

from games.sockets import socket_limits

log = logging.getLogger(__name__)

SIGNUP_GROUP = "accounts.signup"


def client_ip(request: HttpRequest) -> str:
    """The client's address, as the socket caps name it (``socket_limits.client_address``):
    ``"203.0.113.7"``, or an IPv6 client's /64 network address (``"2001:db8:1:2::"``); "" if the
    request has no peer address."""
    headers = [
        (name, request.META.get(key, "").encode("latin-1"))
        for name, key in (
            (b"x-real-ip", "HTTP_X_REAL_IP"),
            (b"x-forwarded-for", "HTTP_X_FORWARDED_FOR"),
        )
        if request.META.get(key)
    ]
    peer = request.META.get("REMOTE_ADDR") or ""
    scope = {"client": (peer, 0) if peer else None, "headers": headers}
    address = socket_limits.client_address(scope) or ""
    return address.removesuffix("/64")  # a network as its address: axes stores an IP


class LoginThrottleBackend(AxesStandaloneBackend):
    """django-axes' lockout check, first among the backends (it logs nobody in itself).

    Authentication without a request (``Client.login`` in tests, a management command) has no
    address to count and is not throttled: every page that logs a person in passes its request.
    """

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs,
    ):
        if request is None:
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)


def locked_out(request: HttpRequest | None) -> bool:
    """Whether axes refused (or just locked out) this request's log-in."""
    return bool(getattr(request, "axes_locked_out", False))


def lockout_shown(request: HttpRequest) -> None:
    """The form shows the lockout itself: ``AxesMiddleware`` is to pass its page through
    (it replaces the response of a request still flagged with its own 429)."""
    request.axes_locked_out = False


def lockout_message() -> str:
    """The translated form error for a locked-out log-in."""
    minutes = max(1, round(settings.AXES_COOLOFF_TIME * 60))
    return ngettext(
        "Too many failed log-ins for this username. Try again in %(minutes)d minute.",
        "Too many failed log-ins for this username. Try again in %(minutes)d minutes.",
        minutes,
    ) % {"minutes": minutes}


def _signup_key(group: str, request: HttpRequest) -> str:
    return client_ip(request) or "unknown"


def _signup_usage(request: HttpRequest, increment: bool) -> dict | None:
    """django-ratelimit's usage of this address's sign-ups, or None when the cache cannot be
    asked (logged: a cache outage must not stop people joining)."""
    try:
        usage = get_usage(
            request,
            group=SIGNUP_GROUP,
            key=_signup_key,
            rate=settings.ACCOUNTS_SIGNUP_RATE,
            method="POST",
            increment=increment,
        )
    except Exception:
        log.warning("sign-up rate limit unavailable", exc_info=True)
        return None
    if usage is not None and usage["limit"] == 0 and usage["time_left"] == -1:
        log.warning("sign-up rate limit unavailable (the cache did not answer)")
        return None
    return usage


def signups_exhausted(request: HttpRequest) -> bool:
    """Whether this address has created ``ACCOUNTS_SIGNUP_RATE``'s number of accounts in the
    current window already (the next one is refused). Counts nothing itself."""
    usage = _signup_usage(request, increment=False)
    return usage is not None and usage["count"] >= usage["limit"]


def count_signup(request: HttpRequest) -> None:
    """Count an account just created from this address."""
    _signup_usage(request, increment=True)


def signup_message() -> str:
    """The translated form error for a refused sign-up."""
    return _("Too many new accounts from your address. Please try again later.")
