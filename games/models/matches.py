"""Tables, seats, matches and their records: everything needed to resume and audit a match.

The engine state of a running match lives in ``Match.state`` (``engine.codec`` JSON, holding every
hand: never render it). ``Move`` is the append-only move log with a per-match sequence; ``Round``
and ``TributeRecord`` are its summaries for history pages. Only ``games.play.services`` writes a
match. ``PlayerMatch`` (one person's statistics of one finished match) and ``MatchTally`` (the match
was counted) are written once per finished match by ``games.records.player_stats``.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models.tables import Table


class Match(models.Model):
    """The match played at a table. ``state`` is the engine state (secret: all hands).

    ``deadline``/``deadline_kind``/``deadline_token`` are the one running timer (DESIGN.md rule
    3): ``games.play.clock`` rings it with the token, and the wake-up does nothing once the match
    has moved past it.
    """

    class Deadline(models.TextChoices):
        TURN = "turn", _("turn")
        WINDOW = "window", _("claim window")
        TRIBUTE = "tribute", _("tribute return")
        NEXT_ROUND = "next_round", _("next round")

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="match")
    seed = models.BigIntegerField()
    state = models.JSONField()
    version = models.PositiveIntegerField(default=0)
    phase = models.CharField(max_length=12)
    round_no = models.PositiveSmallIntegerField(default=1)
    level_team0 = models.PositiveSmallIntegerField(default=2)
    level_team1 = models.PositiveSmallIntegerField(default=2)
    deadline = models.DateTimeField(null=True, blank=True)
    deadline_kind = models.CharField(max_length=12, choices=Deadline, blank=True)
    deadline_token = models.PositiveIntegerField(default=0)
    winner_team = models.PositiveSmallIntegerField(null=True, blank=True)
    #: Per seat number, how many of its decisions in a row the clock made (turns and tribute
    #: returns; ``games.play.standins``). Kept on the match row, which every move locks and saves
    #: anyway, so counting and resetting cost no query.
    timeouts_in_row = models.JSONField(default=list, blank=True)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    #: The row's values as last read or written, by attribute name (``note_row``).
    _loaded_values: dict[str, Any]

    class Meta:
        verbose_name_plural = "matches"
        indexes = [
            # The sweeps: the running matches (then whose deadline passed). Not the deadline
            # itself: a move moves it, and an indexed column changed makes PostgreSQL write
            # the row's new version to every index (no HOT update); the running matches are
            # few, their deadlines read from the rows (issue 19).
            models.Index(
                fields=["id"],
                name="match_running_idx",
                condition=models.Q(winner_team__isnull=True),
            ),
            # The lobby's and history's latest finished matches.
            models.Index(
                fields=["-finished_at"],
                name="match_finished_idx",
                condition=models.Q(finished_at__isnull=False),
            ),
        ]

    def __str__(self) -> str:
        return f"match at {self.table}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        super().save(*args, **kwargs)
        self.note_row(kwargs.get("update_fields"))

    @property
    def is_over(self) -> bool:
        return self.winner_team is not None

    @classmethod
    def from_db(
        cls,
        db: str | None,
        field_names: Collection[str],
        values: Collection[Any],
        *,
        fetch_mode: Any = None,
    ) -> Match:
        """A match read from the database, which keeps the values it was read with (by field
        name, ``_loaded_values``) so the writer updates only the columns a move changed
        (``games.play.writes.save_match``)."""
        instance = super().from_db(db, field_names, values, fetch_mode=fetch_mode)
        instance.note_row(field_names)
        return instance

    def refresh_from_db(self, *args: Any, **kwargs: Any) -> None:
        super().refresh_from_db(*args, **kwargs)
        self.note_row()

    def note_row(self, names: Iterable[str] | None = None) -> None:
        """Note the current values of ``names`` (attribute names; default: every loaded
        field) as the row's. Lists are copied: one changed in place still reads as changed."""
        loaded = dict(getattr(self, "_loaded_values", {}))
        values = self.__dict__
        for name in values if names is None else names:
            if name in values and name in _COLUMNS:
                value = values[name]
                loaded[name] = list(value) if isinstance(value, list) else value
        self._loaded_values = loaded


#: The attribute names of the match's columns (``Match.note_row``).
_COLUMNS = frozenset(f.attname for f in Match._meta.concrete_fields)


