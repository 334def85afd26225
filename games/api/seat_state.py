"""A seat's view of its match as the bot API's JSON (docs/BOT_API.md, "The seat view").

Everything comes from the engine's per-seat ``View`` (``games.engine.views.seat_view``), the
same projection the seat's page is rendered from: the seat's own hand, every seat's card count,
the public trick and window (who answered, never what), levels, finish order, tributes (public,
RULES.md §9.5) and the cards played this round. Never another seat's hand. The seat's legal
actions are the engine's, written the way ``POST .../actions`` takes them.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from games.engine import legal_actions
from games.engine.actions import Action
from games.engine.cards import face_name
from games.engine.codec import action_to_json, event_from_json, event_to_json
from games.engine.state import MATCH_OVER, State
from games.engine.views import View, event_for, seat_view
from games.models import Match, Move, Seat


def action_payload(action: Action) -> dict[str, Any]:
    """An engine action as the API's action JSON: ``{"action": "play", "cards": [...]}``,
    ``{"action": "return", "card": "3S"}``, ``{"action": "pass"}`` (no seat: the seat is the
    token's own)."""
    data = action_to_json(action)
    data.pop("seat", None)
    return {"action": data.pop("type"), **data}


def view_json(view: View) -> dict[str, Any]:
    """The engine's seat ``View`` as JSON: cards in RULES.md notation, levels as faces."""
    top = view.top
    window = view.window
    result = view.result
    return {
        "seat": view.seat,
        "team": None if view.seat is None else view.seat % 2,
        "players": view.players,
        "version": view.version,
        "round": view.round_no,
        "phase": view.phase,
        "level": face_name(view.level),
        "levels": [face_name(x) for x in view.levels],
        "dealer": view.dealer,
        "leader": view.leader,
        "turn": view.turn,
        "hand": list(view.hand),
        "hand_sizes": list(view.hand_sizes),
        "top": {"seat": top.seat, "cards": list(top.cards), "combination": top.combo.category}
        if top
        else None,
        "trick": [{"seat": e.seat, "kind": e.kind, "cards": list(e.cards)} for e in view.trick],
        "window": {
            "owner": window.owner,
            "face": face_name(window.face),
            "mode": window.mode,
            "chain": window.chain,
            "answered": list(window.answered),
        }
        if window
        else None,
        "my_answer": None if view.my_answer is None else list(view.my_answer),
        "finished": list(view.finished),
        "tributes": [
            {"payer": t.payer, "receiver": t.receiver, "card": t.card, "returned": t.returned}
            for t in view.tributes
        ],
        "result": {
            "team": result.team,
            "caught": list(result.caught),
            "levels": [face_name(x) for x in result.levels],
            "next_level": None if result.next_level is None else face_name(result.next_level),
            "match_winner": result.match_winner,
            "resigned": result.resigned,
        }
        if result
        else None,
        "played": list(view.played),
    }


def deadline_json(match: Match) -> dict[str, Any] | None:
    """The one running deadline: its kind (turn, window, tribute, next_round), when it rings
    (ISO-8601, UTC) and the seconds left (0 when past), or None."""
    if match.deadline is None:
        return None
    left = (match.deadline - timezone.now()).total_seconds()
    return {
        "kind": match.deadline_kind,
        "at": match.deadline.isoformat(),
        "seconds_left": round(max(0.0, left), 3),
    }


def seat_json(match: Match, state: State, seat: Seat) -> dict[str, Any]:
    """Everything ``seat`` may know now: the match, the seat's view, the deadline, and its legal
    actions (none while an AI stand-in plays the seat, or once the match is over)."""
    view = seat_view(state, seat.number)
    over = state.phase == MATCH_OVER or match.table.status == "abandoned"
    acting = not over and not seat.stand_in
    return {
        "match": match.pk,
        "table": match.table_id,
        "over": over,
        "winner_team": match.winner_team,
        "stand_in": seat.stand_in or None,
        "deadline": None if over else deadline_json(match),
        "options": state.options.to_dict(),
        "view": view_json(view),
        "legal_actions": [action_payload(a) for a in legal_actions(state, seat.number)]
        if acting
        else [],
    }


def events_since(match: Match, after: int, upto: int, seat: int) -> list[dict[str, Any]]:
    """The events of the moves after version ``after`` up to ``upto``, as ``seat`` may see them
    (``engine.views.event_for``: another seat's claim shows who, never what), each with the
    version its move made."""
    if upto <= after:
        return []
    found = []
    rows = Move.objects.filter(match=match, seq__gt=after, seq__lte=upto).values_list(
        "seq", "events"
    )
    for seq, events in rows:
        for event in events:
            shown = event_for(event_from_json(event), seat)
            if shown is not None:
                found.append({"version": seq, **event_to_json(shown)})
    return found
