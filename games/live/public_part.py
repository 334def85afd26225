"""The part of a table's views that every viewer of one state sees alike (issue #19).

``engine.views`` gives each seat its own hand and its own window answer, and every other field
the same to every viewer — seats and spectators. A push builds up to four views of one state
(``games.live.frames``), so what those public fields become on the page — names, seat rows, the
trick, the top play, the window, tributes, the result, levels, the countdown — is built once per
push and language (``public``) and each view adds only its own part
(``presenters.table_context``).
"""

from __future__ import annotations

import operator
import time
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from django.conf import settings
from django.utils import timezone

from games.engine.cards import FACE, face_name
from games.engine.options import Options
from games.engine.state import PLAY, State
from games.engine.views import View, seat_view, spectator_view
from games.live.cards import card_face, cards_faces
from games.live.explain import RoundFacts, explain_round
from games.live.log import seat_name, seat_names
from games.live.speech import get_language
from games.models import Match, Seat, Table


class SharedParts:
    """What the views of one push share (``presenters.table_context``'s ``shared``), kept by
    the identity of the state they show, the state kept beside so that its id cannot be reused
    while the push lives: the engine's public projection of each state (``view``: the
    spectators' view, which seats' views add their own hand to), what it shows in each
    language and delay (``public``) and the text of some of it (``texts``). Nothing in it
    depends on the viewer."""

    __slots__ = ("hashes", "key_texts", "parts", "projections", "row_texts", "texts")

    def __init__(self) -> None:
        self.projections: dict[int, tuple[State, View]] = {}
        self.parts: dict[tuple[int, str | None, int], tuple[State, dict[str, Any]]] = {}
        #: The summaries' texts of shared values (``frames.summarize``: a trick's entries), by
        #: the identity of the value, kept beside it.
        self.texts: dict[int, tuple[object, tuple[str, ...]]] = {}
        #: Each state's ``hash`` (a frozen dataclass hashes every field at every call: a push
        #: asks it twice per audience, ``frames._summary_key``).
        self.hashes: dict[int, tuple[State, int]] = {}
        #: The text (``repr``) of each public seat row and seat's last step, by identity
        #: (``row_text``).
        self.row_texts: dict[int, tuple[object, str]] = {}
        #: The text (``repr``) of region keys, by the identities of their values
        #: (``key_text``).
        self.key_texts: dict[tuple[int, ...], tuple[tuple[object, ...], str]] = {}

    def hash(self, state: State) -> int:
        """``hash(state)``, worked out once per state."""
        return _once(self.hashes, state, hash)

    def key_text(self, key: tuple[object, ...]) -> str:
        """``repr(key)``, once per push for a key whose values are the very objects of another
        key's (kept beside: their ids are not reused meanwhile): the status's key is the public
        part, ``True``, ``None`` and small numbers in every seat's view of a push, written once
        or twice (``frames.delta``). The values must not change while the push lasts (a view's
        values never do). A key with a view's own objects in it (a seat's window, hand,
        tracker) is only written at a lookup's cost more: measured, the delta regions' keys in
        ``frames.summarize`` cost more this way than with ``repr``."""
        ids = tuple(map(id, key))
        found = self.key_texts.get(ids)
        if found is not None and all(map(operator.is_, found[0], key)):
            return found[1]
        text = repr(key)
        self.key_texts[ids] = (key, text)
        return text

    def view(self, state: State, seat: int | None) -> View:
        """``seat``'s view of ``state`` (None: a spectator's), the public part projected once
        per state (``engine.views.seat_view``'s ``public``)."""
        kept = self.projections.get(id(state))
        if kept is not None and kept[0] is state:
            public_view = kept[1]
        else:
            public_view = spectator_view(state)
            self.projections[id(state)] = (state, public_view)
        return public_view if seat is None else seat_view(state, seat, public_view)


