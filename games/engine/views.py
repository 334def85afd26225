"""What a seat, a spectator, or everyone after the match may see (RULES.md §6.4, §9.5).

A ``View`` never holds another seat's cards: only its own hand (a seat view), every seat's card
count, every card played this round (``played``: public, they were all shown), the public trick,
the open window with *who* has answered (not *what*, §6.4), levels, finish order and the
tribute cards (shown to all, §9.5). ``reveal`` shows every hand, and only once the match is over.
``event_for`` filters an ``Outcome``'s events the same way.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from itertools import chain, repeat
from operator import mul, sub
from typing import NamedTuple

from .cards import full_deck
from .events import Answered, Event, HiddenAnswer, Outranked
from .options import Options
from .state import MATCH_OVER, RoundResult, State, Top, Tribute, TrickEntry


class WindowView(NamedTuple):
    """An open claim window as everyone sees it: ``answered[seat]`` is True once it answered."""

    owner: int
    face: int
    mode: str
    chain: bool
    answered: tuple[bool, ...]


class View(NamedTuple):
    """One viewer's projection of a match. ``seat`` is None for a spectator (``hand`` empty);
    ``my_answer`` is the seat's own answer to the open window (None, ``()`` pass, or its claim);
    ``hands`` is None except in ``reveal``; ``played`` is every card played this round (plays,
    hooks, unhooks, bombs; in canonical order), which everyone saw: the deck minus all hands."""

    seat: int | None
    options: Options
    version: int
    round_no: int
    phase: str
    level: int
    levels: tuple[int, int]
    dealer: int | None
    leader: int
    hand: tuple[str, ...]
    hand_sizes: tuple[int, ...]
    turn: int | None
    top: Top | None
    trick: tuple[TrickEntry, ...]
    window: WindowView | None
    my_answer: tuple[str, ...] | None
    finished: tuple[int, ...]
    tributes: tuple[Tribute, ...]
    result: RoundResult | None
    hands: tuple[tuple[str, ...], ...] | None = None
    played: tuple[str, ...] = ()

    @property
    def players(self) -> int:
        return self.options.players


def _project(state: State, seat: int | None) -> View:
    window = state.window
    public_window = None
    my_answer = None
    if window is not None:
        public_window = WindowView(
            window.owner,
            window.face,
            window.mode,
            window.chain,
            tuple(a is not None for a in window.answers),
        )
        if seat is not None:
            my_answer = window.answers[seat]
    return View(
        seat=seat,
        options=state.options,
        version=state.version,
        round_no=state.round_no,
        phase=state.phase,
        level=state.level,
        levels=state.levels,
        dealer=state.dealer,
        leader=state.leader,
        hand=state.hands[seat] if seat is not None else (),
        hand_sizes=tuple(len(h) for h in state.hands),
        turn=state.turn,
        top=state.top,
        trick=state.trick,
        window=public_window,
        my_answer=my_answer,
        finished=state.finished,
        tributes=state.tributes,
        result=state.result,
        played=played_cards(state),
    )


@cache
def _deck_counts(decks: int) -> tuple[tuple[str, ...], tuple[tuple[str], ...], tuple[int, ...]]:
    """The decks' distinct cards in canonical order, each alone in a tuple, and how many of
    each the decks hold."""
    counts = Counter(full_deck(decks))
    return tuple(counts), tuple((card,) for card in counts), tuple(counts.values())


type _Hands = tuple[tuple[str, ...], ...]

#: The hands ``played_cards`` counted last (with the number of decks) and their played cards:
#: the views of one state share them, and so do the states after a pass, a claim window's
#: answer or a timeout, which keep the hands tuple as it was. One entry, held by identity (a
#: held tuple's identity is never reused), replaced whole (a thread never reads half a pair).
_last_played: tuple[_Hands | None, int, tuple[str, ...]] = (None, 0, ())


def played_cards(state: State) -> tuple[str, ...]:
    """Every card played this round, in canonical order: the decks minus every hand (tribute
    only moves cards between hands, and a pending claim's cards stay in its hand, §6.4)."""
    global _last_played
    hands, decks = state.hands, state.options.decks
    last = _last_played
    if last[0] is hands and last[1] == decks:
        return last[2]
    held = Counter(chain.from_iterable(hands))
    cards, alone, counts = _deck_counts(decks)
    # each card repeated (its copies in the decks minus those held) times, in C
    missing = map(sub, counts, map(held.get, cards, repeat(0)))
    played = tuple(chain.from_iterable(map(mul, alone, missing)))
    _last_played = (hands, decks, played)
    return played


def seat_view(state: State, seat: int, public: View | None = None) -> View:
    """What ``seat`` sees: its own hand and the public table. Raises ValueError for no such seat.

    ``public``: ``spectator_view(state)`` of this very state, when the caller already has it
    (several views of one state: a push): only the seat's own fields — its hand and its answer
    to the open window — are then added to it, the public ones are not projected again."""
    if type(seat) is not int or not 0 <= seat < state.players:
        raise ValueError(f"no seat {seat!r} at this table")
    if public is None:
        return _project(state, seat)
    window = state.window
    return public._replace(
        seat=seat,
        hand=state.hands[seat],
        my_answer=window.answers[seat] if window is not None else None,
    )


def spectator_view(state: State) -> View:
    """What a spectator sees: the public table, no hand at all."""
    return _project(state, None)


def reveal(state: State) -> View:
    """Every hand, for replays of a finished match. Raises ValueError while the match is on."""
    if state.phase != MATCH_OVER:
        raise ValueError("hands are revealed only after the match is over")
    return _project(state, None)._replace(hands=state.hands)


def event_for(event: Event, seat: int | None) -> Event | None:
    """The event as ``seat`` (None: a spectator) may see it, or None when it is hidden.

    A window answer shows who answered, and its cards only to the answering seat (§6.4: any
    other viewer gets a ``HiddenAnswer``); an outranked claim is told to its claimant only
    (§6.3). Every other event is public.
    """
    if isinstance(event, Answered) and event.seat != seat:
        return HiddenAnswer(event.seat)
    if isinstance(event, Outranked) and event.seat != seat:
        return None
    return event
