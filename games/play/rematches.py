"""Rematch: the same seats and options again, at a new table (issue #10 item 4).

Once a match is over, any person seated at its table may ask for a rematch (``do_ask``). The
other people seated there are asked, on their table page, to accept or to leave
(``do_answer``); AI seats come along by themselves. The rematch is settled (``_settle``) as
soon as everyone asked has answered, or when ``GAMES_REMATCH_SECONDS`` have passed (a wake-up
task, and the worker's sweep for one lost to a crash: ``expire``, ``sweep_expired``):

- everyone accepted: a new table with the same seats, options, rating and visibility opens and
  its match starts at once;
- someone left, or did not answer in time: the new table opens all the same, with those seats
  empty, hosted by the person who asked; they fill them (invite someone, seat an AI) and start
  it as any table.

Either way, every page of the finished table gets a fresh snapshot (the table's revision is
bumped, DESIGN.md rule 2), and the pages of the people seated at the new table go there by
themselves (``static/js/table.js``). A person who left the match for good (``games.play.standins``)
is not asked: their seat opens empty. A league fixture or tournament pairing has no rematch
(its league schedules the next match). Errors are ``RematchError`` with a message for people;
nothing changes when one is raised.
"""

from __future__ import annotations

from datetime import timedelta
from typing import NoReturn

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.models import User
from games import organisers
from games.live.rematch_view import NO, YES, answer_seconds
from games.models import Rematch, Seat, Table
from games.play import seating, services, tables, wakeups


class RematchError(Exception):
    """A rematch request that cannot be done now (the message says why)."""


#: The refusal for someone with no seat at the table (a spectator) who answers a rematch,
#: whatever the match's stage (translated when shown).
NO_SEAT = gettext_lazy("You have no seat at this table, so there is no rematch for you to answer.")


# --- asking and answering -----------------------------------------------------------------------


def do_ask(table_id: int, user: User) -> Rematch:
    """``user``, seated at the finished table ``table_id``, asks for a rematch (their answer is
    yes). When someone asked already and the rematch is not settled, asking is accepting.
    Raises RematchError when the table has no finished match, is a league or tournament match,
    ``user`` has no seat there, or hosts as many tables as one may already (they would host the
    new one: ``tables.check_hosting``)."""
    with transaction.atomic():
        table = _finished(
            table_id, user, _("Only the players of this match can ask for a rematch.")
        )
        existing = Rematch.objects.select_for_update().filter(table=table).first()
        if existing is not None:
            return _answer_locked(table, existing, user, YES)
        seats = list(table.seats.all())
        mine = next(s for s in seats if s.user_id == user.pk)  # (``_finished`` saw it)
        try:  # the one who asks hosts the new table
            tables.check_hosting(user)
        except tables.TableError as e:
            raise RematchError(str(e)) from None
        people = {
            str(s.number): s.user_id
            for s in seats
            if s.user_id is not None and s.stand_in != Seat.StandIn.LEFT
        }
        people[str(mine.number)] = user.pk
        rematch = Rematch.objects.create(
            table=table,
            proposer=user,
            people=people,
            answers={str(mine.number): YES},
            deadline=timezone.now() + timedelta(seconds=answer_seconds()),
        )
        _settle_if_answered(table, rematch)
        _changed(table, rematch, asked=True)
    return rematch


def do_answer(table_id: int, user: User, accept: bool) -> Rematch:
    """``user`` accepts the rematch asked at ``table_id`` (``accept``) or leaves it. An answer
    given is final; the same answer again changes nothing. Raises RematchError when no
    rematch is asked there, it is settled, ``user`` was not asked, or answered otherwise; first
    of all when ``user`` has no seat at the table (a spectator), whatever the match's stage."""
    with transaction.atomic():
        table = _finished(table_id, user, str(NO_SEAT))
        rematch = Rematch.objects.select_for_update().filter(table=table).first()
        if rematch is None:
            raise RematchError(_("Nobody has asked for a rematch at this table."))
        return _answer_locked(table, rematch, user, YES if accept else NO)


def _answer_locked(table: Table, rematch: Rematch, user: User, answer: str) -> Rematch:
    """Precondition: the table row, then the rematch row, are locked."""
    seat = next((n for n, person in rematch.people.items() if person == user.pk), None)
    if seat is None:
        raise RematchError(_("You were not asked to this rematch."))
    if rematch.answers.get(seat) == answer:
        return rematch
    if rematch.settled:
        raise RematchError(_("This rematch is settled already."))
    if seat in rematch.answers:
        raise RematchError(_("You have answered already."))
    rematch.answers[seat] = answer
    rematch.save(update_fields=["answers"])
    _settle_if_answered(table, rematch)
    _changed(table, rematch)
    return rematch


