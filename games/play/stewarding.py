"""Organisers' hooks on tables (leagues and tournaments use them; people use ``games.play.tables``).

``open_table`` opens a table with chosen people and AI seats at chosen seats (nobody is seated
as the host), optionally starting its match. ``hand_seat`` gives a seat to another person or to
an AI stand-in, also during a match: a seat with both a user and ``ai_policy`` is the person's
seat played by the AI. ``abandon`` stops a table whose match will not be finished (a forfeit),
the way a casual table nobody is at is stopped (``stopping``).

Each locks a running match's row with its table's in one statement, as the writer
(``games.play.services``) does, so a hand-over racing a move waits instead of deadlocking; a table
without a match is locked alone (``tables.start`` creates the match under that lock). Each
notifies after commit. Errors are ``tables.TableError``.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User
from games.engine.options import Options, OptionsError
from games.engine.rules import seats_to_act
from games.live.replay import load_state
from games.models import Match, Seat, Table
from games.play import seating, services, stopping, wakeups
from games.play.tables import SEAT_COUNTS, TableError


class _Keep(Enum):
    KEEP = "keep"


#: ``hand_seat(user=KEEP)`` leaves the seat's person as is (a one-member enum: a typed sentinel).
KEEP = _Keep.KEEP


def _lock(table_id: int) -> tuple[Table, Match | None]:
    """Lock the table and its match, if it has one, in the writer's order (see the module doc).

    Raises ``Table.DoesNotExist`` for an unknown table."""
    match = (
        Match.objects.select_for_update().select_related("table").filter(table_id=table_id).first()
    )
    if match is not None:
        return match.table, match
    table = Table.objects.select_for_update().get(pk=table_id)
    # A start that committed between the two statements made a match: lock it too (behind the
    # table, which only the start also takes first).
    return table, Match.objects.select_for_update().filter(table=table).first()


def open_table(
    host: User,
    *,
    name: str,
    options: dict[str, Any],
    seats: Sequence[tuple[User | None, str]],
    rated: bool = False,
    visibility: str = Table.Visibility.PUBLIC,
    start: bool = False,
    seed: int | None = None,
) -> Table:
    """A table whose seat n gets ``seats[n] = (user or None, ai_policy or "")``.

    ``host`` owns the table (it may start it) but is not seated unless listed. With ``start``
    the match is dealt at once (every seat must then be taken).
    """
    players = len(seats)
    if players not in SEAT_COUNTS:
        raise TableError(_("A table has 2, 4, 6 or 8 seats."))
    try:
        Options.from_dict(options, players=players)
    except OptionsError as e:
        raise TableError(str(e)) from None
    users = [u.pk for u, _policy in seats if u is not None]
    if len(users) != len(set(users)):
        raise TableError(_("A player can take only one seat at a table."))
    for _user, policy in seats:
        if policy and policy not in Seat.Policy.values:
            raise TableError(_("Unknown AI player."))
    with transaction.atomic():
        table = Table.objects.create(
            name=name,
            host=host,
            players=players,
            options=options,
            rated=rated,
            visibility=visibility,
        )
        Seat.objects.bulk_create(
            Seat(table=table, number=n, user=user, ai_policy=policy or "")
            for n, (user, policy) in enumerate(seats)
        )
        if start:
            _start_locked(Table.objects.select_for_update().get(pk=table.pk), seed)
        seating.changed(table)
    return table


def start_table(table_id: int, seed: int | None = None) -> Match:
    """Deal the match of an open table whose seats are all taken (no host check)."""
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        if table.status != Table.Status.OPEN:
            raise TableError(_("The match at this table has started."))
        match = _start_locked(table, seed)
        seating.changed(table)
    return match


def _start_locked(table: Table, seed: int | None) -> Match:
    if any(seat.is_empty for seat in table.seats.all()):
        raise TableError(_("Fill every seat (invite players or add AI seats) first."))
    return services.do_start_match(table, seed)


def hand_seat(
    table_id: int, number: int, *, user: User | None | _Keep = KEEP, ai_policy: str | None = None
) -> Seat:
    """Give seat ``number`` to ``user`` (a person, or None) and/or set its ``ai_policy``
    ("" = the person plays, a policy = the AI plays for them), before or during the match.

    If the AI now holds a seat that is due to act, it is woken at once (after commit) with the
    match's current timer token, as ``games.play.services`` would have done.
    """
    if ai_policy and ai_policy not in Seat.Policy.values:
        raise TableError(_("Unknown AI player."))
    with transaction.atomic():
        table, match = _lock(table_id)
        if table.status in (Table.Status.FINISHED, Table.Status.ABANDONED):
            raise TableError(_("The match at this table is over."))
        seat = Seat.objects.select_for_update().filter(table=table, number=number).first()
        if seat is None:
            raise TableError(_("There is no such seat."))
        left = seat.user_id
        if not isinstance(user, _Keep):
            if (
                user is not None
                and Seat.objects.filter(table=table, user=user).exclude(pk=seat.pk).exists()
            ):
                raise TableError(_("A player can take only one seat at a table."))
            if seat.stand_in and user != seat.user:  # a new person plays for themselves
                seat.stand_in, seat.ai_policy = "", ""
            seat.user = user
        if ai_policy is not None:
            seat.ai_policy = ai_policy
            seat.stand_in = ""  # the organiser's choice replaces the player's own stand-in
        if match is not None and seat.user_id is None and not seat.ai_policy:
            raise TableError(_("A seat in a running match needs a player or an AI."))
        seat.save(update_fields=["user", "ai_policy", "stand_in"])
        if match is not None and seat.ai_policy and match.deadline is not None:
            _wake_ai(match, seat.number)
        seating.changed(table, left=left)
    return seat


def _wake_ai(match: Match, number: int) -> None:
    state = load_state(match)
    if number not in seats_to_act(state):
        return
    match_id, token = match.pk, match.deadline_token

    transaction.on_commit(lambda: wakeups.ai_seat(match_id, number, token, 0.5))


def abandon(table_id: int) -> None:
    """Stop a table's match without a result (``stopping.do_stop``): the table is marked
    abandoned, its timer is cleared, and the timer token moves to a value no scheduled wake-up
    carries, so pending timeouts and AI turns do nothing (DESIGN.md rule 3). The match keeps
    its record. Raises TableError once the match is over.
    """
    with transaction.atomic():
        table, match = _lock(table_id)
        if table.status == Table.Status.FINISHED:
            raise TableError(_("The match at this table is over."))
        stopping.do_stop(table, match)
