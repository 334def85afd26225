"""The AI difficulties: the one list of what an AI seat may be, weakest first (docs/AI.md).

A new difficulty is one policy class (``base.Policy``) and one ``Difficulty`` entry in
``DIFFICULTIES``; everything else reads this list: the seat's stored value and the forms
(``games.models.Seat.Policy`` is built from it), the worker's thinking time
(``games.play.ai_turns``), the stand-ins (``games.play.standins``), the simulation CLI
(``simulate``).

- ``key`` is what ``Seat.ai_policy`` stores and forms post: never change an existing one (stored
  rows hold it).
- ``label`` is the name players see, an English msgid. The engine imports no Django: the Django
  side translates it (``gettext_lazy(label)`` in ``Seat.Policy``), and ``gettext_noop`` below only
  marks it for ``makemessages`` (xgettext extracts ``gettext_noop("...")`` literals).
- ``make(time_budget)`` builds the policy for one decision.
- ``time_budget``: seconds one decision may think (wall clock); 0 for a policy that decides at
  once. A difficulty that thinks also answers a claim window after a fixed pause
  (``games.play.ai_turns.answer_pause``), so the moment it answers never depends on its hand (§6.4).

Roles callers need, by key: ``FILL_DEFAULT`` (preselected when a host fills seats with AI),
``STAND_IN`` (plays for a person who is away or left at a casual table: the strongest) and
``RATED_STAND_IN`` (the same at a rated table: handing a seat to the AI must never be a way to a
better rating).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .base import HeuristicPolicy, Policy, RandomPolicy
from .expert import TIME_BUDGET_SECONDS, ExpertPolicy


def gettext_noop(message: str) -> str:
    """``message`` unchanged: marks a label for ``makemessages`` (see the module docstring)."""
    return message


@dataclass(frozen=True)
class Difficulty:
    """One AI difficulty (see the module docstring)."""

    key: str
    label: str
    make: Callable[[float], Policy]
    time_budget: float = 0.0

    @property
    def thinks(self) -> bool:
        """Whether a decision takes time (a search within ``time_budget``)."""
        return self.time_budget > 0

    def policy(self, time_budget: float | None = None) -> Policy:
        """The policy for one decision, thinking for ``time_budget`` seconds (default: the
        difficulty's own)."""
        return self.make(self.time_budget if time_budget is None else time_budget)


def _random(time_budget: float) -> Policy:
    return RandomPolicy()


def _heuristic(time_budget: float) -> Policy:
    return HeuristicPolicy()


def _expert(time_budget: float) -> Policy:
    return ExpertPolicy(time_budget=time_budget)


#: Every difficulty, weakest first (the order forms list them in).
DIFFICULTIES: tuple[Difficulty, ...] = (
    Difficulty("random", gettext_noop("Beginner"), _random),
    Difficulty("heuristic", gettext_noop("Casual"), _heuristic),
    Difficulty("expert", gettext_noop("Expert"), _expert, time_budget=TIME_BUDGET_SECONDS),
)
#: Their keys, weakest first.
KEYS: tuple[str, ...] = tuple(d.key for d in DIFFICULTIES)
_BY_KEY: dict[str, Difficulty] = {d.key: d for d in DIFFICULTIES}

#: Preselected when a host fills the empty seats with AI.
FILL_DEFAULT = "heuristic"
#: Plays for a person who is away or left (casual table); an organiser's default stand-in.
STAND_IN = "expert"
#: Plays for a person at a rated table.
RATED_STAND_IN = "heuristic"


def difficulty(key: str) -> Difficulty:
    """The difficulty stored as ``key``. Raises KeyError for an unknown key."""
    return _BY_KEY[key]


def policy(key: str, time_budget: float | None = None) -> Policy:
    """A policy by difficulty key (``random``, ``heuristic``, ``expert``, ...), thinking for
    ``time_budget`` seconds (default: the difficulty's own). Raises KeyError for an unknown key."""
    return difficulty(key).policy(time_budget)
