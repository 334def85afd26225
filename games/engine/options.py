"""Table options (RULES.md §10): the knobs a host may change, validated once.

``Options`` is frozen; ``Options.from_dict`` reads the JSON names of §10 (faces as strings).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from .cards import CardError, face_name, parse_face

ACE = 14


class OptionsError(ValueError):
    """An option with an unknown name or a value outside §10."""


#: The options that take one of a few values (§10), each's values with the default first.
CHOICES: dict[str, tuple[str, ...]] = {
    "two_position": ("low", "high"),
    "bomb_order": ("four_one_four_top", "jokers_top"),
    "lead_after_out": ("teammate", "next_player"),
    "first_lead": ("top_payer", "top_finisher"),
}
#: The options that are on or off (§10), all off by default.
FLAGS = ("two_in_sequences", "joker_hook", "bomb_in_window", "anti_tribute")
#: The levels a match may be played to: A (a full match), or 3..K for a quick match (§10).
TARGET_LEVELS: tuple[int, ...] = (ACE, *range(3, ACE))


@dataclass(frozen=True, slots=True)
class Options:
    """One table's rules options (§10); defaults first in every field.

    ``decks`` of 0 means players/2 (§1). ``target_level`` is a rank (14 = A; 3..13 is a quick
    match). ``claim_window_seconds`` and ``turn_seconds`` are for the caller's clock: the engine
    only stores them (0 claim seconds disables hooking: no window ever opens).
    """

    players: int = 4
    decks: int = 0
    two_position: str = "low"
    two_in_sequences: bool = False
    bomb_order: str = "four_one_four_top"
    joker_hook: bool = False
    bomb_in_window: bool = False
    lead_after_out: str = "teammate"
    first_lead: str = "top_payer"
    anti_tribute: bool = False
    target_level: int = ACE
    claim_window_seconds: float = 4
    turn_seconds: float = 30

    def __post_init__(self) -> None:
        if not isinstance(self.players, int) or self.players < 2 or self.players % 2:
            raise OptionsError("players must be an even number, at least 2")
        if type(self.decks) is int and self.decks == 0:
            object.__setattr__(self, "decks", self.players // 2)
        if type(self.decks) is not int or self.decks < 1:  # bools are no deck counts
            raise OptionsError("decks must be a positive number")
        for name, allowed in CHOICES.items():
            if getattr(self, name) not in allowed:
                raise OptionsError(f"{name} must be one of {', '.join(allowed)}")
        for name in FLAGS:
            if not isinstance(getattr(self, name), bool):
                raise OptionsError(f"{name} must be true or false")
        if type(self.target_level) is not int or self.target_level not in TARGET_LEVELS:
            raise OptionsError("target_level must be a level from 3 to A")
        for name in ("claim_window_seconds", "turn_seconds"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
                raise OptionsError(f"{name} must be a number of seconds, 0 or more")

    @property
    def hooking(self) -> bool:
        """Whether claim windows open at all (§10: ``claim_window_seconds`` 0 disables them)."""
        return self.claim_window_seconds > 0

    @property
    def twos_in_sequences(self) -> bool:
        """2 sits below 3 in straights and double dragons (§3; no effect with 2 high)."""
        return self.two_in_sequences and self.two_position == "low"

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None, **top_level: Any) -> Options:
        """Build from §10's JSON names; ``target_level`` may be a face string (``"A"``, ``"5"``).

        Raises OptionsError for unknown names or bad values.
        """
        values = dict(data or {})
        values.update({k: v for k, v in top_level.items() if v is not None})
        unknown = set(values) - set(cls.__dataclass_fields__)
        if unknown:
            raise OptionsError(f"unknown option {sorted(unknown)[0]!r}")
        if "target_level" in values and isinstance(values["target_level"], str):
            try:
                values["target_level"] = parse_face(values["target_level"])
            except CardError as e:
                raise OptionsError(str(e)) from None
        try:
            return cls(**values)
        except TypeError as e:
            raise OptionsError(str(e)) from None

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly dict (``target_level`` as a face string); inverse of ``from_dict``."""
        data = asdict(self)
        data["target_level"] = face_name(self.target_level)
        return data
