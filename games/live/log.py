"""The move log as sentences: one line per event worth telling, in the reader's language, as a
viewer may see it (``engine.views.event_for`` filters a pending claim's cards) — for the table's
log and for the match record, which adds what only a finished match may say.

Events are the engine's (``games.engine.events``); a move's stored JSON is decoded with
``codec.events_from_json``."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from games.engine.codec import events_from_json
from games.engine.events import (
    Answered,
    Bombed,
    Dealt,
    Event,
    Finished,
    HiddenAnswer,
    Hooked,
    MatchOver,
    Outranked,
    Passed,
    Played,
    Resigned,
    Returned,
    RoundOver,
    TimedOut,
    TributePaid,
    TrickWon,
    Unhooked,
    WindowClosed,
)
from games.engine.views import event_for
from games.live.cards import card_text
from games.live.speech import gettext as _
from games.live.teams import team_name
from games.models import Match, Move, Seat

#: Log lines a table shows; table.js keeps as many when lines are appended, and a fresh render
#: reads ``LOG_MOVES`` moves so that both show the same.
LOG_LENGTH = 40
#: Moves a fresh render reads for ``LOG_LENGTH`` lines: a window's answers make no line of
#: their own (``log_lines``), so at 8 seats a play and its window's seven answers make two
#: lines in eight moves — one in four at worst.
LOG_MOVES = 4 * LOG_LENGTH


def seat_names(seats: list[Seat]) -> dict[int, str]:
    """Seat number → the name shown for it (username, "AI n" or "Empty seat"), translated."""
    return {s.number: seat_name(s) for s in seats}


def seat_name(seat: Seat) -> str:
    """The name shown for a seat: its person's username, "AI n", or "Empty seat" (translated)."""
    if seat.user is not None:  # (no query for an empty seat: its user_id is None)
        return seat.user.username
    if seat.ai_policy:
        return _("AI %(number)s") % {"number": seat.number + 1}
    return _("Empty seat")


def recent_moves(match: Match, until: int) -> list[Move]:
    """The last ``LOG_MOVES`` moves up to version ``until``, newest first (one query)."""
    return list(Move.objects.filter(match=match, seq__lte=until).order_by("-seq")[:LOG_MOVES])


def log_for(
    match: Match, seat: int | None, names: Mapping[int, str], until: int, moves: list[Move] | None
) -> list[str]:
    """The latest moves up to version ``until`` (the shown state) as lines of text, filtered
    for this viewer (``event_for``)."""
    if moves is None:
        moves = recent_moves(match, until)
    lines = []
    for move in reversed([m for m in moves if m.seq <= until]):
        lines.extend(log_lines(events_from_json(move.events), seat, names))
    return lines[-LOG_LENGTH:]


def log_lines(events: Iterable[Event], seat: int | None, names: Mapping[int, str]) -> list[str]:
    """One move's events as the table's log lines for this viewer: filtered by ``event_for`` (a
    pending claim's cards only for its seat), events not worth a line left out. A window's
    answers make no line — the seats show who answered while it is open (``seat.jinja``), and
    three "answered" lines per play buried the plays — and its close makes one: its claim won
    (``Hooked``, ``Unhooked``) or "Claim window closed, no claim"."""
    lines = []
    for event in events:
        shown = event_for(event, seat)
        if shown is None or isinstance(shown, Answered | HiddenAnswer):
            continue
        line = describe_event(shown, names)
        if line:
            lines.append(line)
    return lines


