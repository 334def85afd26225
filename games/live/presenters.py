"""Turn an engine ``View`` into template context for one viewer (a seat or a spectator).

The context is built from ``engine.views`` only — one seat's hand or none — so no template can
show another seat's cards. Names, deadlines and the move log are added here.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.urls import reverse
from django.utils.translation import gettext as _

from accounts.models import User
from games import organisers
from games.engine import legal_actions
from games.engine.actions import Hook, Pass, Play, Return, Unhook
from games.engine.ai import FILL_DEFAULT
from games.engine.cards import BLACK_JOKER, DECK, FACE, RED_JOKER, face_name
from games.engine.combos import Combo, classify
from games.engine.power import table_for
from games.engine.state import MATCH_OVER, PLAY, TRIBUTE, WINDOW, State
from games.engine.views import View, seat_view, spectator_view
from games.live import public_part, rematch_view
from games.live.away import displayed
from games.live.cards import HandGroups, card_face, hand_groups
from games.live.claim_help import claim_help
from games.live.context import TableContext
from games.live.log import log_for
from games.live.own_seat import own_seat
from games.models import Match, Move, Seat, Table, ai_plays_a_seat, only_stand_ins


def table_strings() -> dict[str, Any]:
    """The few sentences table.js shows or speaks by itself, in the page's language."""
    return {
        "yourTurn": _("Your turn"),
        "claimWindow": _("Claim window"),
        "claimKeys": _("Press K to claim or P to pass."),
        "turnKeys": _("Press H for a hint, Enter to play, P to pass."),
        # A lead may not pass (RULES.md §5): no Pass button, so no P.
        "leadKeys": _("Press H for a hint, Enter to play."),
        # The socket refused (games.sockets.socket_limits: close codes 4429, 4430).
        "tooManySockets": _(
            "Too many open connections: close some tabs of this site, then reload this page."
        ),
        "tableFull": _("This table is full of spectators: reload this page later to watch."),
        # While the table's socket is down (static/js/table.js): the notice by the claim bar
        # and the hand, and what a move pressed meanwhile gets.
        "offline": _("Connection lost: your moves cannot be sent until it is back. Reconnecting…"),
        "notSent": _("Not sent: the connection is down. Press again once it is back."),
        # Asked before a play when the player's "confirm before playing" preference is on.
        "confirmPlay": _("Play %(cards)s?"),
        # Read out when Shift+arrows move a card in the hand (static/js/hand_arrange.js).
        "cardMoved": _("%(card)s moved: place %(place)s of %(count)s"),
    }


#: The AI difficulties a host may pick, as (value, label): labels translated when shown (lazy).
#: Built once, not per view (Django builds ``choices`` anew at every read).
AI_POLICIES: tuple[tuple[str, str], ...] = tuple(Seat.Policy.choices)


def view_for(state: State, seat: int | None) -> View:
    return seat_view(state, seat) if seat is not None else spectator_view(state)


def _leave_closes(table: Table, seats: list[Seat], seat: int | None, is_open: bool) -> bool:
    """Whether the viewer at ``seat`` standing up would close the table (``tables.leave_seat``):
    not started, no other seat taken by a person or an AI, not an organiser's (asked only then:
    a query)."""
    if not is_open or seat is None or any(not s.is_empty for s in seats if s.number != seat):
        return False
    return not organisers.is_scheduled(table.pk)


