"""The request types views annotate with: what the middleware (config/settings.py) adds to
Django's ``HttpRequest``, so mypy checks the attributes views read.

- ``Request``: every request; ``django_htmx``'s middleware sets ``request.htmx`` (falsy unless
  htmx sent it).
- ``SignedInRequest``: a view behind ``login_required``, where ``request.user`` is a ``User``,
  never ``AnonymousUser`` (the pattern django-stubs documents).
"""

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails

from accounts.models import User


class Request(HttpRequest):
    """An ``HttpRequest`` after the site's middleware: ``htmx`` is django-htmx's details."""

    htmx: HtmxDetails


class SignedInRequest(Request):
    """A ``Request`` whose user signed in (the view is behind ``login_required``)."""

    user: User
