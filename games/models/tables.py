"""Tables and their seats: who plays where, with which options (who may watch a table is
``games.access``'s)."""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from games.engine.ai.registry import DIFFICULTIES
from games.engine.options import Options


def new_invite_code() -> str:
    return secrets.token_urlsafe(12)


class Table(models.Model):
    """A table a host opened: its seats, its rules options and, once started, its match."""

    class Status(models.TextChoices):
        OPEN = "open", _("Waiting for players")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")
        ABANDONED = "abandoned", _("Abandoned")

    class Visibility(models.TextChoices):
        PUBLIC = "public", _("Public")
        PRIVATE = "private", _("Private (invite link)")

    class AutoName(models.TextChoices):
        """Which automatic name a table has, if any: such a name is said in each reader's
        language (``display_name``), so it is recorded as a kind, not only as text."""

        NONE = "", pgettext_lazy("a table's name", "typed by its host")
        TABLE = "table", pgettext_lazy("a table's name", "the host's table")
        COMPUTER = "computer", pgettext_lazy("a table's name", "the host against the computer")

    #: The name as stored: what the host typed, or an automatic name in the language it was
    #: made in (the admin, search and the bot API read it); people are shown ``display_name``.
    name = models.CharField(_("name"), max_length=80)
    auto_name = models.CharField(
        _("automatic name"),
        max_length=10,
        choices=AutoName,
        default=AutoName.NONE,
        blank=True,
        help_text=_("An automatic name is shown in each reader's language."),
    )
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="hosted_tables"
    )
    players = models.PositiveSmallIntegerField(_("seats"), default=4)
    options = models.JSONField(_("rules options"), default=dict, blank=True)
    rated = models.BooleanField(_("rated"), default=False)
    visibility = models.CharField(
        _("visibility"), max_length=10, choices=Visibility, default=Visibility.PUBLIC
    )
    invite_code = models.CharField(max_length=32, unique=True, default=new_invite_code)
    spectator_delay = models.PositiveSmallIntegerField(
        _("spectator delay (plays)"),
        default=0,
        help_text=_("Spectators see the table this many plays late."),
    )
    status = models.CharField(max_length=10, choices=Status, default=Status.OPEN)
    #: Bumped (under the table lock) whenever the seating or status changes, so pushed
    #: snapshots of one match version are still ordered (``games.live.frames``).
    revision = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            # The lobby's lists: public tables by status, newest first.
            models.Index(fields=["visibility", "status", "-created_at"], name="table_lobby_idx"),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("games:table", args=[self.pk])

    @property
    def display_name(self) -> str:
        """The name to show people, in the active language: an automatic name said afresh
        with the host's username (reads ``host``: select_related it for a list of tables),
        any other exactly as the host typed it."""
        if not self.auto_name:
            return self.name
        return automatic_name(self.auto_name, self.host.username)

    def is_closed(self) -> bool:
        """Whether the table was closed before its match started (by its host, when its last
        person left, or by an organiser: ``games.play.tables``): abandoned with no match. One
        query when abandoned, none otherwise."""
        return (
            self.status == self.Status.ABANDONED
            and not type(self).objects.filter(pk=self.pk, match__isnull=False).exists()
        )

    def engine_options(self) -> Options:
        """The table's rules as the engine's ``Options`` (players from the seat count)."""
        return Options.from_dict(self.options, players=self.players)


def automatic_name(kind: str, host: str) -> str:
    """The automatic name of ``kind`` (a ``Table.AutoName`` value other than NONE) of a table
    hosted by the user named ``host``, in the active language, cut to the stored name's length
    (as every automatic name has been stored)."""
    if kind == Table.AutoName.COMPUTER:
        name = gettext("%(name)s vs the computer") % {"name": host}
    else:
        name = gettext("%(name)s's table") % {"name": host}
    return name[: Table._meta.get_field("name").max_length]


