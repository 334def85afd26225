"""The rule-question protocol of ``../shared/conformance/README.md``, on stdin/stdout.

Run ``python -m games.engine.conformance``: one JSON request per line in, one JSON reply per line
out, in order, flushed. A request that cannot be served as a whole gets ``{"error": …}``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from typing import Any

from .actions import Hook, Pass, Play, Rejection, Timeout, Unhook
from .cards import FACE, CardError, face_name, parse_cards, parse_face
from .combos import beats, classify
from .deal import SetupError, start_round
from .options import Options, OptionsError
from .power import power_order
from .rules import apply
from .state import MATCH_OVER, State
from .tribute import give_return, legal_returns, pay_tributes, plan_tributes

#: A protocol request or reply: a JSON object.
Json = dict[str, Any]


class RequestError(ValueError):
    """A request the engine cannot serve as a whole."""


def answer(request: dict[str, Any]) -> dict[str, Any]:
    """Reply to one protocol request (a dict); never raises for bad input."""
    try:
        if not isinstance(request, dict):
            raise RequestError("a request is a JSON object")
        op = _OPS.get(request.get("op", ""))
        if op is None:
            raise RequestError(f"unknown op {request.get('op')!r}")
        return op(request)
    except (RequestError, CardError, OptionsError, SetupError) as e:
        return {"error": str(e)}
    except (TypeError, ValueError, KeyError, IndexError, AttributeError) as e:
        return {"error": f"bad request: {e}"}


def _options(request: Json) -> Options:
    return Options.from_dict(
        request.get("options"), players=request.get("players"), decks=request.get("decks")
    )


def _level(request: Json, key: str = "level") -> int:
    return parse_face(request.get(key, "2"))


def _classify(request: Json) -> Json:
    combo = classify(parse_cards(request["cards"]), _level(request), _options(request))
    return {"category": combo.category if combo else None}


def _beats(request: Json) -> Json:
    options, level = _options(request), _level(request)
    top = classify(parse_cards(request["top"]), level, options)
    if top is None:
        raise RequestError("top is no valid combination")
    play = classify(parse_cards(request["play"]), level, options)
    return {"beats": play is not None and beats(play, top)}


def _power_order(request: Json) -> Json:
    return {"order": power_order(_level(request), _options(request))}


_ACTIONS: dict[str, Callable[[Any], object]] = {
    "play": lambda a: Play(a.get("seat"), a.get("cards")),
    "pass": lambda a: Pass(a.get("seat")),
    "hook": lambda a: Hook(a.get("seat"), a.get("cards")),
    "unhook": lambda a: Unhook(a.get("seat"), a.get("cards")),
    "expire": lambda a: Timeout(),
}


def _round(request: Json) -> Json:
    options = _options(request)
    level = _level(request)
    levels = request.get("levels") or [face_name(level)] * 2
    hands = [parse_cards(h) for h in request["hands"]]
    state = start_round(
        options,
        hands,
        level,
        (parse_face(levels[0]), parse_face(levels[1])),
        request.get("leader", 0),
    )
    results = []
    for raw in request.get("actions", []):
        make = _ACTIONS.get(raw.get("action", "")) if isinstance(raw, dict) else None
        if make is None:
            results.append({"ok": False, "error": "malformed"})
            continue
        outcome = apply(state, make(raw))
        if isinstance(outcome, Rejection):
            results.append({"ok": False, "error": outcome.code})
        else:
            state = outcome.state
            results.append({"ok": True})
    return {"results": results, "state": describe(state, levels)}


def describe(state: State, start_levels: Sequence[str]) -> Json:
    """The protocol's ``state`` object for a round."""
    result = state.result
    window = state.window
    return {
        "phase": "round_over" if state.phase == MATCH_OVER else state.phase,
        "turn": state.turn,
        "window": {"mode": window.mode, "face": face_name(window.face), "owner": window.owner}
        if window
        else None,
        "top": {"seat": state.top.seat, "cards": list(state.top.cards)} if state.top else None,
        "hand_sizes": [len(h) for h in state.hands],
        "finished": list(state.finished),
        "caught": list(result.caught) if result is not None else None,
        "levels": [face_name(x) for x in result.levels]
        if result is not None
        else list(start_levels),
        "next_level": face_name(result.next_level)
        if result is not None and result.next_level
        else None,
        "match_winner": result.match_winner if result is not None else None,
    }


def _tribute(request: Json) -> Json:
    options = _options(request)
    level = _level(request)
    dealt = [parse_cards(h) for h in request["hands"]]
    if len(dealt) != options.players:
        raise RequestError(f"expected {options.players} hands")
    caught = list(request["caught"])
    if not caught:
        raise RequestError("tribute needs at least one caught seat")
    tributes, leader = plan_tributes(dealt, level, request["finish_order"], caught, options)
    hands = pay_tributes(dealt, tributes)
    returned: set[int] = set()
    results = []
    for ret in request.get("returns", []):
        seat, card = ret.get("seat"), ret.get("card")
        match = [i for i, t in enumerate(tributes) if t.receiver == seat]
        ok = (
            bool(match)
            and match[0] not in returned
            and card in legal_returns(hands[seat], level, options)
        )
        if ok:
            returned.add(match[0])
            hands = give_return(hands, tributes[match[0]], card)
        results.append({"ok": ok} if ok else {"ok": False, "error": "invalid_return"})
    return {
        "tributes": [
            {"from": t.payer, "to": t.receiver, "face": face_name(FACE[t.card])} for t in tributes
        ],
        "results": results,
        "leader": leader,
    }


_OPS: dict[str, Callable[[Json], Json]] = {
    "classify": _classify,
    "beats": _beats,
    "power_order": _power_order,
    "round": _round,
    "tribute": _tribute,
}


def main() -> int:
    """Serve requests from stdin until it closes."""
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
        except json.JSONDecodeError as e:
            reply: Json = {"error": f"not JSON: {e}"}
        else:
            reply = answer(request)
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
