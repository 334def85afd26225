"""Opening tables, seating people and AI seats before a match starts, and closing a table
that never started.

A table that has not started is closed — it leaves the lobby, no longer counts among its host's
tables (``check_hosting``) and its page says so — when its host closes it (``close_table``), or
when the last one seated stands up and leaves every seat empty (``leave_seat``): nobody is
left to play or to start it, and a host who stood up from a few tables was otherwise kept at
the cap with nothing to end them. A closed table is marked ``ABANDONED``, as an organiser's
``stewarding.abandon`` marks one, with no match: it ends as every table that will not be played
to its end does. A table an organiser schedules is closed only by its organisers.

Every function takes the table row lock, checks, changes, and notifies after commit. Errors are
``TableError`` with a message for people; nothing changes when one is raised.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts import bots
from accounts.models import User
from games import organisers
from games.engine.ai import FILL_DEFAULT
from games.engine.options import Options, OptionsError
from games.models import Match, Rematch, Seat, Table, automatic_name
from games.play import seating, services

SEAT_COUNTS = (2, 4, 6, 8)


class TableError(Exception):
    """A table action that cannot be done now (the message says why)."""


def check_hosting(host: User, *, locked: bool = False) -> None:
    """Raise TableError when ``host`` hosts ``GAMES_MAX_HOSTED_TABLES`` tables that are open
    or being played already (0: no cap): one person once opened and played 30 tables at once.
    Finished and abandoned tables do not count. Precondition: inside a transaction; the host's
    row is locked here (``locked``: the caller has locked it already), so two tables opened at
    once by one person count each other."""
    cap = settings.GAMES_MAX_HOSTED_TABLES
    if cap <= 0:
        return
    if not locked:
        lock_host(host)
    hosted = Table.objects.filter(
        host=host, status__in=[Table.Status.OPEN, Table.Status.PLAYING]
    ).count()
    if hosted >= cap:
        raise TableError(hosting_refusal(hosted))


def lock_host(host: User) -> None:
    """Lock ``host``'s row until the transaction ends: what one person opens is serialised."""
    get_user_model().objects.select_for_update().only("pk").get(pk=host.pk)


def hosting_refusal(count: int) -> str:
    """The translated refusal for a person who hosts ``count`` tables, the most allowed."""
    return ngettext(
        "You already host %(count)d table that is waiting or being played, the most one player "
        "may host at once. Finish it or resign it (Resign, on its page), close it if it is still "
        "waiting (Close table), or wait for it to end first.",
        "You already host %(count)d tables that are waiting or being played, the most one player "
        "may host at once. Finish one or resign it (Resign, on its page), close one that is still "
        "waiting (Close table), or wait for one to end first.",
        count,
    ) % {"count": count}


def _locked(table_id: int) -> Table:
    return Table.objects.select_for_update().get(pk=table_id)


def default_name(host: User) -> str:
    """The name the create form offers ``host`` in the active language ("ana's table")."""
    return automatic_name(Table.AutoName.TABLE, host.username)


def name_kind(name: str, host: User) -> str:
    """What ``name``, sent by ``host``'s create form, is: ``Table.AutoName.TABLE`` when it is
    the pre-filled ``default_name`` left as it was — in any of the site's languages, since the
    form may be sent in another language than the one it was shown in —, else
    ``Table.AutoName.NONE`` (the host's own text)."""
    for language, _label in settings.LANGUAGES:
        with translation.override(language):
            if name == default_name(host):
                return Table.AutoName.TABLE
    return Table.AutoName.NONE