def table_context(
    table: Table,
    match: Match | None,
    state: State | None,
    seat: int | None,
    user: User | AnonymousUser | None = None,
    *,
    spectators: int | None = None,
    delay: int = 0,
    seats: list[Seat] | None = None,
    recent_moves: list[Move] | None = None,
    shared: public_part.SharedParts | None = None,
    away: frozenset[int] | None = None,
) -> TableContext:
    """Everything the table page and its pushed regions show ``seat`` (None: a spectator).

    ``state`` is what this viewer sees: for a spectator of a delayed table, the state ``delay``
    moves back (``games.live.spectating``), shown without the live countdown. ``spectators`` is how
    many are watching (None: unknown). ``seats`` (with their users) and ``recent_moves`` (the
    last ``LOG_LENGTH`` moves up to the shown version, newest first) may be handed in by a caller
    that renders several viewers from one load (``games.live.push``); otherwise they are queried.
    ``shared`` (a dict the caller keeps for one push) lets the viewers of one state share the
    part they all see alike (``_public``). ``away``: the seats the table shows away
    (``games.live.away.shown_away``; None: none).
    """
    if seats is None:
        seats = list(table.seats.select_related("user"))
    signed_in = user is not None and user.is_authenticated
    is_host = signed_in and user is not None and table.host_id == user.pk
    is_open = table.status == Table.Status.OPEN
    common: dict[str, Any] = {
        "table": table,
        "match": match,
        "ai_policies": AI_POLICIES,
        "ai_fill_default": FILL_DEFAULT,
        "me": seat,
        "is_host": is_host,
        "signed_in": signed_in,
        "is_open": is_open,
        # The host may close a table not started yet, unless an organiser schedules it
        # (``games.play.tables.close_table``): asked only for the host's own page.
        "can_close": is_host and is_open and not organisers.is_scheduled(table.pk),
        "leave_closes": _leave_closes(table, seats, seat, is_open),
        "seats_full": not any(s.is_empty for s in seats),
        "rated_uncounted": table.rated and ai_plays_a_seat(seats),
        "invite_path": _invite_path(table, is_host or seat is not None),
        **spectators_context(table, spectators, delay),
    }
    if match is None or state is None:
        rows = [public_part.seat_row(s, None, seat) for s in seats]
        return TableContext(
            seats=_around_the_table(rows, None, seat, table.players),
            away=displayed(seats, away),
            **common,
        )
    view = shared.view(state, seat) if shared is not None else view_for(state, seat)
    public = public_part.public(match, state, view, seats, delay, shared)
    names = public["names"]
    stopped = stopped_why(table, seats)
    # What this seat's person may do themselves: nothing while the AI stands in for them, nor
    # once the match was stopped.
    own = own_seat(seats, seat, stopped=bool(stopped))
    window = None if stopped else public["window"]  # a stopped match's window closes no more
    my_window = _my_window(view, own.acting)
    choices = _choices(state, view, own.acting)
    match_over = view.phase == MATCH_OVER
    rematch = rematch_view.rematch_context(table, match_over, seat, seats, names)
    last = public["last"]
    hand = hand_groups(view.hand, view.level, view.options) if seat is not None else []
    return TableContext(
        stopped=stopped,
        seats=[
            public_part.SeatRow(
                row,
                is_me=row["number"] == seat,
                pos=seat_position(row["number"], seat, table.players),
                last=last.get(row["number"]),
            )
            for row in public["rows"]
        ],
        version=view.version,
        phase=view.phase,
        turn=view.turn,
        round_no=view.round_no,
        round_level=public["round_level"],
        levels=public["levels"],
        my_turn=own.my_turn(view),
        ai_turn_for_me=own.ai_turn(view),
        turn_name=public["turn_name"],
        countdown=public["countdown"],
        trick=public["trick"],
        # "<name> leads the trick", shown while the trick is empty.
        trick_leader=public["turn_name"] if not view.trick and view.phase == PLAY else None,
        top=public["top"],
        window=window,
        my_window=my_window,
        own_window=window is not None and seat == window["owner"],
        window_open=window is not None,
        away=displayed(seats, away),
        tributes=public["tributes"],
        in_tribute=view.phase == TRIBUTE,
        result=public["result"],
        match_over=match_over,
        hand=hand,
        hand_size=len(view.hand),
        play_phase=view.phase in (PLAY, WINDOW) and not stopped,
        tracker=unseen_cards(view, public["played"], hand) if seat is not None else None,
        seat_menu=None if stopped else _seat_menu(table, seats, seat, view),
        # The rematch's countdown is a clock, apart from the offer it counts down.
        rematch=rematch and {k: v for k, v in rematch.items() if k != "countdown"},
        rematch_countdown=rematch and rematch["countdown"],
        log=log_for(match, seat, names, view.version, recent_moves),
        claim_help=claim_help(view, own, my_window, choices["claim"], names),
        **choices,
        **common,
    )


def stopped_why(table: Table, seats: list[Seat]) -> str:
    """Why the match at ``table`` was stopped (``TableContext.stopped``): "" unless its table
    is abandoned; "nobody" when only stand-ins played its people's ``seats`` (a casual match is
    stopped only so: ``games.play.unattended``), else "stopped" (an organiser's forfeit). Reads
    the seats it is given: no query."""
    if table.status != Table.Status.ABANDONED:
        return ""
    return "nobody" if only_stand_ins(seats) else "stopped"


def _seat_menu(
    table: Table, seats: list[Seat], me: int | None, view: View
) -> dict[str, Any] | None:
    """The own seat's stand-in and leaving controls (``games.play.standins``) while the match runs:
    ``stand_in`` (why the AI plays for this person, or ""), ``seq`` (the hand-over a request
    answers), ``can_leave`` (casual tables only). None for spectators and after the match."""
    if me is None or view.phase == MATCH_OVER:
        return None
    mine = next((s for s in seats if s.number == me), None)
    if mine is None:
        return None
    return {"stand_in": mine.stand_in, "seq": mine.stand_in_seq, "can_leave": not table.rated}


def spectators_context(table: Table, count: int | None, delay: int) -> dict[str, Any]:
    """The spectator region: how many watch, and how late spectators see the table."""
    return {"spectators": count, "spectator_delay": delay, "table_delay": table.spectator_delay}


def _invite_path(table: Table, member: bool) -> str:
    """A private table's invite link, for its host and seated players only."""
    if table.visibility != Table.Visibility.PRIVATE or not member:
        return ""
    return reverse("games:join", args=[table.invite_code])


#: Each face's cards in one deck.
_CARDS_OF_FACE: dict[int, list[str]] = {}
for _card in DECK:
    _CARDS_OF_FACE.setdefault(FACE[_card], []).append(_card)


