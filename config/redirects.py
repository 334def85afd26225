"""Where a form may send the person back to: its ``next`` field, when that is a page of this
site. Every view that redirects to an address the request carries asks ``safe_next``."""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.http import url_has_allowed_host_and_scheme


def safe_next(request: HttpRequest, fallback: str, field: str = "next") -> str:
    """The POSTed (else GET) ``field`` if it is a path on this site, else ``fallback``.

    A path means it starts with a single ``/``: Django's ``url_has_allowed_host_and_scheme``
    turns away other hosts (``//evil``, ``/\\evil``, ``https:evil``) but allows a bare word, and
    ``redirect("abc")`` would read a bare word as a URL name and fail (a 500)."""
    target = request.POST.get(field) or request.GET.get(field) or ""
    if (
        target.startswith("/")
        and url_has_allowed_host_and_scheme(
            target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
        )
        and "\\" not in target
    ):
        return target
    return fallback
