"""The move log as sentences: one line per event worth telling, in the reader's language, as a
viewer may see it (``engine.views.event_for`` filters a pending claim's cards) — for the table's
log and for the match record, which adds what only a finished match may say."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.engine.views import event_for
from games.live.cards import card_text
from games.live.teams import team_name
from games.models import Match, Move, Seat

#: Log lines a table shows; table.js keeps as many when lines are appended, and a fresh render
#: reads twice as many moves (some make no line) so that both show the same.
LOG_LENGTH = 40


def seat_names(seats: list[Seat]) -> dict[int, str]:
    """Seat number → the name shown for it (username, "AI n" or "Empty seat"), translated."""
    return {s.number: seat_name(s) for s in seats}


def seat_name(seat: Seat) -> str:
    """The name shown for a seat: its person's username, "AI n", or "Empty seat" (translated)."""
    if seat.user_id:
        return seat.user.username
    if seat.ai_policy:
        return _("AI %(number)s") % {"number": seat.number + 1}
    return _("Empty seat")


def recent_moves(match: Match, until: int) -> list[Move]:
    """The last ``2 * LOG_LENGTH`` moves up to version ``until``, newest first (one query)."""
    return list(Move.objects.filter(match=match, seq__lte=until).order_by("-seq")[: 2 * LOG_LENGTH])


def log_for(
    match: Match, seat: int | None, names: dict, until: int, moves: list[Move] | None
) -> list[str]:
    """The latest moves up to version ``until`` (the shown state) as lines of text, filtered
    for this viewer (``event_for``)."""
    if moves is None:
        moves = recent_moves(match, until)
    lines = []
    for move in reversed([m for m in moves if m.seq <= until]):
        lines.extend(log_lines(move.events, seat, names))
    return lines[-LOG_LENGTH:]


def log_lines(events, seat: int | None, names: dict) -> list[str]:
    """One move's events as log lines for this viewer: filtered by ``event_for`` (a pending
    claim's cards only for its seat), events not worth a line left out."""
    lines = []
    for event in events:
        shown = event_for(event, seat)
        if shown is not None:
            line = describe_event(shown, names)
            if line:
                lines.append(line)
    return lines


def describe_event(event: dict, names: dict) -> str:
    """One log line for a (filtered) event, or "" for events not worth a line."""
    kind = event["type"]
    who = names.get(event.get("seat"), "")
    cards = " ".join(card_text(c) for c in event.get("cards") or [])
    texts = {
        "play": _("%(who)s played %(cards)s"),
        "bomb": _("%(who)s bombed with %(cards)s"),
        "pass": _("%(who)s's turn timed out: passed")
        if event.get("timeout")
        else _("%(who)s passed"),
        "hook": _("%(who)s hooked with %(cards)s"),
        "unhook": _("%(who)s unhooked with %(cards)s"),
        "answer": _("%(who)s answered the claim window"),
        "outranked": _("Your claim was outranked by %(by)s"),
        "finished": _("%(who)s is out (place %(place)s)"),
        "trick_won": _("%(who)s won the trick"),
        "timeout": _("%(who)s ran out of time"),
        "tribute": _("%(payer)s paid %(card)s to %(receiver)s"),
        "return": _("%(who)s returned %(card)s"),
        # The event's team is §7's T (all its seats out), not the team of the first out.
        "round_over": _("Round over: every player of %(team)s is out"),
        "match_over": _("Match over: %(winner)s wins"),
        "deal": _("Round %(round)s dealt"),
        "resign": _("%(who)s resigned the match"),
    }
    text = texts.get(kind)
    if text is None:
        return ""
    return text % {
        "who": who,
        "cards": cards,
        "by": names.get(event.get("by"), ""),
        "place": event.get("place", ""),
        "payer": names.get(event.get("payer"), ""),
        "receiver": names.get(event.get("receiver"), ""),
        "card": card_text(event["card"]) if event.get("card") else "",
        "team": team_name(event.get("team") or 0) if kind == "round_over" else "",
        "winner": team_name(event.get("winner") or 0) if kind == "match_over" else "",
        "round": event.get("round", ""),
    }


def describe(event: dict, names: dict, reveal: bool) -> str:
    """A line for one event as the record shows it: with ``reveal`` (a finished match) window
    answers say what was answered; otherwise the event must already be filtered."""
    kind = event["type"]
    who = names.get(event.get("seat"), "")
    if kind == "answer" and reveal:
        if event.get("cards"):
            return _("%(who)s claimed with %(cards)s") % {
                "who": who,
                "cards": " ".join(card_text(c) for c in event["cards"]),
            }
        return _("%(who)s passed the claim window") % {"who": who}
    if kind == "outranked":
        return _("%(who)s's claim was outranked by %(by)s") % {
            "who": who,
            "by": names.get(event.get("by"), ""),
        }
    if kind == "window_closed" and not event.get("bombed"):
        # The clock closing a window (or every seat passing it): say so, or the line is empty.
        return _("Claim window closed, no claim")
    return describe_event(event, names)


def move_lines(move: Move, names: dict, reveal: bool) -> list[str]:
    lines = []
    for event in move.events:
        shown = event if reveal else event_for(event, None)
        if shown is not None:
            line = describe(shown, names, reveal)
            if line:
                lines.append(line)
    return lines