def public(
    match: Match,
    state: State,
    view: View,
    seats: list[Seat],
    delay: int,
    shared: SharedParts | None,
) -> dict[str, Any]:
    """What ``view`` shows from the match's public fields only — the same in every seat's view
    and the spectators' of ``state`` (``engine.views``: only the hand and the own answer
    differ): names, seat rows (before ``is_me``, ``pos`` and ``last``), the trick and each
    seat's last step in it, the top play, the window, tributes, result, levels, countdown."""
    key = (id(state), get_language(), delay)
    kept = shared.parts.get(key) if shared is not None else None
    if kept is not None and kept[0] is state:
        return kept[1]
    names = seat_names(seats)
    level = view.level
    turn_name = names.get(view.turn, "") if view.turn is not None else ""
    parts = {
        "names": names,
        "rows": [seat_row(s, view, None) for s in seats],
        "last": last_steps(view),
        "trick": [
            {
                "index": n,
                "seat": e.seat,
                "name": names[e.seat],
                "kind": e.kind,
                "cards": cards_faces(e.cards, level),
            }
            for n, e in enumerate(view.trick)
        ],
        "turn_name": turn_name,
        "top": view.top
        and {
            "seat": view.top.seat,
            "name": names[view.top.seat],
            "cards": cards_faces(view.top.cards, level),
        },
        "window": _public_window(view, names),
        "tributes": [
            {
                "payer": names[t.payer],
                "receiver": names[t.receiver],
                "card": card_face(t.card, level),
                "returned": card_face(t.returned, level) if t.returned else None,
            }
            for t in view.tributes
        ],
        "result": _result(view, names),
        "levels": [face_name(x) for x in view.levels],
        "round_level": face_name(level),
        "countdown": None if delay else _countdown(match),
        # for each seat's tracker (``presenters.unseen_cards``)
        "played": played_faces(view),
    }
    if shared is not None:
        shared.parts[key] = (state, parts)
    return parts


class SeatRow(dict[str, Any]):
    """A seat's row in one view of a running match: the public row every view of the push
    shares (``public``: ``public()``'s, never changed) with this view's ``is_me``, ``pos`` and
    ``last`` put in — nothing else (``presenters.table_context``). Its text (``row_text``) is
    the public row's, written once per push, and those three's."""

    __slots__ = ("public",)

    def __init__(self, public: dict[str, Any], is_me: bool, pos: int, last: Any) -> None:
        super().__init__(public)
        self["is_me"] = is_me
        self["pos"] = pos
        self["last"] = last
        self.public = public


def row_text(
    row: dict[str, Any], shared: SharedParts | None, is_me: bool | None = None, pos: object = None
) -> str:
    """A text of seat row ``row`` that two rows share only when they are equal (the seat's key,
    ``frames``): the plain ``repr`` of a row, or, for a ``SeatRow``, its public row's and its
    last step's texts (each written once per push) and its own entries. ``is_me`` and ``pos``
    stand in for the row's own (a row rendered for every viewer, ``seat_frames.placed_seat``)."""
    public = getattr(row, "public", None)
    if public is None or shared is None:
        if is_me is None and pos is None:
            return repr(row)
        return repr(
            {
                **row,
                "is_me": row["is_me"] if is_me is None else is_me,
                "pos": row["pos"] if pos is None else pos,
            }
        )
    own = (row["is_me"] if is_me is None else is_me, row["pos"] if pos is None else pos)
    return f"{_text(public, shared)}+{own!r}{_text(row['last'], shared)}"


def _text(value: object, shared: SharedParts) -> str:
    """``repr(value)``, once per push for a value every view shares (kept by identity)."""
    return _once(shared.row_texts, value, repr)


def _once[K, V](kept: dict[int, tuple[K, V]], value: K, compute: Callable[[K], V]) -> V:
    """``compute(value)``, kept in ``kept`` by the value's identity for as long as ``kept``
    lives (one push): the value itself is kept beside it, so its id cannot be reused meanwhile."""
    found = kept.get(id(value))
    if found is not None and found[0] is value:
        return found[1]
    result = compute(value)
    kept[id(value)] = (value, result)
    return result


def played_faces(view: View) -> Counter[int]:
    """How many cards of each face were played this round (``view.played``: public)."""
    return Counter(map(FACE.__getitem__, view.played))


def seat_row(seat: Seat, view: View | None, me: int | None) -> dict[str, Any]:
    row = {
        "number": seat.number,
        "team": seat.team,
        "name": seat_name(seat),
        "is_ai": seat.is_ai,
        "is_bot": bool(seat.user and seat.user.is_bot),
        "is_me": seat.number == me,
        "is_empty": seat.is_empty,
        "policy": seat.get_ai_policy_display() if seat.is_ai else "",
        # Why the AI plays this person's seat ("" while they play it): public, on every page.
        "stand_in": seat.stand_in,
    }
    if view is None:
        # Before the match: "Sit here" or "Move here" (not part of a running match's rows,
        # which every viewer but the seat's own shares: ``seat_frames.placed_seat``).
        row["viewer_seated"] = me is not None
    else:
        finished = list(view.finished)
        row.update(
            cards=view.hand_sizes[seat.number],
            place=finished.index(seat.number) + 1 if seat.number in finished else None,
            is_turn=view.phase == PLAY and view.turn == seat.number,
            answered=bool(view.window and view.window.answered[seat.number]),
            is_owner=bool(view.window and view.window.owner == seat.number),
        )
    return row


