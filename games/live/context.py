"""The table context: everything the table's regions show one viewer (a seat or a spectator).

``presenters.table_context`` builds it from that viewer's engine view only (one seat's hand or
none: a spectator's context holds no hand); ``regions`` declares which fields each region of the
page reads, which gives both the region's delta key and the only fields its template is
rendered with. A field a region's template reads is a field it declares, so a change of that
field re-renders the region.

Some fields are derived for one region, so that its key holds just what it shows: the status
reads ``turn`` and ``round_no`` (not the whole view), the trick ``trick_leader``, the claim bar
``own_window``, the tribute ``in_tribute``, the seat buttons ``play_phase``, a seat row
``window_open``. The countdowns (``countdown``, ``rematch_countdown``) are clocks: a region shows
them but no key holds them (``regions.Region.clocks``).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from games.models import Match, Table

#: A plain row of template data (a seat, a trick entry, a card face…).
Row = dict[str, Any]


@dataclass(frozen=True, slots=True)
class TableContext:
    """One viewer's table. Fields after ``table_delay`` are those of a match (their defaults:
    no match yet)."""

    # The table's own: the same in every view of the table at one revision, which every two
    # views whose keys are compared share (``regions.FIXED``).
    table: Table
    match: Match | None
    ai_policies: tuple[tuple[str, str], ...]
    ai_fill_default: str
    # The viewer: a seat number (None: a spectator), and who they are (a push renders for
    # nobody in particular: not signed in, not the host).
    me: int | None
    is_host: bool
    signed_in: bool
    # The seating.
    is_open: bool
    # The viewer hosts the table and may close it (not started, not an organiser's).
    can_close: bool
    # The viewer sits alone at a table not started: leaving closes it (``tables.leave_seat``),
    # so "Leave seat" asks first, as "Close table" does.
    leave_closes: bool
    seats_full: bool
    # The table is rated but its match will not count for ratings: an AI plays a seat
    # (``games.models.ai_plays_a_seat``); said beside the start.
    rated_uncounted: bool
    invite_path: str
    seats: list[Row]
    # The spectators: how many watch (None: unknown) and how late this viewer sees the table.
    spectators: int | None
    spectator_delay: int
    table_delay: int
    # The match as this viewer sees it.
    # Why it was stopped before its end (its table abandoned), for the status: "" while it runs
    # or once it has a result; "nobody" when only stand-ins were left to play it (every person
    # had left or was away: ``games.play.unattended``); "stopped" otherwise (an organiser's).
    stopped: str = ""
    version: int | None = None
    phase: str | None = None
    turn: int | None = None
    round_no: int | None = None
    round_level: str | None = None
    levels: list[str] | None = None
    my_turn: bool = False
    # The AI standing in for this viewer takes their turn now (``games.live.own_seat``).
    ai_turn_for_me: bool = False
    turn_name: str = ""
    countdown: Row | None = None
    trick: list[Row] | None = None
    trick_leader: str | None = None
    top: Row | None = None
    window: Row | None = None
    my_window: Row | None = None
    own_window: bool = False
    window_open: bool = False
    # The seats whose player's page went away, played by that person (``games.live.away``).
    away: tuple[int, ...] = ()
    claim: Row | None = None
    # The claim window explained, for a person's first few windows (``games.live.claim_help``).
    claim_help: Row | None = None
    tributes: list[Row] | None = None
    in_tribute: bool = False
    returns: list[Any] | None = None
    result: Row | None = None
    match_over: bool = False
    hand: list[Row] | None = None
    hand_size: int | None = None
    hints: str | None = None
    can_pass: bool = False
    play_phase: bool = False
    tracker: list[Row] | None = None
    seat_menu: Row | None = None
    rematch: Row | None = None
    rematch_countdown: Row | None = None
    log: list[str] | None = None

    def as_dict(self) -> dict[str, Any]:
        """Every field by name (not a deep copy): for a page that renders the whole table at
        once (``games.views.table``) and adds its own entries."""
        return {name: getattr(self, name) for name in FIELDS}


#: The names of the fields, in order.
FIELDS: tuple[str, ...] = tuple(f.name for f in fields(TableContext))
