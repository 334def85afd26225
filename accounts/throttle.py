"""Throttling of log-in and sign-up: too many wrong passwords, or too many new accounts, from
one address.

- **Log-in, per username** (django-axes): after ``AXES_FAILURE_LIMIT`` failed log-ins for one
  username from one address, that pair is locked out for ``AXES_COOLOFF_TIME`` (the right
  password too); each failure during the lockout starts the cool-off again, a success resets the
  count. ``LoginThrottleBackend`` (first in ``AUTHENTICATION_BACKENDS``) refuses a locked-out
  pair and the log-in forms (``accounts.forms``, the site's and the admin's) show
  ``lockout_message`` as a form error (``AxesMiddleware``, last, answers any other lockout with
  axes' own 429). Attempts are rows of axes' tables; ``manage.py axes_reset`` clears them.
- **Log-in, per address** (password spraying: one wrong password for each of many usernames
  stays under axes' count for each): at most ``ACCOUNTS_LOGIN_ADDRESS_RATE`` failed log-ins from
  one address, whatever the usernames ("30/h"). Each attempt takes its place before the
  password is checked and gives it back when it succeeds (``config.rate_limits``), so attempts
  sent at once cannot all slip under the count; past it, every log-in from the address is
  refused until the window ends, the right password too (else the limit would tell a sprayer
  which guess was right), with ``address_lockout_message``.
- **Sign-up** (``config.rate_limits``): at most ``ACCOUNTS_SIGNUP_RATE`` new accounts per
  address ("10/h": ten an hour). A form without mistakes takes its place before the account is
  made (the password hashing), so sign-ups sent at once never make more than that; the next is
  refused with ``signup_message`` as a form error. Forms sent back with mistakes do not count.

Every refusal is the form again with its error, answered ``429 Too Many Requests`` with a
``Retry-After`` (``refuse`` marks the request, ``refusal_middleware`` sets both), never a 500.

All name the client by ``client_ip``, by the sockets' rule (``config.client_address``):
the peer, or, when the peer is one of ``GAMES_TRUSTED_PROXIES`` (nginx), the address it reports
in ``X-Real-IP`` (else the last ``X-Forwarded-For`` entry) — never one the client wrote
itself. An IPv6 client counts by its /64 network.
"""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable
from typing import cast

from asgiref.sync import iscoroutinefunction
from axes.backends import AxesStandaloneBackend
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.decorators import sync_and_async_middleware
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from config import rate_limits
from config.client_address import request_address
from config.rate_limits import Usage

SIGNUP_GROUP = "accounts.signup"
LOGIN_ADDRESS_GROUP = "accounts.login.address"


def client_ip(request: HttpRequest) -> str:
    """The client's address, as the socket caps name it (``config.client_address``):
    ``"203.0.113.7"``, or an IPv6 client's /64 network address (``"2001:db8:1:2::"``); "" if the
    request has no peer address. axes names clients by it too (``AXES_CLIENT_IP_CALLABLE``)."""
    return request_address(request)


# django-axes ships no types (pyproject's ignore_missing_imports): its backend is Any here.
class LoginThrottleBackend(AxesStandaloneBackend):  # type: ignore[misc]
    """django-axes' lockout check, first among the backends (it logs nobody in itself).

    Authentication without a request (``Client.login`` in tests, a management command) has no
    address to count and is not throttled: every page that logs a person in passes its request.
    """

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: object,
    ) -> None:
        """Raise axes' lockout for a locked-out request; never a user (None): the next backend
        logs the person in."""
        if request is None:
            return None
        super().authenticate(request, username=username, password=password, **kwargs)
        return None  # axes' authenticate returns None (or raises): it logs nobody in


def locked_out(request: HttpRequest | None) -> bool:
    """Whether axes refused (or just locked out) this request's log-in."""
    return bool(getattr(request, "axes_locked_out", False))


def lockout_shown(request: HttpRequest) -> None:
    """The form shows the lockout itself: ``AxesMiddleware`` is to pass its page through
    (it replaces the response of a request still flagged with its own 429), and the page is
    answered 429 with the cool-off as its ``Retry-After`` (each failure restarts it)."""
    # axes' own flag, set on the requests it locks out only (read with getattr, above)
    setattr(request, "axes_locked_out", False)  # noqa: B010
    refuse(request, math.ceil(settings.AXES_COOLOFF_TIME * 3600))