def expire(rematch_id: int) -> bool:
    """The answer time of rematch ``rematch_id`` is over: settle it without the people who did
    not answer (their seats open empty). Does nothing if it is settled already or not due
    yet (a task woken early). Returns whether it settled it now."""
    with transaction.atomic():
        row = Rematch.objects.filter(pk=rematch_id).values("table_id").first()
        if row is None:
            return False
        table = Table.objects.select_for_update().get(pk=row["table_id"])
        rematch = Rematch.objects.select_for_update().get(pk=rematch_id)
        if rematch.settled or rematch.deadline > timezone.now() + timedelta(milliseconds=50):
            return False
        _settle(table, rematch)
        _changed(table, rematch)
    return True


def sweep_expired(grace_seconds: float = 2.0) -> int:
    """Settle every rematch whose answer time ended more than ``grace_seconds`` ago (its
    wake-up task was lost). Returns how many were settled."""
    cutoff = timezone.now() - timedelta(seconds=grace_seconds)
    due = Rematch.objects.filter(settled_at__isnull=True, deadline__lt=cutoff)
    return sum(expire(pk) for pk in due.values_list("pk", flat=True))


def refuse_unknown_answer(table_id: int, user: User) -> NoReturn:
    """Raise the ``RematchError`` that a request from ``user`` at table ``table_id`` which
    neither asks, accepts nor leaves deserves: they have no seat there (``NO_SEAT``), else no
    rematch is waiting for answers there, else "accept or leave". Reads only."""
    if not Seat.objects.filter(table_id=table_id, user=user).exists():
        raise RematchError(str(NO_SEAT))
    if not Rematch.objects.filter(table_id=table_id, settled_at__isnull=True).exists():
        raise RematchError(_("Nobody has asked for a rematch at this table."))
    raise RematchError(_("Accept the rematch or leave it."))


def _finished(table_id: int, user: User, no_seat: str) -> Table:
    """The table, locked, if ``user`` may ask for or answer a rematch there: they have a seat
    (else ``no_seat`` is the refusal, before any other), its match is over, and no organiser
    schedules it."""
    table = Table.objects.select_for_update().filter(pk=table_id).first()
    if table is None or not table.seats.filter(user=user).exists():
        raise RematchError(no_seat)
    if table.status != Table.Status.FINISHED:
        raise RematchError(_("A rematch can be asked for once the match is over."))
    if organisers.is_scheduled(table.pk):
        raise RematchError(
            _("This match belongs to a league or a tournament: its organisers set the next one.")
        )
    return table


# --- settling -----------------------------------------------------------------------------------


def _settle_if_answered(table: Table, rematch: Rematch) -> None:
    if set(rematch.people) <= set(rematch.answers):
        _settle(table, rematch)


def _settle(table: Table, rematch: Rematch) -> None:
    """Open the new table: every seat as it was, the people who accepted at theirs, AI seats
    with their policy, the others empty; start its match when no seat is empty. Precondition:
    the old table's and the rematch's rows are locked, the rematch is not settled."""
    seats_for: dict[int, tuple[int | None, str]] = {}
    for seat in table.seats.all():
        key = str(seat.number)
        if key in rematch.people:
            if rematch.answers.get(key) == YES:
                seats_for[seat.number] = (rematch.people[key], "")
        elif seat.user_id is None and seat.ai_policy:
            seats_for[seat.number] = (None, seat.ai_policy)
    new = tables.copy_table(table, rematch.proposer, seats_for)
    if len(seats_for) == table.players:
        services.do_start_match(new)
    rematch.new_table = new
    rematch.settled_at = timezone.now()
    rematch.save(update_fields=["new_table", "settled_at"])


def _changed(table: Table, rematch: Rematch, asked: bool = False) -> None:
    """Every page of the finished table gets a fresh snapshot (its revision is bumped), and
    the wake-up for the answer time is set when the rematch was just ``asked``."""
    seating.changed(table)
    if rematch.settled or not asked:
        return
    rematch_id, delay = rematch.pk, max(0.0, (rematch.deadline - timezone.now()).total_seconds())

    transaction.on_commit(lambda: wakeups.rematch_expire(rematch_id, delay))
