""" "Play the computer" (issue #18 §4): one click opens a table, seats the person with three AI
players at the difficulty they pick, and deals — as lichess's "play with the computer" does.

The difficulty is remembered on the person (``User.ai_difficulty``): the lobby offers it next
time. Everything happens in one transaction: a refusal (an unknown difficulty, too many tables
hosted already) leaves nothing behind. The table is an ordinary casual one (four seats, default
options), so the table page, rematch and "play again" work on it as on any other.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games.engine.ai import FILL_DEFAULT
from games.models import Match, Seat, Table, automatic_name
from games.play import seating, services
from games.play.tables import TableError, check_hosting, lock_host

#: The table's size: the person and three AI players, partners opposite (RULES.md §0).
PLAYERS = 4
#: A second click within this many seconds of the first is the same click (a double click, a
#: form sent again): it leads to the match the first one dealt instead of dealing another.
SAME_CLICK = timedelta(seconds=5)


def difficulty_for(user: User) -> str:
    """The difficulty the lobby offers ``user``: the last one they picked, else the fill
    default (a stored key the registry no longer has counts as none)."""
    picked = user.ai_difficulty
    return picked if picked in Seat.Policy.values else FILL_DEFAULT


def play_the_computer(user: User, difficulty: str, seed: int | None = None) -> Match:
    """Open a casual four-seat table hosted by ``user`` at seat 0, AI players of ``difficulty``
    (a ``Seat.Policy`` value) at seats 1–3, remember the difficulty on ``user`` and deal round
    1. A second call within ``SAME_CLICK`` of one that dealt (a double click) deals nothing:
    it returns the first one's match. Raises TableError (nothing changed) for an unknown
    difficulty, or a person who hosts as many tables as one may already (``check_hosting``)."""
    if difficulty not in Seat.Policy.values:
        raise TableError(_("Unknown AI player."))
    # An automatic name: stored in the host's language (the admin, the bot API), shown to
    # everyone in their own (Table.display_name).
    kind = Table.AutoName.COMPUTER
    with transaction.atomic():
        lock_host(user)  # a double click's second request waits here for the first to commit
        again = _opened_just_now(user)
        if again is not None:
            return again
        check_hosting(user, locked=True)
        table = Table.objects.create(
            name=automatic_name(kind, user.username),
            auto_name=kind,
            host=user,
            players=PLAYERS,
            options={},
        )
        Seat.objects.bulk_create(
            Seat(
                table=table,
                number=n,
                user=user if n == 0 else None,
                ai_policy="" if n == 0 else difficulty,
            )
            for n in range(PLAYERS)
        )
        if user.ai_difficulty != difficulty:
            User.objects.filter(pk=user.pk).update(ai_difficulty=difficulty)
            user.ai_difficulty = difficulty
        # The new table is this transaction's alone until it commits: no other writer can
        # see it, so the lock do_start_match asks for is held without a SELECT … FOR UPDATE.
        match = services.do_start_match(table, seed)
        seating.changed(table)
    return match


def _opened_just_now(user: User) -> Match | None:
    """The match of the computer table ``user`` opened less than ``SAME_CLICK`` ago (still
    being played), if any. Precondition: ``user``'s row is locked (``lock_host``)."""
    return (
        Match.objects.filter(
            table__host=user,
            table__auto_name=Table.AutoName.COMPUTER,
            table__players=PLAYERS,
            table__status=Table.Status.PLAYING,
            table__created_at__gte=timezone.now() - SAME_CLICK,
        )
        .select_related("table")
        .order_by("-pk")
        .first()
    )
