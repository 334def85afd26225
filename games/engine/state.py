"""The frozen state of a match in progress, and small read-only questions about it.

Everything is a ``NamedTuple`` (immutable, cheap to copy with ``_replace``). Seats are ints
0..N-1 clockwise; team = seat mod 2 (§0, §1). Ranks are ints (see ``cards``).

Phases:
- ``tribute``: the round is dealt, tribute paid, returns awaited (§9);
- ``play``: normal play, ``turn`` is the seat to act (§5);
- ``window``: a claim window is open (§6); ``turn`` is None;
- ``round_over``: the round ended (§7, §8); ``NextRound`` deals the next one;
- ``match_over``: a team won the match (§8); nothing more is accepted.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .combos import Combo
from .options import Options

TRIBUTE = "tribute"
PLAY = "play"
WINDOW = "window"
ROUND_OVER = "round_over"
MATCH_OVER = "match_over"

HOOK = "hook"
UNHOOK = "unhook"
#: A window answer that declines (``Window.answers``): an empty claim.
PASSED: tuple[str, ...] = ()


class Top(NamedTuple):
    """The top play of the trick: who played it, the cards, and its combination."""

    seat: int
    cards: tuple[str, ...]
    combo: Combo


class TrickEntry(NamedTuple):
    """One public step of the current trick: ``kind`` is play, pass, hook, unhook or bomb."""

    seat: int
    kind: str
    cards: tuple[str, ...]


class Window(NamedTuple):
    """An open claim window (§6).

    ``answers[seat]`` is None (not answered yet), ``PASSED`` (declined) or the claim's cards
    (pending until priority settles it; the cards stay in the hand meanwhile).
    """

    owner: int
    face: int
    mode: str
    chain: bool
    answers: tuple[tuple[str, ...] | None, ...]


class Tribute(NamedTuple):
    """One tribute of §9: payer gives ``card`` to receiver, who returns ``returned`` (or None)."""

    payer: int
    receiver: int
    card: str
    returned: str | None = None


class RoundResult(NamedTuple):
    """How a round ended (§7, §8): the finishing team, caught seats and the levels after it.

    A resignation ends the round and the match at once (``actions.Resign``): ``team`` and
    ``match_winner`` are then the other team, nobody is caught, the levels stay, and
    ``resigned`` is the seat that resigned (None for every round played out).
    """

    team: int
    caught: tuple[int, ...]
    levels: tuple[int, int]
    next_level: int | None
    match_winner: int | None
    resigned: int | None = None


class State(NamedTuple):
    """A match at one moment. ``version`` grows by one with every accepted action."""

    options: Options
    seed: int
    round_no: int
    version: int
    phase: str
    level: int
    levels: tuple[int, int]
    dealer: int | None
    leader: int
    hands: tuple[tuple[str, ...], ...]
    turn: int | None
    top: Top | None
    passed: frozenset[int]
    trick: tuple[TrickEntry, ...]
    window: Window | None
    finished: tuple[int, ...]
    tributes: tuple[Tribute, ...]
    result: RoundResult | None

    @property
    def players(self) -> int:
        return self.options.players


def team_of(seat: int) -> int:
    """Team 0 holds the even seats, team 1 the odd ones (§0)."""
    return seat % 2


def is_active(state: State, seat: int) -> bool:
    """A seat is active while it holds cards (finished seats are skipped, §5)."""
    return bool(state.hands[seat])


def next_active(hands: Sequence[Sequence[str]], seat: int) -> int:
    """The next seat clockwise after ``seat`` that still holds cards (§5)."""
    n = len(hands)
    for step in range(1, n + 1):
        other = (seat + step) % n
        if hands[other]:
            return other
    raise AssertionError("no active seat: the round should have ended")


def next_active_teammate(hands: Sequence[Sequence[str]], seat: int) -> int | None:
    """The next seat clockwise of ``seat``'s team that holds cards, or None."""
    n = len(hands)
    for step in range(2, n + 1, 2):
        other = (seat + step) % n
        if hands[other]:
            return other
    return None


def team_out(hands: Sequence[Sequence[str]], team: int) -> bool:
    """Whether every seat of ``team`` has finished (§7)."""
    return not any(hands[s] for s in range(team, len(hands), 2))