class DelayedView(models.Model):
    """What the spectators of a delayed table see of its match (``games.live.delay`` alone writes
    it): the version their view shows, that moment's round, levels and — once the view reaches
    the end — winner, and the pace the view moves at.

    ``lag_seconds`` is how long after a move was played spectators are shown it; ``due_at`` the
    next time the view moves on (None: it waits for a live move).
    """

    match = models.OneToOneField(
        Match, on_delete=models.CASCADE, primary_key=True, related_name="delayed"
    )
    version = models.PositiveIntegerField(default=0)
    round_no = models.PositiveSmallIntegerField(default=1)
    level_team0 = models.PositiveSmallIntegerField(default=2)
    level_team1 = models.PositiveSmallIntegerField(default=2)
    winner_team = models.PositiveSmallIntegerField(null=True, blank=True)
    lag_seconds = models.FloatField(default=0.0)
    due_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            # The sweep: views whose next step is overdue (a wake-up lost to a crash).
            models.Index(
                fields=["due_at"],
                name="delayed_view_due_idx",
                condition=models.Q(due_at__isnull=False),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match} as spectators see it (version {self.version})"

    @staticmethod
    def revealed_q(table: str = "") -> models.Q:
        """The ``Q`` of the tables (reached by ``table``: ``""`` for ``Table``, ``"table__"``
        from a match, a seat or a rematch) whose spectators see what their players see: no
        delay, a match without a view (older than the delay, or never stepped), or a view that
        reached the end. For a finished match: its result is public. The rule is
        ``games.live.visibility``'s (``result_public``); it is spelled here, in the models, so
        that ``games.access`` (below ``games.live``) filters with it too."""
        return (
            models.Q(**{f"{table}spectator_delay": 0})
            | models.Q(**{f"{table}match__delayed__isnull": True})
            | models.Q(**{f"{table}match__delayed__winner_team__isnull": False})
        )

    @staticmethod
    def unrevealed_q(table: str = "") -> models.Q:
        """The complement of ``revealed_q``: a delayed table whose match's view has not reached
        the end yet (written out: a negated OR over nullable joins is easy to get wrong)."""
        return models.Q(
            **{
                f"{table}spectator_delay__gt": 0,
                f"{table}match__delayed__isnull": False,
                f"{table}match__delayed__winner_team__isnull": True,
            }
        )


class Round(models.Model):
    """One round's summary: level, dealer, leader, finish order, caught seats, levels after."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    level = models.PositiveSmallIntegerField()
    levels_before = models.JSONField()
    levels_after = models.JSONField(null=True, blank=True)
    dealer = models.PositiveSmallIntegerField(null=True, blank=True)
    leader = models.PositiveSmallIntegerField()
    finish_order = models.JSONField(default=list)
    caught = models.JSONField(default=list)
    winner_team = models.PositiveSmallIntegerField(null=True, blank=True)
    started_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="unique_round_number")
        ]
        indexes = [
            # The review sweep's scan (``games.records.reviews.missing``): rounds ended in its
            # window, oldest first; rounds being played (no end yet) are left out of the index.
            models.Index(
                fields=["ended_at"],
                name="round_ended_at",
                condition=models.Q(ended_at__isnull=False),
            )
        ]

    def __str__(self) -> str:
        return f"{self.match} round {self.number}"


class Move(models.Model):
    """The append-only move log: one row per accepted action, numbered per match.

    ``seq`` equals the match version the action produced, so replaying the moves in order from
    ``new_match(options, seed)`` rebuilds ``Match.state`` exactly. ``events`` are the engine's
    events as JSON (``engine.codec.event_to_json``; read them back with ``events_from_json``) —
    a pending claim's cards included — so they are shown only through
    ``engine.views.event_for``. ``client_id`` recognises a resent message (DESIGN.md rule 1).
    ``seat`` is None for the clock (timeouts, next round). ``by_ai``: an AI policy chose the
    move (an AI seat, or the stand-in playing a person's seat, ``games.play.standins``), so it is
    not that person's decision (their round review leaves it out, issue 20).
    """

    # No index of its own: ``unique_move_seq`` (match, seq) leads with it, and every move
    # logged wrote a second one (issue 19).
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="moves", db_index=False)
    seq = models.PositiveIntegerField()
    round_no = models.PositiveSmallIntegerField()
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    action = models.JSONField()
    events = models.JSONField()
    client_id = models.CharField(max_length=64, blank=True)
    by_ai = models.BooleanField(default=False, db_default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["seq"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seq"], name="unique_move_seq"),
            models.UniqueConstraint(
                fields=["match", "client_id"],
                name="unique_move_client_id",
                condition=~models.Q(client_id=""),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match} #{self.seq} {self.action.get('type')}"


class TributeRecord(models.Model):
    """A tribute paid and its return (§9), shown to everyone (§9.5)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="tribute_records")
    round_no = models.PositiveSmallIntegerField()
    payer = models.PositiveSmallIntegerField()
    receiver = models.PositiveSmallIntegerField()
    card = models.CharField(max_length=3)
    returned_card = models.CharField(max_length=3, blank=True)
    returned_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["round_no", "id"]

    def __str__(self) -> str:
        return f"{self.match} round {self.round_no}: {self.payer} pays {self.receiver}"