#: How long (seconds) a match instance's countdown is reused: every audience of one push (which
#: shares the writer's instance) shows the same seconds, so their countdown partial is one render
#: (``{% shared %}``); a page's own instance is fresh.
COUNTDOWN_REUSE_SECONDS = 1.0


def last_steps(view: View) -> dict[int, dict[str, Any]]:
    """Each seat's last step in the current trick (``presenters._around_the_table``'s ``last``)."""
    last: dict[int, dict[str, Any]] = {}
    for entry in view.trick:
        last[entry.seat] = {
            "kind": entry.kind,
            "cards": cards_faces(entry.cards, view.level),
            "top": False,
        }
    if view.top is not None and view.top.seat in last:
        mine = last[view.top.seat]
        mine["top"] = mine["kind"] != "pass"
    return last


def _countdown(match: Match) -> dict[str, Any] | None:
    if match.deadline is None:
        return None
    kept = getattr(match, "_countdown_kept", None)
    now = time.monotonic()
    if (
        kept is not None
        and kept[0] == (match.deadline, match.deadline_kind)
        and now - kept[1] < COUNTDOWN_REUSE_SECONDS
    ):
        return dict(kept[2])  # a copy: a caller may change its own
    remaining = max(0.0, (match.deadline - timezone.now()).total_seconds())
    total = _deadline_total(match)
    countdown = {
        "kind": match.deadline_kind,
        "remaining": round(remaining, 2),
        "total": total,
        "deadline_ms": int(match.deadline.timestamp() * 1000),
    }
    # kept on the instance the audiences share (the model declares no such field)
    match._countdown_kept = ((match.deadline, match.deadline_kind), now, countdown)  # type: ignore[attr-defined]
    return dict(countdown)


def _deadline_total(match: Match) -> float:
    options = _table_options(match.table)
    if match.deadline_kind == Match.Deadline.WINDOW:
        return float(options.claim_window_seconds)
    if match.deadline_kind == Match.Deadline.NEXT_ROUND:
        return float(settings.GAMES_NEXT_ROUND_SECONDS)
    return float(options.turn_seconds)


def _table_options(table: Table) -> Options:
    """The table's engine options, read once per table instance (every audience of a push
    shares the writer's table)."""
    options = getattr(table, "_engine_options", None)
    if options is None:
        # kept on the instance the audiences share (the model declares no such field)
        options = table._engine_options = table.engine_options()  # type: ignore[attr-defined]
    return options


def _public_window(view: View, names: Mapping[int, str]) -> dict[str, Any] | None:
    """The open claim window as every viewer sees it (None: no window open)."""
    window = view.window
    if window is None:
        return None
    return {
        "owner": window.owner,
        "owner_name": names[window.owner],
        "face": face_name(window.face),
        "mode": window.mode,
        "chain": window.chain,
        "waiting_on": [
            names[s]
            for s, done in enumerate(window.answered)
            if not done and s != window.owner and view.hand_sizes[s] > 0
        ],
    }


def _result(view: View, names: Mapping[int, str]) -> dict[str, Any] | None:
    """The round's (or match's) result: the facts, and the sentences that explain them
    (``games.live.explain``). ``team`` is the team whose seats all went out (RULES.md §7): the
    round's winner, which the headline names — never the first seat out's team."""
    result = view.result
    if result is None:
        return None
    facts = RoundFacts(
        players=view.players,
        finish_order=tuple(view.finished),
        team=result.team,
        caught=tuple(result.caught),
        levels_before=tuple(view.levels),
        levels_after=tuple(result.levels),
        target=view.options.target_level,
        match_winner=result.match_winner,
        resigned=result.resigned,
    )
    return {
        "team": result.team,
        "explained": explain_round(facts, names),
        "caught": [names[s] for s in result.caught],
        "levels": [face_name(x) for x in result.levels],
        "next_level": face_name(result.next_level) if result.next_level else None,
        "match_winner": result.match_winner,
        "finish_order": [names[s] for s in view.finished],
        "resigned": names[result.resigned] if result.resigned is not None else "",
    }
