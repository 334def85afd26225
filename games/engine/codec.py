"""JSON for states, actions and events: what the database stores and the wire carries.

``state_to_json``/``state_from_json``, ``action_to_json``/``action_from_json`` and
``event_to_json``/``event_from_json`` round-trip exactly (``from_json(to_json(x)) == x``; for
events also ``to_json(from_json(d)) == d`` for every ``d`` the engine wrote: the shape of
docs/MATCH_FORMAT.md, which ``Move.events`` stores). Ranks are printed as faces (``"10"``,
``"A"``) where the format says so. ``action_from_json`` and ``event_from_json`` raise
``CodecError`` on anything malformed, with a message for people.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import MISSING, fields
from typing import Any, cast

from .actions import Action, Hook, NextRound, Pass, Play, Resign, Return, Timeout, Unhook
from .cards import CardError, face_name, parse_face
from .combos import BOMBS, Combo
from .events import EVENT_TYPES, Answered, Event, HiddenAnswer, RoundOver
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


def action_from_json(data: Any) -> Action:
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


# --- events -------------------------------------------------------------------------------------

#: The JSON ``type`` of each event class but ``HiddenAnswer`` (an ``answer`` without ``cards``).
_EVENT_TYPES: dict[str, type[Event]] = {
    cls.kind: cls for cls in EVENT_TYPES if cls is not HiddenAnswer
}
_INT_FIELDS = frozenset(
    {"seat", "owner", "face", "leader", "place", "team", "winner", "by", "round", "dealer"}
    | {"level", "payer", "receiver", "to"}
)
_BOOL_FIELDS = frozenset({"timeout", "chain", "bombed"})
_STR_FIELDS = frozenset({"combination", "mode", "card"})
#: Each event class's fields in declared order, and their names: ``dataclasses.fields`` builds
#: the tuple anew on every call, and a replay or a log encodes or decodes thousands of events.
_FIELDS = {cls: fields(cls) for cls in EVENT_TYPES}
_FIELD_NAMES = {cls: frozenset(f.name for f in cls_fields) for cls, cls_fields in _FIELDS.items()}


def event_to_json(event: Event) -> dict[str, Any]:
    """``Played(0, ("3S",), "single")`` ->
    ``{"type": "play", "seat": 0, "cards": ["3S"], "combination": "single"}``.

    Fields in their declared order; tuples as lists; a ``RoundOver``'s levels as level strings;
    ``bombed`` only on a window a bomb closed; a ``HiddenAnswer`` without ``cards``."""
    data: dict[str, Any] = {"type": event.kind}
    if isinstance(event, RoundOver):
        data["team"] = event.team
        data["caught"] = list(event.caught)
        data["levels"] = [face_name(x) for x in event.levels]
        data["next_level"] = None if event.next_level is None else face_name(event.next_level)
        data["match_winner"] = event.match_winner
        return data
    for field in _FIELDS.get(type(event)) or fields(event):
        value = getattr(event, field.name)
        if field.name == "bombed" and not value:
            continue
        data[field.name] = list(value) if isinstance(value, tuple) else value
    return data


def events_to_json(events: Iterable[Event]) -> list[dict[str, Any]]:
    """``event_to_json`` of each: a move's ``events`` as the database stores them."""
    return [event_to_json(e) for e in events]


def event_from_json(data: Any) -> Event:
    """Inverse of ``event_to_json``. Raises CodecError for an unknown type, a missing or extra
    field, or a value of the wrong shape (so that decoding never loses anything)."""
    if not isinstance(data, dict):
        raise CodecError("an event is a JSON object")
    kind = data.get("type")
    if kind == "answer":
        cls: type[Event] | None = Answered if "cards" in data else HiddenAnswer
    else:
        cls = _EVENT_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise CodecError(f"unknown event type {kind!r}")
    extra = data.keys() - _FIELD_NAMES[cls] - {"type"}
    if extra:
        raise CodecError(f"{kind} has no {', '.join(sorted(map(repr, extra)))}")
    values: dict[str, Any] = {}
    for field in _FIELDS[cls]:
        if field.name not in data:
            if field.default is not MISSING:
                continue
            raise CodecError(f"{kind} needs {field.name!r}")
        values[field.name] = _event_field(cls, field.name, data[field.name])
    return cls(**values)


def events_from_json(data: Iterable[Any]) -> tuple[Event, ...]:
    """``event_from_json`` of each: a move's stored ``events`` as the engine reported them."""
    return tuple(event_from_json(d) for d in data)


def _event_field(cls: type[Event], name: str, value: Any) -> Any:
    """One field of an event from its JSON value, checked."""
    if name == "cards":
        if value is None and cls is Answered:
            return None
        if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
            raise CodecError("cards must be a list of card strings")
        return tuple(value)
    if name == "bombed":
        if value is not True:  # absent unless a bomb closed the window
            raise CodecError("bombed is true or absent")
        return True
    if cls is RoundOver:
        return _round_over_field(name, value)
    if name in _INT_FIELDS:
        return _int(name, value)
    if name in _BOOL_FIELDS and isinstance(value, bool):
        return value
    if name in _STR_FIELDS and isinstance(value, str):
        return value
    raise CodecError(f"{name} has the wrong type: {value!r}")


def _round_over_field(name: str, value: Any) -> Any:
    if name == "caught":
        if not isinstance(value, list):
            raise CodecError("caught must be a list of seats")
        return tuple(_int(name, s) for s in value)
    if name == "levels":
        if not isinstance(value, list) or len(value) != 2:
            raise CodecError("levels must be two level strings")
        return (_level(value[0]), _level(value[1]))
    if name == "next_level":
        return None if value is None else _level(value)
    if name == "match_winner":
        return None if value is None else _int(name, value)
    return _int(name, value)


def _int(name: str, value: Any) -> int:
    if type(value) is not int:
        raise CodecError(f"{name} must be a number, not {value!r}")
    return value


def _level(value: Any) -> int:
    """A level string as a rank; only the canonical spelling (``face_name``) is accepted."""
    try:
        rank = parse_face(value) if isinstance(value, str) else None
    except CardError:
        rank = None
    if rank is None or face_name(rank) != value:
        raise CodecError(f"not a level: {value!r}")
    return rank
