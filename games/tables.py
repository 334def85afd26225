"""Opening tables and seating people and AI seats before a match starts.

Every function takes the table row lock, checks, changes, and notifies after commit. Errors are
``TableError`` with a message for people; nothing changes when one is raised.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext as _

from accounts import bots
from games import lobby, notify, services
from games.engine.options import Options, OptionsError
from games.models import Match, Seat, Table

SEAT_COUNTS = (2, 4, 6, 8)


class TableError(Exception):
    """A table action that cannot be done now (the message says why)."""


def _notify(table: Table, left: int | None = None) -> None:
    """Bump the table's revision (we hold its lock) and, after commit, tell its pages and the
    lobby — the public lists, and the "my tables" of its people and of ``left``, who stood up."""
    table_id = table.pk
    Table.objects.filter(pk=table_id).update(revision=F("revision") + 1)
    people = [*lobby.people_at(table), left]
    transaction.on_commit(lambda: (notify.table_changed(table_id), notify.lobby_changed(people)))


def _locked(table_id: int) -> Table:
    return Table.objects.select_for_update().get(pk=table_id)


def create_table(
    host,
    *,
    name: str,
    players: int,
    options: dict,
    rated: bool = False,
    visibility: str = Table.Visibility.PUBLIC,
    spectator_delay: int = 0,
) -> Table:
    """Open a table with ``players`` empty seats and seat the host at seat 0.

    ``options`` are RULES.md §10 names; raises TableError when they are invalid.
    """
    if players not in SEAT_COUNTS:
        raise TableError(_("A table has 2, 4, 6 or 8 seats."))
    if rated and getattr(host, "is_bot", False):  # the host sits at seat 0 (accounts.bots)
        raise TableError(bots.casual_only())
    try:
        Options.from_dict(options, players=players)
    except OptionsError as e:
        raise TableError(str(e)) from None
    with transaction.atomic():
        table = Table.objects.create(
            name=name,
            host=host,
            players=players,
            options=options,
            rated=rated,
            visibility=visibility,
            spectator_delay=spectator_delay,
        )
        Seat.objects.bulk_create(Seat(table=table, number=n) for n in range(players))
        Seat.objects.filter(table=table, number=0).update(user=host)
        _notify(table)
    return table


def take_seat(table_id: int, user, number: int) -> None:
    """Sit ``user`` at seat ``number`` (joining, or switching from another seat)."""
    with transaction.atomic():
        table = _open(table_id)
        seat = Seat.objects.select_for_update().filter(table=table, number=number).first()
        if seat is None:
            raise TableError(_("There is no such seat."))
        if seat.user_id == user.pk:
            return
        if not seat.is_empty:
            raise TableError(_("That seat is taken."))
        refused = bots.seat_refusal(user, table)
        if refused:
            raise TableError(refused)
        Seat.objects.filter(table=table, user=user).update(user=None)
        seat.user = user
        seat.save(update_fields=["user"])
        _notify(table)


def leave_seat(table_id: int, user) -> None:
    """Stand up from the table before the match starts."""
    with transaction.atomic():
        table = _open(table_id)
        Seat.objects.filter(table=table, user=user).update(user=None)
        _notify(table, left=user.pk)


def set_ai(table_id: int, host, number: int, policy: str) -> None:
    """The host seats an AI (``policy``) at an empty seat, or clears an AI seat (policy "")."""
    if policy and policy not in Seat.Policy.values:
        raise TableError(_("Unknown AI player."))
    with transaction.atomic():
        table = _hosted(table_id, host)
        seat = Seat.objects.select_for_update().filter(table=table, number=number).first()
        if seat is None or seat.user_id is not None:
            raise TableError(_("Only an empty seat or an AI seat can change."))
        seat.ai_policy = policy
        seat.save(update_fields=["ai_policy"])
        _notify(table)


def fill_with_ai(table_id: int, host, policy: str = Seat.Policy.HEURISTIC) -> int:
    """Seat an AI at every empty seat; returns how many were filled."""
    if policy not in Seat.Policy.values:
        raise TableError(_("Unknown AI player."))
    with transaction.atomic():
        table = _hosted(table_id, host)
        filled = Seat.objects.filter(table=table, user__isnull=True, ai_policy="").update(
            ai_policy=policy
        )
        _notify(table)
    return filled


def start(table_id: int, host, seed: int | None = None) -> Match:
    """The host starts the match once every seat is taken (by people or AI seats)."""
    with transaction.atomic():
        table = _hosted(table_id, host)
        if any(seat.is_empty for seat in table.seats.all()):
            raise TableError(_("Fill every seat (invite players or add AI seats) first."))
        match = services.do_start_match(table, seed)
        _notify(table)
    return match


def _open(table_id: int) -> Table:
    table = _locked(table_id)
    if table.status != Table.Status.OPEN:
        raise TableError(_("The match at this table has started."))
    return table


def _hosted(table_id: int, host) -> Table:
    table = _open(table_id)
    if table.host_id != host.pk:
        raise TableError(_("Only the host can do that."))
    return table
