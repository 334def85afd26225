"""A match's record: players, options, levels by round, finish orders, caught seats, tributes and
every move with its time — for the record page, the replay page and the JSON export.

What a record shows depends on the match. A finished match hides nothing any more (every
answer's cards, every hand: ``engine.views.reveal``). A match still being played (or stopped
before its end) shows only what a spectator may see: events through ``event_for(event, None)``
(§6.4), cut at the state the viewer sees — the spectators' view of a delayed table for anyone
without a seat (``games.live.delay``), who sees the match finished only once that view reached its
end. Tributes and returns are public (§9.5).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypedDict

from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engine.actions import NextRound
from games.engine.cards import face_name
from games.engine.codec import action_from_json
from games.engine.state import MATCH_OVER, ROUND_OVER, State
from games.live import replay, visibility
from games.live.cards import card_text
from games.live.explain import RoundFacts, explain_round
from games.live.log import move_parts, seat_name
from games.models import Match, Move, Round, Table, TributeRecord

FORMAT_NAME = "414club-match"
FORMAT_VERSION = 1


def is_finished(match: Match, seat: int | None = None) -> bool:
    """Over with a winner, for this viewer (``visibility.finished_for``: a stopped match never
    is; a delayed one for a viewer without a seat once the spectators' view reached the end)."""
    return visibility.finished_for(match, seat)


# --- names and lines ----------------------------------------------------------------------------


class PlayerRow(TypedDict):
    """One seat of ``players``."""

    seat: int
    team: int
    name: str
    username: str | None
    is_bot: bool
    ai_policy: str
    policy_label: str


def players(table: Table) -> list[PlayerRow]:
    """Who sits where: seat, team (§0: seat mod 2), name, and whether an AI plays the seat."""
    return [
        {
            "seat": s.number,
            "team": s.team,
            "name": seat_name(s),
            "username": s.user.username if s.user else None,
            "is_bot": bool(s.user and s.user.is_bot),
            "ai_policy": s.ai_policy,
            "policy_label": s.get_ai_policy_display(),
        }
        for s in table.seats.select_related("user").order_by("number")
    ]


# --- what the viewer may see --------------------------------------------------------------------


@dataclass(frozen=True)
class Cut:
    """The part of a match's history a viewer may see: up to ``version``, whose state is
    ``state``; ``reveal`` when the match is finished (nothing hidden); ``delay`` moves behind."""

    version: int
    state: State
    reveal: bool
    delay: int


def visible_cut(match: Match, seat: int | None) -> Cut:
    table = match.table
    if is_finished(match, seat):
        return Cut(match.version, replay.load_state(match), True, 0)
    delay = visibility.delay_for(table, match, seat)
    state = visibility.visible_state(table, match, seat)
    return Cut(state.version, state, False, delay)


# --- rounds -------------------------------------------------------------------------------------


def rounds(match: Match, cut: Cut, names: dict[int, str]) -> list[dict[str, Any]]:
    """Each round the viewer may see: level, levels before and after, dealer, leader, finish
    order, caught seats, winner and tributes. Earlier rounds come from the ``Round`` and
    ``TributeRecord`` summaries; the round the viewer is in comes from the state it sees, so a
    delayed viewer learns nothing the moves it sees do not show."""
    state = cut.state
    tributes = defaultdict(list)
    for t in TributeRecord.objects.filter(match=match, round_no__lt=state.round_no):
        tributes[t.round_no].append((t.payer, t.receiver, t.card, t.returned_card or None))
    rows = []
    for rnd in Round.objects.filter(match=match, number__lte=state.round_no):
        current = rnd.number == state.round_no
        if current:
            over = state.phase in (ROUND_OVER, MATCH_OVER) and state.result is not None
            finish = list(state.finished)
            result = state.result if over else None
            caught = list(result.caught) if result else []
            levels_after = list(result.levels) if result else None
            winner = result.team if result else None
            paid = [(t.payer, t.receiver, t.card, t.returned) for t in state.tributes]
            ended_at = rnd.ended_at if over else None
            # Only the last round can end the match (a win at the target, or a resignation).
            match_winner = result.match_winner if result else None
            resigned = result.resigned if result else None
        else:
            finish, caught, winner = rnd.finish_order, rnd.caught, rnd.winner_team
            levels_after = rnd.levels_after
            paid = tributes[rnd.number]
            ended_at = rnd.ended_at
            match_winner = resigned = None
        rows.append(
            {
                "number": rnd.number,
                "level": rnd.level,
                "levels_before": list(rnd.levels_before),
                "levels_after": levels_after,
                "dealer": rnd.dealer,
                "leader": rnd.leader,
                "finish_order": finish,
                "caught": caught,
                "winner_team": winner,
                "match_winner": match_winner,
                "resigned": resigned,
                "tributes": [
                    {"payer": p, "receiver": r, "card": c, "returned": back}
                    for p, r, c, back in paid
                ],
                "started_at": rnd.started_at,
                "ended_at": ended_at,
            }
        )
    return rows


def round_starts(match: Match, upto: int | None = None) -> dict[int, int]:
    """The version at which each round starts: 0 for round 1, and for round r the move that
    dealt it (the last move logged in round r - 1, ``NextRound``)."""
    starts = {1: 0}
    last = (
        Move.objects.filter(match=match)
        .values("round_no")
        .annotate(last=Max("seq"))
        .values_list("round_no", "last")
    )
    for round_no, seq in last:
        if upto is None or seq <= upto:
            starts[round_no + 1] = seq
    return {r: v for r, v in starts.items() if r <= match.round_no}


# --- the record page ----------------------------------------------------------------------------


def record_context(match: Match, seat: int | None, round_no: int | None = None) -> dict[str, Any]:
    """Everything the record page shows to a viewer at ``seat`` (None: no seat): its rounds,
    and the moves of round ``round_no`` only (``moves_round``; the last round the viewer sees
    when ``round_no`` is None or not one of them): a long match's record stays one page of a
    round's moves, not hundreds (``round_numbers``: the rounds to choose from)."""
    table = match.table
    cut = visible_cut(match, seat)
    header = record_header(match, finished=cut.reveal, delay=cut.delay)
    names = {p["seat"]: p["name"] for p in header["players"]}

    def level(x: int | None) -> str | None:
        return face_name(x) if x is not None else None

    target = replay.match_options(match).target_level
    round_rows = []
    for r in rounds(match, cut, names):
        facts = RoundFacts(
            players=table.players,
            finish_order=r["finish_order"],
            team=r["winner_team"],
            caught=r["caught"],
            levels_before=r["levels_before"],
            levels_after=r["levels_after"],
            target=target,
            match_winner=r["match_winner"],
            resigned=r["resigned"],
        )
        round_rows.append(
            {
                **r,
                # The record says what the table's result panel said (games.live.explain).
                "explained": explain_round(facts, names),
                "level": level(r["level"]),
                "levels_before": [level(x) for x in r["levels_before"]],
                "levels_after": [level(x) for x in r["levels_after"]]
                if r["levels_after"]
                else None,
                "dealer": names.get(r["dealer"], ""),
                "leader": names.get(r["leader"], ""),
                "finish_order": [names[s] for s in r["finish_order"]],
                "caught": [names[s] for s in r["caught"]],
                "tributes": [
                    {
                        "payer": names[t["payer"]],
                        "receiver": names[t["receiver"]],
                        "card": card_text(t["card"]),
                        "returned": card_text(t["returned"]) if t["returned"] else None,
                    }
                    for t in r["tributes"]
                ],
            }
        )
    round_numbers = [r["number"] for r in round_rows]
    if round_no not in round_numbers:
        round_no = round_numbers[-1] if round_numbers else None
    visible = Move.objects.filter(match=match, seq__lte=cut.version)
    moves = [
        move_row(m, names, cut.reveal)
        for m in (visible.filter(round_no=round_no).order_by("seq") if round_no is not None else ())
    ]
    return {
        **header,
        "rounds": round_rows,
        "moves": moves,
        "moves_round": round_no,
        "moves_total": visible.count(),
        "round_numbers": round_numbers,
        "shown_version": cut.version,
    }


def move_row(move: Move, names: dict[int, str], reveal: bool) -> dict[str, Any]:
    """One move as the record and the replay show it: who made it (``who``, a seat's name or
    the clock) and its own ``lines``, then ``others``: each part of it that tells of another
    seat — the claim its answer settled, the trick its last claimant won — under that seat's
    name (``log.move_parts``)."""
    parts = move_parts(move, names, reveal)
    return {
        "seq": move.seq,
        "round_no": move.round_no,
        "time": move.created_at,
        "who": names[move.seat] if move.seat is not None else _("the clock"),
        "lines": parts[0].lines if parts else [],
        "others": [
            {"who": names.get(p.seat, "") if p.seat is not None else "", "lines": p.lines}
            for p in parts[1:]
        ],
    }


def record_header(match: Match, *, finished: bool, delay: int) -> dict[str, Any]:
    """The record's parts that need no replay: players, teams, options and final levels, and
    whether the viewer sees it ``finished`` (hands public) or ``delay`` plays late."""
    table = match.table
    people = players(table)
    return {
        "match": match,
        "table": table,
        "players": people,
        # Each team's players by name, for "Team 1 ana, cy" (games.live.teams).
        "teams": [[p["name"] for p in people if p["team"] == team] for team in (0, 1)],
        "options": list(replay.match_options(match).to_dict().items()),  # in_form_order shows them
        "finished": finished,
        "delay": delay,
        "final_levels": [face_name(match.level_team0), face_name(match.level_team1)],
        "stopped": table.status == Table.Status.ABANDONED and not finished,
    }


# --- the JSON export (docs/MATCH_FORMAT.md) -----------------------------------------------------


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def export(match: Match) -> dict[str, Any]:
    """A finished match as the documented JSON format (docs/MATCH_FORMAT.md, version 1).

    Raises ValueError for a match that is not finished: its hands are still secret.
    """
    if match.winner_team is None:
        raise ValueError("only a finished match is exported")
    table = match.table
    cut = Cut(match.version, replay.load_state(match), True, 0)
    names = {p["seat"]: p["name"] for p in players(table)}
    start_hands = {1: [list(h) for h in replay.initial_state(match).hands]}
    moves = []
    for move, state in replay.replay_all(match):
        if isinstance(action_from_json(move.action), NextRound):
            start_hands[state.round_no] = [list(h) for h in state.hands]
        moves.append(
            {
                "seq": move.seq,
                "round": move.round_no,
                "time": _iso(move.created_at),
                "seat": move.seat,
                "action": move.action,
                "events": move.events,  # as stored: codec.event_to_json's shape
            }
        )
    round_rows = []
    for r in rounds(match, cut, names):
        number = r["number"]
        last = [m["seq"] for m in moves if m["round"] == number]
        round_rows.append(
            {
                "number": number,
                "level": face_name(r["level"]),
                "levels_before": [face_name(x) for x in r["levels_before"]],
                "levels_after": [face_name(x) for x in r["levels_after"]]
                if r["levels_after"]
                else None,
                "dealer": r["dealer"],
                "leader": r["leader"],
                "finish_order": list(r["finish_order"]),
                "caught": list(r["caught"]),
                "winner_team": r["winner_team"],
                "started_at": _iso(r["started_at"]),
                "ended_at": _iso(r["ended_at"]),
                "first_move": last[0] if last else None,
                "last_move": last[-1] if last else None,
                "hands": start_hands.get(number),
                "tributes": r["tributes"],
            }
        )
    return {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "exported_at": _iso(timezone.now()),
        "match": {
            "id": match.pk,
            "seed": match.seed,
            "table": {
                "id": table.pk,
                "name": table.name,  # as stored: a file, not a page (docs/MATCH_FORMAT.md)
                "rated": table.rated,
                "visibility": table.visibility,
                "spectator_delay": table.spectator_delay,
            },
            "started_at": _iso(match.started_at),
            "finished_at": _iso(match.finished_at),
            "winner_team": match.winner_team,
            "final_levels": [face_name(match.level_team0), face_name(match.level_team1)],
            "final_version": match.version,
            "rounds_played": match.round_no,
        },
        "options": replay.match_options(match).to_dict(),
        "players": [
            {
                "seat": p["seat"],
                "team": p["team"],
                "name": p["name"],
                "user": p["username"],
                "ai_policy": p["ai_policy"] or None,
            }
            for p in players(table)
        ],
        "rounds": round_rows,
        "moves": moves,
    }
