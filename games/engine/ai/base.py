"""The ``Policy`` protocol and the two simple policies: ``RandomPolicy`` and ``HeuristicPolicy``.

Every policy has ``choose(view, legal, rng) -> action``; ``legal`` is ``legal_actions(state,
seat)`` for the policy's seat (it depends only on that seat's hand and the public table) and is
never empty when the seat is asked to act. Randomness comes from the ``rng`` passed in.

- ``RandomPolicy``: uniform over the legal actions.
- ``HeuristicPolicy``: leads its weakest combination (shedding the most cards), follows with the
  weakest combination that beats, does not beat its partner's winning play, keeps bombs until
  an opponent is close to going out (or the bomb finishes it), hooks when that takes control from
  an opponent, and returns its weakest card as tribute return.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Protocol

from ..actions import Action, Hook, Pass, Play, Return, Unhook
from ..cards import FACE
from ..combos import Combo, classify
from ..power import table_for
from ..rules import legal_actions, seats_to_act
from ..state import State
from ..views import View, seat_view

#: An opponent holding this many cards or fewer is "close to going out": bombs come out.
DANGER_CARDS = 6


class Policy(Protocol):
    name: str

    def choose(self, view: View, legal: list[Action], rng: random.Random) -> Action:
        """Pick one action of ``legal`` (never empty) for ``view.seat``."""
        ...


def seat_of(view: View) -> int:
    """The seat a policy plays: a seat's view, never a spectator's."""
    seat = view.seat
    if seat is None:
        raise ValueError("a policy plays a seat's view, not a spectator's")
    return seat


def act(state: State, policies: Sequence[Policy], rng: random.Random) -> Action:
    """The next action of a round played by ``policies`` (one per seat): the one seat that may
    act (§5), or a randomly chosen one of several (a claim window's answers arrive in a random
    order, §6; tribute returns, §9), decides from its own view. Shared by ``simulate.step``
    and the review's ``record.play_round``. Precondition: some seat may act (the round is not
    over)."""
    seats = seats_to_act(state)
    seat = seats[0] if len(seats) == 1 else rng.choice(seats)
    return policies[seat].choose(seat_view(state, seat), legal_actions(state, seat), rng)


def combo_of(play: Play, view: View) -> Combo:
    """The combination of a legal play (always one)."""
    combo = classify(play.cards, view.level, view.options)
    if combo is None:
        # Names no card: a worker logs what it raises (DESIGN.md rule 2).
        raise AssertionError("a legal play is no combination")
    return combo


class RandomPolicy:
    """Uniform over the legal actions."""

    name = "random"

    def choose(self, view: View, legal: list[Action], rng: random.Random) -> Action:
        return rng.choice(legal)


class HeuristicPolicy:
    """A sensible, fast player (see the module docstring)."""

    name = "heuristic"

    def choose(self, view: View, legal: list[Action], rng: random.Random) -> Action:
        first = legal[0]
        if isinstance(first, Return):
            return self._weakest_return(view, [a for a in legal if isinstance(a, Return)])
        claims = [a for a in legal if isinstance(a, (Hook, Unhook))]
        if view.window is not None:
            return self._answer_window(view, claims)
        plays = [a for a in legal if isinstance(a, Play)]
        if view.top is None:
            return self._lead(view, plays)
        return self._follow(view, plays)

    def _weakest_return(self, view: View, legal: list[Return]) -> Return:
        power = table_for(view.level, view.options)
        return min(legal, key=lambda a: power[FACE[a.card]])

    def _answer_window(self, view: View, claims: list[Hook | Unhook]) -> Action:
        seat = seat_of(view)
        assert view.window is not None
        if claims and (view.window.owner % 2 != seat % 2 or len(view.hand) <= 2):
            return claims[0]
        return Pass(seat)

    def _combos(self, view: View, plays: list[Play]) -> list[tuple[Combo, Play]]:
        return [(combo_of(p, view), p) for p in plays]

    def _lead(self, view: View, plays: list[Play]) -> Action:
        scored = self._combos(view, plays)
        for combo, play in scored:
            if combo.size == len(view.hand):
                return play  # going out beats everything else
        power = table_for(view.level, view.options)
        normal = [(c, p) for c, p in scored if not c.is_bomb] or scored
        return min(
            normal,
            key=lambda cp: (_weakest(cp[1].cards, power), -cp[0].size, cp[0].is_bomb, cp[0].key),
        )[1]

    def _follow(self, view: View, plays: list[Play]) -> Action:
        seat = seat_of(view)
        assert view.top is not None
        scored = self._combos(view, plays)
        for combo, play in scored:
            if combo.size == len(view.hand):
                return play
        if view.top.seat % 2 == seat % 2:
            return Pass(seat)  # partner is winning the trick
        normal = [(c, p) for c, p in scored if not c.is_bomb]
        if normal:
            return min(normal, key=lambda cp: cp[0].key)[1]
        bombs = [(c, p) for c, p in scored if c.is_bomb]
        if bombs and self._bomb_matters(view):
            return min(bombs, key=lambda cp: cp[0].key)[1]
        return Pass(seat)

    def _bomb_matters(self, view: View) -> bool:
        seat = seat_of(view)
        opponents = [view.hand_sizes[s] for s in range(1 - seat % 2, view.players, 2)]
        return any(0 < n <= DANGER_CARDS for n in opponents) or len(view.hand) <= DANGER_CARDS


def _weakest(cards: Iterable[str], power: Sequence[float]) -> float:
    return min(power[FACE[c]] for c in cards)
