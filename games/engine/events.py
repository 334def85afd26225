"""What an accepted action caused: one frozen dataclass per kind of event.

``rules.apply`` reports them in ``Outcome.events``, in the order they happened. Each class's
``kind`` is the ``type`` its JSON carries (``codec.event_to_json``/``event_from_json``, the shape
docs/MATCH_FORMAT.md gives, which ``Move.events`` stores). Cards are tuples of notation strings
(``cards``); seats, teams and places are numbers; ranks are numbers (``cards.RANKS``, 14 = A),
which the codec prints as level strings where the format asks for them (``RoundOver``).

An ``Answered`` event holds a pending claim's cards (§6.4): show it to anyone but the answering
seat through ``views.event_for``, which gives them a ``HiddenAnswer`` (who answered, not what).
The engine itself never emits a ``HiddenAnswer``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True, slots=True)
class Played:
    """A lead or a follow (§5): ``combination`` is its category (``combos``), a bomb's too."""

    kind: ClassVar[str] = "play"
    seat: int
    cards: tuple[str, ...]
    combination: str


@dataclass(frozen=True, slots=True)
class Bombed:
    """A bomb into an open claim window (§6.4 ``bomb_in_window``)."""

    kind: ClassVar[str] = "bomb"
    seat: int
    cards: tuple[str, ...]
    combination: str


@dataclass(frozen=True, slots=True)
class Passed:
    """A follower declined to beat the top play (§5); ``timeout``: its clock ran out."""

    kind: ClassVar[str] = "pass"
    seat: int
    timeout: bool


@dataclass(frozen=True, slots=True)
class WindowOpened:
    """A claim window opened, owned by ``owner`` (§6.1): ``face`` a rank (16/17 jokers),
    ``mode`` ``hook`` or ``unhook``, ``chain`` after a won claim (§6.5)."""

    kind: ClassVar[str] = "window"
    owner: int
    face: int
    mode: str
    chain: bool


@dataclass(frozen=True, slots=True)
class Answered:
    """A seat answered the open window (§6.3): its claim's cards, or None for a pass.
    Secret until the window resolves (§6.4): see ``views.event_for``."""

    kind: ClassVar[str] = "answer"
    seat: int
    cards: tuple[str, ...] | None


@dataclass(frozen=True, slots=True)
class HiddenAnswer:
    """An ``Answered`` as every seat but the answering one sees it: who answered, not what.
    Made by ``views.event_for`` only; its JSON is an ``answer`` without ``cards``."""

    kind: ClassVar[str] = "answer"
    seat: int


@dataclass(frozen=True, slots=True)
class Outranked:
    """``seat``'s claim lost to the nearer claim of ``by`` (§6.3); told to ``seat`` only."""

    kind: ClassVar[str] = "outranked"
    seat: int
    by: int


@dataclass(frozen=True, slots=True)
class Hooked:
    """A hook won the window of ``owner``: its pair is the new top play (§6)."""

    kind: ClassVar[str] = "hook"
    seat: int
    cards: tuple[str, ...]
    owner: int


@dataclass(frozen=True, slots=True)
class Unhooked:
    """An unhook won the window of ``owner``: its single is the new top play (§6)."""

    kind: ClassVar[str] = "unhook"
    seat: int
    cards: tuple[str, ...]
    owner: int


@dataclass(frozen=True, slots=True)
class WindowClosed:
    """The window of ``owner`` closed unclaimed, or (``bombed``) a bomb closed it (§6.4)."""

    kind: ClassVar[str] = "window_closed"
    owner: int
    bombed: bool = False


@dataclass(frozen=True, slots=True)
class WindowExpired:
    """The window's clock ran out: the seats that had not answered pass (§6.3)."""

    kind: ClassVar[str] = "window_expired"
    owner: int


@dataclass(frozen=True, slots=True)
class TrickWon:
    """``seat`` won the trick; ``leader`` leads the next one (§5, §6.6)."""

    kind: ClassVar[str] = "trick_won"
    seat: int
    leader: int


@dataclass(frozen=True, slots=True)
class Finished:
    """``seat`` played its last card and went out, ``place`` 1 first (§7)."""

    kind: ClassVar[str] = "finished"
    seat: int
    place: int


@dataclass(frozen=True, slots=True)
class TimedOut:
    """The seat to act ran out of time (§10 ``turn_seconds``); a ``Passed`` or ``Played``
    follows."""

    kind: ClassVar[str] = "timeout"
    seat: int


@dataclass(frozen=True, slots=True)
class RoundOver:
    """The round ended: every seat of ``team`` went out (§7), ``caught`` the opponents still
    holding cards; ``levels`` both teams' levels after it and ``next_level`` the next round's
    (ranks; None when the match is over); ``match_winner`` a team or None (§8)."""

    kind: ClassVar[str] = "round_over"
    team: int
    caught: tuple[int, ...]
    levels: tuple[int, int]
    next_level: int | None
    match_winner: int | None


@dataclass(frozen=True, slots=True)
class MatchOver:
    """The match is over, won by team ``winner`` (§8, or a resignation)."""

    kind: ClassVar[str] = "match_over"
    winner: int


@dataclass(frozen=True, slots=True)
class Resigned:
    """``seat`` conceded the match for its ``team`` (not a rule of 414: the site's)."""

    kind: ClassVar[str] = "resign"
    seat: int
    team: int


@dataclass(frozen=True, slots=True)
class Dealt:
    """Round ``round`` was dealt by ``dealer``, played at ``level`` (a rank) (§1, §8)."""

    kind: ClassVar[str] = "deal"
    round: int
    dealer: int
    level: int


@dataclass(frozen=True, slots=True)
class TributePaid:
    """``payer`` gave ``card`` to ``receiver`` as tribute (§9); public (§9.5)."""

    kind: ClassVar[str] = "tribute"
    payer: int
    receiver: int
    card: str


@dataclass(frozen=True, slots=True)
class Returned:
    """Tribute receiver ``seat`` gave ``card`` back to its payer ``to`` (§9.4)."""

    kind: ClassVar[str] = "return"
    seat: int
    to: int
    card: str


@dataclass(frozen=True, slots=True)
class Led:
    """Every return was made: ``seat`` leads the round (§9.4)."""

    kind: ClassVar[str] = "lead"
    seat: int


#: Any event. ``HiddenAnswer`` only comes out of ``views.event_for``.
Event = (
    Played
    | Bombed
    | Passed
    | WindowOpened
    | Answered
    | HiddenAnswer
    | Outranked
    | Hooked
    | Unhooked
    | WindowClosed
    | WindowExpired
    | TrickWon
    | Finished
    | TimedOut
    | RoundOver
    | MatchOver
    | Resigned
    | Dealt
    | TributePaid
    | Returned
    | Led
)

#: Every event class, in the order the list above gives them.
EVENT_TYPES: tuple[type[Event], ...] = (
    Played,
    Bombed,
    Passed,
    WindowOpened,
    Answered,
    HiddenAnswer,
    Outranked,
    Hooked,
    Unhooked,
    WindowClosed,
    WindowExpired,
    TrickWon,
    Finished,
    TimedOut,
    RoundOver,
    MatchOver,
    Resigned,
    Dealt,
    TributePaid,
    Returned,
    Led,
)