def unseen_cards(
    view: View, played: Counter[int] | None = None, hand: list[dict[str, Any]] | None = None
) -> list[dict[str, Any]]:
    """The cards that matter most that this seat has not seen yet this round, counted from its
    own view only: the decks minus its hand and the cards played (``view.played``) — never
    from another seat's hand. ``[{"face": "BJ", "left": 2, "level": False}, …]`` for the
    black and red jokers, the level rank, the 4s and the As, in that order. ``played``:
    ``played_faces(view)``, which every view of one state shares (``public_part``); ``hand``:
    the view's ``hand_groups``, whose counts by face are kept with the hand (``HandGroups``)."""
    # Counted by face (C's Counter over the faces of ~100 cards).
    mine: Mapping[int, int] = (
        hand.counts if isinstance(hand, HandGroups) else Counter(map(FACE.__getitem__, view.hand))
    )
    if played is None:
        played = public_part.played_faces(view)
    decks = view.options.decks
    rows = []
    for face in dict.fromkeys([BLACK_JOKER, RED_JOKER, view.level, 4, 14]):  # level 4 or A: once
        left = decks * len(_CARDS_OF_FACE[face]) - mine.get(face, 0) - played[face]
        rows.append({"face": face_name(face), "left": left, "level": face == view.level})
    return rows


def seat_position(number: int, me: int | None, players: int) -> int:
    """Where a seat sits around the table as this viewer sees it: 0 at the bottom (the viewer's
    own seat, or seat 1 for a spectator), then clockwise in the order of play — at a 4-seat
    table 1 left, 2 top (the partner, opposite), 3 right."""
    return (number - (me or 0)) % players


def _around_the_table(
    rows: list[dict[str, Any]], view: View | None, me: int | None, players: int
) -> list[dict[str, Any]]:
    """Each seat row with its place (``pos``, ``seat_position``) and, during a match, its last
    step in the current trick (``last``: ``{"kind": play|pass|hook|unhook|bomb, "cards":
    [CardFace…], "top": bool}`` or None), shown in front of the seat until the trick ends.
    Both are part of the row, so of the seat's delta key (``regions.seat_keys``)."""
    last = public_part.last_steps(view) if view is not None else {}
    for row in rows:
        row["pos"] = seat_position(row["number"], me, players)
        if view is not None:
            row["last"] = last.get(row["number"])
    return rows


def _my_window(view: View, seat: int | None) -> dict[str, Any] | None:
    """The part in the open window of ``seat``, the seat this viewer acts for (None: a
    spectator, or the AI stands in for them)."""
    window = view.window
    if window is None:
        return None
    can_answer = (
        seat is not None
        and seat != window.owner
        and view.hand_sizes[seat] > 0
        and not window.answered[seat]
    )
    return {
        "can_answer": can_answer,
        "answered": view.my_answer is not None,
        "my_claim": bool(view.my_answer),
    }


def _choices(state: State, view: View, seat: int | None) -> dict[str, Any]:
    """The seat's legal choices now: hints for plays, claim buttons, return cards."""
    if seat is None or view.phase not in (PLAY, WINDOW, TRIBUTE):
        return {"hints": "[]", "can_pass": False, "claim": None, "returns": []}
    legal = legal_actions(state, seat)
    if not legal:  # not this seat's turn, window or return: nothing to offer
        return {"hints": "[]", "can_pass": False, "claim": None, "returns": []}
    plays = _weakest_first([list(a.cards) for a in legal if isinstance(a, Play)], view)
    claim = next((a for a in legal if isinstance(a, (Hook, Unhook))), None)
    returns = [card_face(a.card, view.level) for a in legal if isinstance(a, Return)]
    return {
        "hints": json.dumps(plays),
        "can_pass": view.phase == PLAY and any(isinstance(a, Pass) for a in legal),
        "claim": {
            "mode": "hook" if isinstance(claim, Hook) else "unhook",
            "cards": list(claim.cards),
        }
        if claim
        else None,
        "returns": returns,
    }


def _combo(cards: list[str], view: View) -> Combo:
    """The combination a hint plays; ValueError if it is none (a hint is a legal play)."""
    combo = classify(cards, view.level, view.options)
    if combo is None:
        raise ValueError(f"a hint that is no combination: {cards}")
    return combo


def _weakest_first(plays: list[list[str]], view: View) -> list[list[str]]:
    """Hints in the order a player tries them: non-bombs before bombs, then by category (as the
    engine lists them), then the weakest first (§2 power of the highest card)."""
    if not plays:
        return plays
    power = table_for(view.level, view.options)
    combos = [_combo(cards, view) for cards in plays]  # each classified once
    order: dict[str, int] = {}
    for combo in combos:
        order.setdefault(combo.category, len(order))
    keys = [
        (combo.is_bomb, order[combo.category], max(power[FACE[c]] for c in cards))
        for cards, combo in zip(plays, combos, strict=True)
    ]
    ranked = sorted(range(len(plays)), key=keys.__getitem__)  # stable, as sorted(plays, key=…)
    return [plays[n] for n in ranked]
