"""Players by the names people type, case aside: the way sign-up counts a name as taken.

Sign-up refuses "TESTER1" when "Tester1" exists (Django's ``UserCreationForm`` asks
``username__iexact``, and the accounts' username key is unique case aside), so a name typed in
any case means that one player: the organise page's "Add a member", a fixture's teams, a
tournament's partners and the staff's actions all find players here. Only the case is set
aside, not look-alike letters ("Testerl" is not "Tester1"). Accounts made before that rule may
differ in case only ("ana", "Ana"): the one spelled as typed is meant, else the name is
ambiguous and the person is asked to type it exactly.

A leaf of the app: it reads the user model only (``get_user_model()``: the leagues import
nothing from ``accounts``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:
    from django.contrib.auth.models import _User as User  # (the leagues import no accounts)


class NoSuchPlayer(Exception):
    """A typed name that means no one (or, case aside, more than one): ``message`` says so, in
    the language active when it was raised."""

    def __init__(self, name: str, message: str):
        super().__init__(name)
        self.name = name
        self.message = message


def find(names: Sequence[str], *, active: bool = True) -> list[User]:
    """The users called ``names`` (surrounding spaces ignored, any case), in that order; only
    active ones unless ``active`` is False. One query. Raises NoSuchPlayer for the first name
    that means no one, or several accounts differing in case none of which is spelled so."""
    wanted = [name.strip() for name in names]
    query = Q(pk__in=[])
    for name in wanted:
        query |= Q(username__iexact=name)
    users = get_user_model().objects.filter(query)
    if active:
        users = users.filter(is_active=True)
    by_case: dict[str, list[User]] = {}
    for user in users.order_by("pk"):
        by_case.setdefault(user.username.casefold(), []).append(user)
    found = []
    for name in wanted:
        same = by_case.get(name.casefold(), [])
        exact = [u for u in same if u.username == name]
        if exact or len(same) == 1:
            found.append((exact or same)[0])
        elif same:
            several = _("Several players are called “%(name)s” in other cases: type it as they do.")
            raise NoSuchPlayer(name, str(several) % {"name": name})
        else:
            raise NoSuchPlayer(name, str(_("No player is called “%(name)s”.")) % {"name": name})
    return found