class SeatQuerySet(models.QuerySet["Seat"]):
    def held_by(self, user: Any) -> SeatQuerySet:
        """The seats ``user`` (a user or a user id) holds: theirs, unless they left it for good
        (``Seat.StandIn.LEFT``). Whoever left a match sees it from then on as its spectators
        do — pages, sockets, the bot API — never the seat's hand the AI now plays (which they
        could otherwise pass to a partner still at the table). The row keeps their name: the
        record says who played, and the writer still answers their actions "you left"."""
        return self.filter(user=user).exclude(stand_in=Seat.StandIn.LEFT)

    def number_held_by(self, table_id: int, user: Any) -> int | None:
        """The number of the seat ``user`` holds at table ``table_id`` (``held_by``), or None:
        the seat a page, a socket or a record of that table shows them. One query."""
        return self.filter(table_id=table_id).held_by(user).values_list("number", flat=True).first()


class Seat(models.Model):
    """One place at a table: a person, an AI policy, or empty. Team = number mod 2 (§0)."""

    #: How an AI seat plays: the difficulty a host picks, one per entry of the engine's registry
    #: (``games.engine.ai.registry``, docs/AI.md), weakest first: ``Policy.RANDOM`` = "random",
    #: labelled with the registry's msgid, translated here (the one place labels are marked).
    # django-stubs' overloads of the functional API omit Enum's ``module``/``qualname`` keywords,
    # which Python accepts (and pickling needs); the members are still checked as TextChoices.
    Policy = models.TextChoices(  # type: ignore[call-overload]
        "Policy",
        [(d.key.upper(), (d.key, _(d.label))) for d in DIFFICULTIES],
        module=__name__,
        qualname="Seat.Policy",
    )

    class StandIn(models.TextChoices):
        """Why the AI plays for the seat's person (``games.play.standins``)."""

        AWAY = "away", _("timed out twice in a row")
        ASKED = "asked", _("asked the AI to play")
        LEFT = "left", _("left the match")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="seats",
    )
    ai_policy = models.CharField(max_length=12, choices=Policy, blank=True)
    #: Why an AI plays this person's seat for them (``games.play.standins``): blank while they
    #: play themselves (or an organiser's stand-in plays, ``games.play.stewarding``); then
    #: ``ai_policy`` is the stand-in's policy and the person keeps the seat.
    stand_in = models.CharField(max_length=8, choices=StandIn, blank=True)
    #: How many times the seat changed hands between its person and the stand-in: a request
    #: names the one it answers, so a resent or outdated one changes nothing.
    stand_in_seq = models.PositiveIntegerField(default=0)

    objects = SeatQuerySet.as_manager()

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="unique_seat_number"),
            models.UniqueConstraint(
                fields=["table", "user"],
                name="one_seat_per_user",
                condition=models.Q(user__isnull=False),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} seat {self.number}"

    @property
    def team(self) -> int:
        return self.number % 2

    @property
    def is_ai(self) -> bool:
        return bool(self.ai_policy)

    @property
    def is_empty(self) -> bool:
        return self.user_id is None and not self.ai_policy

    @property
    def holder_id(self) -> int | None:
        """The id of the person who holds the seat (``SeatQuerySet.held_by``): its user's,
        None when empty, an AI's, or left for good."""
        return None if self.stand_in == self.StandIn.LEFT else self.user_id


def only_stand_ins(seats: Iterable[Seat]) -> bool:
    """Whether a table's ``seats`` have people, each of whose seat is played by their AI
    stand-in (``Seat.stand_in``: away, asked or left): nobody plays at the table themselves any
    more. ``games.play.unattended`` stops such a casual match once nobody has been at it for a
    while, and a stopped table's page says why from it (``games.live.presenters``)."""
    people = [seat for seat in seats if seat.user_id is not None]
    return bool(people) and all(seat.stand_in for seat in people)


def ai_plays_a_seat(seats: Iterable[Seat]) -> bool:
    """Whether an AI plays one of ``seats`` on its own account: an AI seat, or an organiser's
    AI playing for a person (``games.play.stewarding``). A seat its own person handed to the
    AI (``Seat.stand_in``: away, asked or left) is still theirs. A match with such a seat never
    counts for ratings (``games.records.player_stats.seated_teams``, ``leagues.results``), so a
    rated table's page says so (``games.live.presenters``). Reads the seats it is given."""
    return any(seat.ai_policy and not seat.stand_in for seat in seats)