class Rematch(models.Model):
    """A rematch asked for at a finished table (``games.play.rematches`` alone writes it): the same
    seats and options at a new table, once the people asked have answered or ``deadline``
    passed.

    ``people`` maps each person's seat number (a string, as JSON keys are) to their user id,
    as seated when the rematch was asked; ``answers`` maps seat numbers to ``"yes"`` or
    ``"no"``. ``new_table`` is set when the rematch is settled.
    """

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="rematch")
    new_table = models.OneToOneField(
        Table, null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch_of"
    )
    proposer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    people = models.JSONField(default=dict)
    answers = models.JSONField(default=dict)
    deadline = models.DateTimeField()
    created_at = models.DateTimeField(auto_now_add=True)
    settled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            # The sweep: rematches still asking whose deadline passed.
            models.Index(
                fields=["deadline"],
                name="rematch_asking_deadline_idx",
                condition=models.Q(settled_at__isnull=True),
            ),
        ]

    def __str__(self) -> str:
        return f"rematch of {self.table}"

    @property
    def settled(self) -> bool:
        return self.settled_at is not None


# --- per-match player statistics (games.records.player_stats) -------------------------------------


class MatchTally(models.Model):
    """A finished match whose statistics (and, if ``rated``, site ratings) are recorded: the
    marker that makes ``games.records.player_stats`` count a match once, whatever the signals."""

    match = models.OneToOneField(
        "games.Match", on_delete=models.CASCADE, primary_key=True, related_name="tally"
    )
    rated = models.BooleanField(default=False)
    recorded_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"tally of {self.match}"


class PlayerMatch(models.Model):
    """One person's part in one finished match (RULES.md §6–§8): the seat they held when it
    ended, whether their team won, the rounds their team took (§7: all its seats out first),
    the rounds they went out first, the levels their team gained (its final level − 2, §8),
    and the hooks, unhooks and bombs made from their seat (an AI stand-in's too). Counted once
    when the match ends (``games.records.player_stats``): profiles add these rows up instead of
    reading move logs."""

    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="player_stats")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="match_stats"
    )
    seat = models.PositiveSmallIntegerField()
    team = models.PositiveSmallIntegerField()
    won = models.BooleanField()
    rated = models.BooleanField(default=False)
    resigned = models.BooleanField(default=False)
    rounds_played = models.PositiveSmallIntegerField(default=0)
    rounds_won = models.PositiveSmallIntegerField(default=0)
    first_out = models.PositiveSmallIntegerField(default=0)
    levels_gained = models.PositiveSmallIntegerField(default=0)
    hooks = models.PositiveSmallIntegerField(default=0)
    unhooks = models.PositiveSmallIntegerField(default=0)
    bombs = models.PositiveSmallIntegerField(default=0)
    finished_at = models.DateTimeField()

    class Meta:
        ordering = ["-finished_at"]
        constraints = [
            models.UniqueConstraint(fields=["match", "user"], name="one_tally_per_player")
        ]
        indexes = [models.Index(fields=["user", "-finished_at"], name="player_match_user_idx")]

    def __str__(self) -> str:
        return f"{self.user} in {self.match}"


# The table chat's models live in their own module; importing them here registers them with
# the games app (its migrations, its admin section).