def create_table(
    host: User,
    *,
    name: str,
    players: int,
    options: dict[str, Any],
    rated: bool = False,
    visibility: str = Table.Visibility.PUBLIC,
    spectator_delay: int = 0,
    auto_name: str = Table.AutoName.NONE,
) -> Table:
    """Open a table with ``players`` empty seats and seat the host at seat 0.

    ``options`` are RULES.md §10 names; raises TableError when they are invalid, or when
    ``host`` hosts as many tables as one may already (``check_hosting``). ``auto_name`` says
    ``name`` is an automatic name of that kind (``name_kind``), shown in each reader's language;
    by default it is the host's own text.
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
        check_hosting(host)
        table = Table.objects.create(
            name=name,
            auto_name=auto_name,
            host=host,
            players=players,
            options=options,
            rated=rated,
            visibility=visibility,
            spectator_delay=spectator_delay,
        )
        Seat.objects.bulk_create(Seat(table=table, number=n) for n in range(players))
        Seat.objects.filter(table=table, number=0).update(user=host)
        seating.changed(table)
    return table


def copy_table(source: Table, host: User, seats_for: dict[int, tuple[int | None, str]]) -> Table:
    """Open a new table with ``source``'s seats and options, hosted by ``host``: a rematch
    (``games.play.rematches``) or "play again" (``play_again``).

    A copy is never more visible than its source (docs/ACCESS.md, "Copies of a table"): a
    table an organiser schedules (a league fixture, a tournament pairing: ``games.organisers``)
    is copied as a private, unrated table named after its host (the automatic "ana's table"),
    never with the league's, season's or tournament's name, never listed or rated as theirs;
    any other table keeps its name, rating, visibility and spectator delay. An automatic name
    stays automatic and names the copy's host ("bo vs the computer" when bo hosts the copy).

    ``seats_for`` maps seat numbers to ``(user id or None, AI policy or "")``; seats it leaves out
    are empty. Precondition: the caller is inside a transaction. The new table is locked here
    and notified after commit."""
    auto_name: str
    visibility: str
    if organisers.is_scheduled(source.pk):
        auto_name, rated, visibility = Table.AutoName.TABLE, False, Table.Visibility.PRIVATE
    else:
        auto_name, rated, visibility = source.auto_name, source.rated, source.visibility
    table = Table.objects.create(
        name=automatic_name(auto_name, host.username) if auto_name else source.name,
        auto_name=auto_name,
        host=host,
        players=source.players,
        options=source.options,
        rated=rated,
        visibility=visibility,
        spectator_delay=source.spectator_delay,
    )
    seats = []
    for number in range(source.players):
        user_id, policy = seats_for.get(number, (None, ""))
        seats.append(
            Seat(table=table, number=number, user_id=user_id, ai_policy="" if user_id else policy)
        )
    Seat.objects.bulk_create(seats)
    table = _locked(table.pk)
    seating.changed(table)
    return table


def last_played(user: User) -> Table | None:
    """The table of ``user``'s latest match (seated, started; any status), or None: what
    "play again" copies."""
    return (
        Table.objects.filter(seats__user=user, match__isnull=False)
        .select_related("host")  # the lobby's offer shows its display_name
        .order_by("-match__started_at")
        .first()
    )


def play_again(user: User) -> Table:
    """Open a table like ``user``'s last one (``last_played``): the same options and seats,
    ``user`` hosting at the seat they had, its AI seats again at theirs (people who played an
    AI stand-in's seat are people: their seats open). The copy of a league fixture or a
    tournament pairing is a private, unrated table of ``user``'s (``copy_table``). Raises
    TableError when ``user`` has played nowhere yet, or hosts as many tables as one may
    already (``check_hosting``)."""
    with transaction.atomic():
        source = last_played(user)
        if source is None:
            raise TableError(_("You have not played a match yet: create a table instead."))
        check_hosting(user)
        seats_for: dict[int, tuple[int | None, str]] = {}
        for seat in source.seats.all():
            if seat.user_id == user.pk:
                seats_for[seat.number] = (user.pk, "")
            elif seat.user_id is None and seat.ai_policy:
                seats_for[seat.number] = (None, seat.ai_policy)
        return copy_table(source, user, seats_for)


def take_seat(table_id: int, user: User, number: int) -> None:
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
        seating.changed(table)


def leave_seat(table_id: int, user: User) -> None:
    """Stand up from the table before the match starts. When that leaves every seat empty (no
    person, no AI seat), the table is closed (see the module doc), unless an organiser
    schedules it."""
    with transaction.atomic():
        table = _open(table_id)
        left = Seat.objects.filter(table=table, user=user).update(user=None)
        if (
            left
            and not Seat.objects.filter(table=table)
            .exclude(user__isnull=True, ai_policy="")
            .exists()
            and not organisers.is_scheduled(table.pk)
        ):
            _close(table)
        seating.changed(table, left=user.pk)


def close_table(table_id: int, host: User) -> None:
    """The host closes their table before its match starts (see the module doc): every page of
    the table is sent its closed state, the lobby drops it."""
    with transaction.atomic():
        table = _hosted(table_id, host)
        if organisers.is_scheduled(table.pk):
            raise TableError(
                _("A league or tournament schedules this table: only its organisers can close it.")
            )
        _close(table)
        seating.changed(table)


def _close(table: Table) -> None:
    """Mark the open table ``table`` closed. Precondition: its row is locked (``_open``); the
    caller ends with ``seating.changed``."""
    table.status = Table.Status.ABANDONED
    table.save(update_fields=["status"])
    # The finished table whose rematch opened this one says so on its pages (no dead link).
    for rematch in Rematch.objects.filter(new_table=table).select_related("table"):
        seating.changed(rematch.table)


def set_ai(table_id: int, host: User, number: int, policy: str) -> None:
    """The host seats an AI (``policy``) at an empty seat, or clears an AI seat (policy "").
    Raises TableError: not the host (first: a stranger learns nothing of the policies), an
    unknown policy, a seat that is not empty nor an AI's."""
    with transaction.atomic():
        table = _hosted(table_id, host)
        if policy and policy not in Seat.Policy.values:
            raise TableError(_("Unknown AI player."))
        seat = Seat.objects.select_for_update().filter(table=table, number=number).first()
        if seat is None or seat.user_id is not None:
            raise TableError(_("Only an empty seat or an AI seat can change."))
        seat.ai_policy = policy
        seat.save(update_fields=["ai_policy"])
        seating.changed(table)


def fill_with_ai(table_id: int, host: User, policy: str = FILL_DEFAULT) -> int:
    """Seat an AI at every empty seat; returns how many were filled."""
    if policy not in Seat.Policy.values:
        raise TableError(_("Unknown AI player."))
    with transaction.atomic():
        table = _hosted(table_id, host)
        filled = Seat.objects.filter(table=table, user__isnull=True, ai_policy="").update(
            ai_policy=policy
        )
        seating.changed(table)
    return filled


def staff_may_start(table: Table, user: Any) -> bool:
    """Whether ``user`` is staff who may start ``table`` for its players (not its host): an
    open table a league or tournament schedules (``games.organisers``), every seat taken —
    a fixture's players need not wait for the one who hosts it (issue 18)."""
    return (
        bool(getattr(user, "is_staff", False))
        and table.status == Table.Status.OPEN
        and table.host_id != user.pk
        and organisers.is_scheduled(table.pk)
        and not any(seat.is_empty for seat in table.seats.all())
    )


def start(table_id: int, host: User, seed: int | None = None) -> Match:
    """The host starts the match once every seat is taken (by people or AI seats); so may staff
    a table an organiser schedules (``staff_may_start``)."""
    with transaction.atomic():
        table = _open(table_id)
        if table.host_id != host.pk and not staff_may_start(table, host):
            raise TableError(_("Only the host can do that."))
        if any(seat.is_empty for seat in table.seats.all()):
            raise TableError(_("Fill every seat (invite players or add AI seats) first."))
        match = services.do_start_match(table, seed)
        seating.changed(table)
    return match


def _open(table_id: int) -> Table:
    table = _locked(table_id)
    if table.status != Table.Status.OPEN:
        if table.is_closed():
            raise TableError(_("This table was closed before its match started."))
        raise TableError(_("The match at this table has started."))
    return table


def _hosted(table_id: int, host: User) -> Table:
    table = _open(table_id)
    if table.host_id != host.pk:
        raise TableError(_("Only the host can do that."))
    return table
