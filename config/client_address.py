"""Who is asking: the client's address, as the socket caps (``games.sockets.socket_limits``) and
the HTTP limits (``accounts.throttle``, ``games.api.ratelimit``) count it.

Behind nginx, Daphne's peer is nginx itself (127.0.0.1). A peer listed in
``GAMES_TRUSTED_PROXIES`` is believed about the client: ``X-Real-IP`` (nginx sets it to
``$remote_addr``, replacing whatever the client sent), else the last ``X-Forwarded-For`` entry
(the one nginx appended). Any other peer is the client, its headers ignored: a client cannot
pick its own address. (Daphne's own ``--proxy-headers`` believes the *first*
``X-Forwarded-For`` entry, which the client writes: use it only with
``--proxy-headers-host X-Real-IP``.) An IPv6 client is its /64 network: one host holds a whole
one.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Mapping
from typing import Any

from django.conf import settings
from django.http import HttpRequest


def _header(scope: Mapping[str, Any], name: bytes) -> str:
    headers: Iterable[tuple[bytes, bytes]] = scope.get("headers") or ()  # ASGI: byte pairs
    for key, value in headers:
        if key.lower() == name:
            return value.decode("latin-1")
    return ""


def _address(text: str) -> str | None:
    """``text`` as a normalised address (IPv6 as its /64 network), or None if it is not one."""
    try:
        address = ipaddress.ip_address(text.strip())
    except ValueError:
        return None
    if address.version == 6 and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    if address.version == 6:
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


def client_address(scope: Mapping[str, Any]) -> str | None:
    """The client's address for the caps: ``"203.0.113.7"``, ``"2001:db8:1:2::/64"``, or None
    (no peer, e.g. a Unix socket or a test). A peer in ``GAMES_TRUSTED_PROXIES`` is replaced by
    the address in its ``X-Real-IP`` header, else by the last ``X-Forwarded-For`` entry."""
    client = scope.get("client")
    peer = str(client[0]) if client else ""
    if peer and peer in settings.GAMES_TRUSTED_PROXIES:
        forwarded = _header(scope, b"x-real-ip") or _header(scope, b"x-forwarded-for")
        real = _address(forwarded.rsplit(",", 1)[-1]) if forwarded else None
        if real is not None:
            return real
    return _address(peer) if peer else None


def request_address(request: HttpRequest) -> str:
    """``client_address`` of an HTTP request: ``"203.0.113.7"``, or an IPv6 client's /64 network
    address (``"2001:db8:1:2::"``: axes stores an IP); "" if the request has no peer address."""
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
    return (client_address(scope) or "").removesuffix("/64")