def describe_event(event: Event, names: Mapping[int, str]) -> str:
    """One log line for a (filtered) event, or "" for events not worth a line."""

    def who(seat: int) -> str:
        return names.get(seat, "")

    def cards(shown: tuple[str, ...]) -> str:
        return " ".join(card_text(c) for c in shown)

    match event:
        case Played(seat=seat, cards=shown):
            return _("%(who)s played %(cards)s") % {"who": who(seat), "cards": cards(shown)}
        case Bombed(seat=seat, cards=shown):
            return _("%(who)s bombed with %(cards)s") % {"who": who(seat), "cards": cards(shown)}
        case Passed(seat=seat, timeout=timeout):
            text = _("%(who)s's turn timed out: passed") if timeout else _("%(who)s passed")
            return text % {"who": who(seat)}
        case Hooked(seat=seat, cards=shown):
            return _("%(who)s hooked with %(cards)s") % {"who": who(seat), "cards": cards(shown)}
        case Unhooked(seat=seat, cards=shown):
            return _("%(who)s unhooked with %(cards)s") % {"who": who(seat), "cards": cards(shown)}
        case Answered(seat=seat) | HiddenAnswer(seat=seat):
            return _("%(who)s answered the claim window") % {"who": who(seat)}
        case Outranked(by=by):
            return _("Your claim was outranked by %(by)s") % {"by": who(by)}
        case Finished(seat=seat, place=place):
            return _("%(who)s is out (place %(place)s)") % {"who": who(seat), "place": place}
        case WindowClosed(bombed=False):
            # The clock closing a window, or every seat passing it (a bomb's line says so).
            return _("Claim window closed, no claim")
        case TrickWon(seat=seat):
            return _("%(who)s won the trick") % {"who": who(seat)}
        case TimedOut(seat=seat):
            return _("%(who)s ran out of time") % {"who": who(seat)}
        case TributePaid(payer=payer, receiver=receiver, card=card):
            return _("%(payer)s paid %(card)s to %(receiver)s") % {
                "payer": who(payer),
                "card": card_text(card),
                "receiver": who(receiver),
            }
        case Returned(seat=seat, card=card):
            return _("%(who)s returned %(card)s") % {"who": who(seat), "card": card_text(card)}
        case RoundOver(team=team):
            # The event's team is §7's T (all its seats out), not the team of the first out.
            return _("Round over: every player of %(team)s is out") % {"team": team_name(team)}
        case MatchOver(winner=winner):
            return _("Match over: %(winner)s wins") % {"winner": team_name(winner)}
        case Dealt(round=number):
            return _("Round %(round)s dealt") % {"round": number}
        case Resigned(seat=seat):
            return _("%(who)s resigned the match") % {"who": who(seat)}
    return ""


def describe(event: Event, names: Mapping[int, str], reveal: bool) -> str:
    """A line for one event as the record shows it: with ``reveal`` (a finished match) window
    answers say what was answered; otherwise the event must already be filtered."""
    if isinstance(event, Answered) and reveal:
        who = names.get(event.seat, "")
        if event.cards:
            return _("%(who)s claimed with %(cards)s") % {
                "who": who,
                "cards": " ".join(card_text(c) for c in event.cards),
            }
        return _("%(who)s passed the claim window") % {"who": who}
    if isinstance(event, Outranked):
        return _("%(who)s's claim was outranked by %(by)s") % {
            "who": names.get(event.seat, ""),
            "by": names.get(event.by, ""),
        }
    return describe_event(event, names)


def move_lines(move: Move, names: Mapping[int, str], reveal: bool) -> list[str]:
    return [line for part in move_parts(move, names, reveal) for line in part.lines]


def actor(event: Event) -> int | None:
    """The seat an event tells of (who played, answered, claimed, won the trick, went out, paid
    or returned), or None for the table's own events (a window closing, a deal, a round's or
    the match's end)."""
    if isinstance(event, TributePaid):
        return event.payer
    if isinstance(event, Dealt | RoundOver | MatchOver | WindowClosed):
        return None
    seat = getattr(event, "seat", None)
    return seat if isinstance(seat, int) else None


@dataclass
class MovePart:
    """Lines of one move that tell of one seat: ``seat`` None for the clock's own part."""

    seat: int | None
    lines: list[str] = field(default_factory=list)


def move_parts(move: Move, names: Mapping[int, str], reveal: bool) -> list[MovePart]:
    """A move's lines (as ``describe`` says them) split by who did what: the first part is the
    mover's (``move.seat``; the clock's for a timeout), and each run of lines telling of another
    seat is a part of its own — a claim that this answer settled (§6.3), the trick its last
    claimant won, a tribute. The record shows each part under its seat: one line "di answered
    the claim window; ana hooked with 9♥ 9♣" under di read as di hooking. The table's own
    events (a window closed, a round over) stay in the part they follow."""
    parts: list[MovePart] = []
    # Whose lines the last part holds: the mover's, or the seat the clock acted for.
    holder = move.seat
    for event in events_from_json(move.events):
        shown = event if reveal else event_for(event, None)
        line = describe(shown, names, reveal) if shown is not None else ""
        if not line:
            continue
        seat = actor(shown) if shown is not None else None
        if not parts:
            parts.append(MovePart(move.seat, [line]))
            holder = seat if holder is None else holder
        elif seat is not None and seat != holder:
            parts.append(MovePart(seat, [line]))
            holder = seat
        else:
            parts[-1].lines.append(line)
    return parts
