"""JSON for states and actions: what the database stores and the wire carries.

``state_to_json``/``state_from_json`` and ``action_to_json``/``action_from_json`` round-trip
exactly (``from_json(to_json(x)) == x``). Ranks are printed as faces (``"10"``, ``"A"``).
``action_from_json`` raises ``CodecError`` on anything malformed, with a message for people.
"""

from __future__ import annotations

from typing import Any, cast

from .actions import Action, Hook, NextRound, Pass, Play, Resign, Return, Timeout, Unhook
from .cards import CardError, face_name, parse_face
from .combos import BOMBS, Combo
from .options import Options
from .state import RoundResult, State, Top, Tribute, TrickEntry, Window


class CodecError(ValueError):
    """A JSON value that is no action or state of this engine."""


_ACTION_TYPES: dict[str, type[Action]] = {
    "play": Play,
    "pass": Pass,
    "hook": Hook,
    "unhook": Unhook,
    "return": Return,
    "resign": Resign,
    "timeout": Timeout,
    "next_round": NextRound,
}
_ACTION_NAMES = {cls: name for name, cls in _ACTION_TYPES.items()}


def action_to_json(action: Action) -> dict[str, Any]:
    """``Play(0, ("3S",))`` -> ``{"type": "play", "seat": 0, "cards": ["3S"]}``."""
    data: dict[str, Any] = {"type": _ACTION_NAMES[type(action)]}
    for name, value in action._asdict().items():
        data[name] = list(value) if isinstance(value, tuple) else value
    return data


def action_from_json(data: Any) -> Any:
    """Inverse of ``action_to_json``. Raises CodecError for unknown types or missing fields.

    Card strings are kept as given: ``apply`` checks them and answers ``unknown_card``.
    """
    if not isinstance(data, dict):
        raise CodecError("an action is a JSON object")
    kind = data.get("type")
    cls = _ACTION_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise CodecError(f"unknown action type {data.get('type')!r}")
    values = {}
    for name in cls._fields:
        if name not in data:
            raise CodecError(f"{data['type']} needs {name!r}")
        value = data[name]
        if name == "cards":
            if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
                raise CodecError("cards must be a list of card strings")
            value = tuple(value)
        values[name] = value
    return cls(**values)


def _combo_to_json(combo: Combo) -> list[Any]:
    return [combo.category, combo.size, list(combo.key) if combo.category in BOMBS else combo.key]


def _combo_from_json(data: list[Any]) -> Combo:
    category, size, key = data
    return Combo(category, size, tuple(key) if category in BOMBS else key)


def state_to_json(state: State) -> dict[str, Any]:
    """The whole state as JSON (it holds every hand: never send it to a client)."""
    window = state.window
    result = state.result
    return {
        "options": state.options.to_dict(),
        "seed": state.seed,
        "round_no": state.round_no,
        "version": state.version,
        "phase": state.phase,
        "level": face_name(state.level),
        "levels": [face_name(x) for x in state.levels],
        "dealer": state.dealer,
        "leader": state.leader,
        "hands": [list(h) for h in state.hands],
        "turn": state.turn,
        "top": [state.top.seat, list(state.top.cards), _combo_to_json(state.top.combo)]
        if state.top
        else None,
        "passed": sorted(state.passed),
        "trick": [[e.seat, e.kind, list(e.cards)] for e in state.trick],
        "window": [
            window.owner,
            window.face,
            window.mode,
            window.chain,
            [None if a is None else list(a) for a in window.answers],
        ]
        if window
        else None,
        "finished": list(state.finished),
        "tributes": [list(t) for t in state.tributes],
        # A resignation's seat is a sixth item, absent otherwise (older states read the same).
        "result": [
            result.team,
            list(result.caught),
            list(result.levels),
            result.next_level,
            result.match_winner,
        ]
        + ([result.resigned] if result.resigned is not None else [])
        if result
        else None,
    }


def state_from_json(data: dict[str, Any]) -> State:
    """Inverse of ``state_to_json``. Raises CodecError when the data is not a state."""
    try:
        top = data["top"]
        window = data["window"]
        result = data["result"]
        return State(
            options=Options.from_dict(data["options"]),
            seed=data["seed"],
            round_no=data["round_no"],
            version=data["version"],
            phase=data["phase"],
            level=parse_face(data["level"]),
            levels=cast(tuple[int, int], tuple(parse_face(x) for x in data["levels"])),
            dealer=data["dealer"],
            leader=data["leader"],
            hands=tuple(tuple(h) for h in data["hands"]),
            turn=data["turn"],
            top=Top(top[0], tuple(top[1]), _combo_from_json(top[2])) if top else None,
            passed=frozenset(data["passed"]),
            trick=tuple(TrickEntry(s, k, tuple(c)) for s, k, c in data["trick"]),
            window=Window(
                window[0],
                window[1],
                window[2],
                window[3],
                tuple(None if a is None else tuple(a) for a in window[4]),
            )
            if window
            else None,
            finished=tuple(data["finished"]),
            tributes=tuple(Tribute(*t) for t in data["tributes"]),
            result=RoundResult(
                result[0],
                tuple(result[1]),
                tuple(result[2]),
                result[3],
                result[4],
                result[5] if len(result) > 5 else None,
            )
            if result
            else None,
        )
    except (KeyError, IndexError, TypeError, ValueError, CardError) as e:
        raise CodecError(f"not a state: {e}") from None
