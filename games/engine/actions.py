"""What a seat (or the clock) can do, and what ``apply`` answers.

Actions are small immutable values; ``cards`` are tuples of notation strings (``cards`` module).
A timeout is an action like any other: the engine holds no clock (DESIGN.md).
"""

from __future__ import annotations

from typing import NamedTuple

from .events import Event
from .state import State


class Play(NamedTuple):
    """Lead or follow with a combination (§5); under ``bomb_in_window``, a bomb into a window."""

    seat: int
    cards: tuple[str, ...]


class Pass(NamedTuple):
    """Decline to beat the top play (§5), or decline a claim window (§6.2)."""

    seat: int


class Hook(NamedTuple):
    """Claim a just-played single with a pair of its face (§6)."""

    seat: int
    cards: tuple[str, ...]


class Unhook(NamedTuple):
    """Claim a just-hooked pair with a single of its face (§6)."""

    seat: int
    cards: tuple[str, ...]


class Return(NamedTuple):
    """A tribute receiver gives one card back to its payer (§9.4)."""

    seat: int
    card: str


class Resign(NamedTuple):
    """A seat concedes the match for its team: the other team wins it at once. Not a rule of
    414 (RULES.md has no resignation): the site's way to end a match a player will not finish.
    Accepted in any phase until the match is over."""

    seat: int


class Timeout(NamedTuple):
    """The running timer ran out: a window closes, the seat to act times out, or pending
    returns are made (§6.3, §9.4, §10 ``turn_seconds``)."""


class NextRound(NamedTuple):
    """Deal the next round after a round that did not end the match (§1, §9)."""


Action = Play | Pass | Hook | Unhook | Return | Resign | Timeout | NextRound
SEAT_ACTIONS = (Play, Pass, Hook, Unhook, Return, Resign)


class Outcome(NamedTuple):
    """An accepted action: the new state and the events it caused (``events``; as JSON:
    ``codec.event_to_json``).

    Events may hold a pending claim's cards (``Answered``): pass them through
    ``views.event_for`` before showing them to anyone but the answering seat.
    """

    state: State
    events: tuple[Event, ...]


class Rejection(NamedTuple):
    """A refused action: nothing changed. ``code`` is stable (see ``CODES``); ``message`` is
    for people."""

    code: str
    message: str = ""


#: Every rejection code ``apply`` uses, with what it means.
CODES = {
    "malformed": "the action is not one the engine knows, or its fields have the wrong shape",
    "bad_seat": "no such seat at this table",
    "unknown_card": "a card string is not in the notation (e.g. 10S, QD, BJ)",
    "empty_play": "a play needs at least one card",
    "not_in_hand": "the seat does not hold those cards",
    "invalid_combination": "those cards are no combination (§3)",
    "does_not_beat": "the play does not beat the top play (§4, §5)",
    "leader_cannot_pass": "the leader must play (§5)",
    "not_your_turn": "another seat is to act",
    "finished": "the seat has no cards left",
    "window_open": "a claim window is open: only claims and passes now (§6.4)",
    "no_window": "no claim window is open (§6)",
    "invalid_claim": "a hook is two cards, an unhook one, of the window's face and mode (§6)",
    "owner_cannot_claim": "the owner of the window cannot answer it (§6.2)",
    "already_answered": "each seat answers a window once (§6.3)",
    "tribute_pending": "tribute returns are awaited (§9.4)",
    "invalid_return": "not a legal return, or not a receiver, or already returned (§9.4)",
    "round_over": "the round is over",
    "round_not_over": "the round is still being played",
    "match_over": "the match is over",
}