def lockout_message() -> str:
    """The translated form error for a locked-out log-in."""
    minutes = max(1, round(settings.AXES_COOLOFF_TIME * 60))
    return ngettext(
        "Too many failed log-ins for this username. Try again in %(minutes)d minute.",
        "Too many failed log-ins for this username. Try again in %(minutes)d minutes.",
        minutes,
    ) % {"minutes": minutes}


def _address_key(request: HttpRequest) -> str:
    return client_ip(request) or "unknown"


# --- the answer: 429 with Retry-After -----------------------------------------------------------


def refuse(request: HttpRequest, retry_after: int) -> None:
    """Mark ``request`` as refused by a limit: its page (the form with the error) is answered
    429 with ``Retry-After: retry_after`` (``refusal_middleware``)."""
    # set on refused requests only, read with getattr (``_refused``)
    setattr(request, "throttle_retry_after", max(1, int(retry_after)))  # noqa: B010


def _refused(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    retry_after = getattr(request, "throttle_retry_after", None)
    if retry_after and response.status_code == 200:
        response.status_code = 429
        response.reason_phrase = "Too Many Requests"
        response["Retry-After"] = str(retry_after)
    return response


@sync_and_async_middleware
def refusal_middleware(
    get_response: Callable[[HttpRequest], HttpResponse | Awaitable[HttpResponse]],
) -> Callable[[HttpRequest], HttpResponse | Awaitable[HttpResponse]]:
    """Answer a page whose request a limit refused (``refuse``) ``429 Too Many Requests`` with
    its ``Retry-After``: the log-in forms (the site's and the admin's) and the sign-up form show
    the refusal as a form error, and the status says what it is."""
    if iscoroutinefunction(get_response):
        # an async view chain: its get_response is a coroutine function (checked just above)
        get_async = cast(Callable[[HttpRequest], Awaitable[HttpResponse]], get_response)

        async def async_middleware(request: HttpRequest) -> HttpResponse:
            return _refused(request, await get_async(request))

        return async_middleware

    get_sync = cast(Callable[[HttpRequest], HttpResponse], get_response)  # (not a coroutine one)

    def middleware(request: HttpRequest) -> HttpResponse:
        return _refused(request, get_sync(request))

    return middleware


# --- log-in per address --------------------------------------------------------------------------


def take_login(request: HttpRequest) -> Usage | None:
    """Count a log-in attempt from this request's address before its password is checked
    (``give_back_login`` when it succeeds). Refuse it when the result is ``over``."""
    return rate_limits.take(
        LOGIN_ADDRESS_GROUP, _address_key(request), settings.ACCOUNTS_LOGIN_ADDRESS_RATE
    )


def give_back_login(request: HttpRequest) -> None:
    """A log-in counted by ``take_login`` succeeded: it is no failure."""
    rate_limits.give_back(
        LOGIN_ADDRESS_GROUP, _address_key(request), settings.ACCOUNTS_LOGIN_ADDRESS_RATE
    )


def address_lockout_message(usage: Usage) -> str:
    """The translated form error for a log-in refused for too many failures from the address."""
    minutes = max(1, math.ceil(usage.retry_after / 60))
    return ngettext(
        "Too many failed log-ins from your address. Try again in %(minutes)d minute.",
        "Too many failed log-ins from your address. Try again in %(minutes)d minutes.",
        minutes,
    ) % {"minutes": minutes}


# --- sign-up -------------------------------------------------------------------------------------


def take_signup(request: HttpRequest) -> Usage | None:
    """Count the account about to be made from this request's address (before it is made):
    refuse it when the result is ``over``; ``give_back_signup`` if it is not made after all."""
    return rate_limits.take(SIGNUP_GROUP, _address_key(request), settings.ACCOUNTS_SIGNUP_RATE)


def give_back_signup(request: HttpRequest) -> None:
    """The account counted by ``take_signup`` was not made (its name was taken meanwhile)."""
    rate_limits.give_back(SIGNUP_GROUP, _address_key(request), settings.ACCOUNTS_SIGNUP_RATE)


def signup_message() -> str:
    """The translated form error for a refused sign-up."""
    return _("Too many new accounts from your address. Please try again later.")
