"""What became of a request to the writer: ``Result``, every refusal code with the sentence a
player reads and the HTTP status the bot API answers, and the one log line per action.

One registry (``REFUSALS``) for the engine's rejection codes (``engine.actions.CODES``) and the
writer's own (a stale version, a duplicate, a seat the AI plays…): the table's socket, the
pages' forms and the bot API all read it, so a code means the same everywhere.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Literal, get_args

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

log = logging.getLogger("games.play.services")  # one logger name for every action line

#: Actions a person may send; the clock's actions (timeout, next round) are the server's own.
PlayerAction = Literal["play", "pass", "hook", "unhook", "return", "resign"]
PLAYER_ACTIONS: tuple[PlayerAction, ...] = get_args(PlayerAction)
#: Requests about who plays a seat (``games.play.standins.control``).
CONTROLS = ("stand_in", "back", "leave")


def form_number(value: object) -> int | None:
    """A whole number 0 or more sent as a string of ASCII digits (a form's ``version`` or
    ``stand_in_seq``), else None. ``str.isdigit`` alone lets through what ``int`` refuses
    ("²", or more digits than Python converts), which would be a server error."""
    if not isinstance(value, str) or not (value.isascii() and value.isdigit()):
        return None
    try:
        return int(value)
    except ValueError:  # longer than sys.get_int_max_str_digits()
        return None


@dataclass(frozen=True)
class Result:
    """What became of a submitted action: ``ok``, or a rejection ``code`` and ``message`` (in
    English, for logs and the API), with the match ``version`` it was made or refused at."""

    ok: bool
    code: str = ""
    message: str = ""
    version: int = 0


@dataclass(frozen=True)
class Refusal:
    """A refusal code's sentence for players and its HTTP status for the bot API."""

    text: Promise
    status: int = 409


REFUSALS: dict[str, Refusal] = {
    "malformed": Refusal(_("That message could not be read."), 400),
    "not_your_turn": Refusal(_("It is not your turn.")),
    "not_in_hand": Refusal(_("You do not hold those cards.")),
    "invalid_combination": Refusal(_("Those cards are not a valid combination.")),
    "does_not_beat": Refusal(_("That does not beat the cards on the table.")),
    "leader_cannot_pass": Refusal(_("You lead this trick: play something.")),
    "window_open": Refusal(_("A claim window is open: hook, unhook or pass first.")),
    "no_window": Refusal(_("There is nothing to claim now.")),
    "invalid_claim": Refusal(_("A hook is a pair of the same face, an unhook a single.")),
    "already_answered": Refusal(_("You already answered this claim window.")),
    "owner_cannot_claim": Refusal(_("You cannot claim your own card.")),
    "empty_play": Refusal(_("Select the cards to play first.")),
    "unknown_card": Refusal(_("That is not a card.")),
    # The engine's one code for a return with no tribute running, by a seat owed none, or of a
    # card that may not go back: the sentence covers all three (it said only the last).
    "invalid_return": Refusal(
        _("That return cannot be made: only during a tribute, one card of face 2 to 9.")
    ),
    "tribute_pending": Refusal(_("Waiting for tribute returns.")),
    "finished": Refusal(_("You are out of this round.")),
    "round_over": Refusal(_("The round is over.")),
    "match_over": Refusal(_("The match is over.")),
    "not_seated": Refusal(_("Spectators cannot play."), 403),
    "stale": Refusal(_("The table moved on; here is the current state.")),
    "late": Refusal(_("Too late: the time ran out before your move arrived.")),
    "abandoned": Refusal(_("This match was stopped.")),
    "duplicate": Refusal(_("That move was already received.")),
    "client_id_used": Refusal(
        _(
            "That client_id was already used for another move of this match: "
            "send each move with a new one."
        )
    ),
    "stand_in": Refusal(_("The AI is playing for you: press “I'm back” to play yourself.")),
    "not_stood_in": Refusal(_("You are playing your seat yourself.")),
    "left": Refusal(_("You left this match: the AI finishes it for you.")),
    "leave_rated": Refusal(
        _("At a rated table you cannot leave for good: resign, or let the AI play for a while.")
    ),
}
_OTHER = Refusal(_("That move is not allowed now."))


def refusal_message(result: Result) -> str:
    """The sentence, in the active language, that tells a player why ``result`` was refused."""
    return str(REFUSALS.get(result.code, _OTHER).text)


def http_status(code: str) -> int:
    """The bot API's HTTP status for refusal ``code`` (409 Conflict for any code not listed)."""
    return REFUSALS.get(code, _OTHER).status


def action_kind(payload: object) -> str:
    """The action a client message names when it is one a person may send, else "unknown":
    a log line never repeats what a client wrote."""
    if isinstance(payload, dict) and payload.get("action") in (*PLAYER_ACTIONS, *CONTROLS):
        return str(payload["action"])
    return "unknown"


def log_action(
    event: str,
    match_id: int | None,
    seat: int | None,
    payload: object,
    result: Result | str,
    started: float,
    **fields: object,
) -> None:
    """Log one line for an action: ``event`` (e.g. ``"game.action"``) with the match id, the
    version the action made (or the match was at when refused), the seat number, the action
    kind (``action_kind``), the outcome (``"ok"`` or the rejection code; or ``result`` itself
    when it is a code) and the milliseconds since ``started`` (a ``time.perf_counter()``),
    plus ``fields``. Never the cards, a hand, the seed or the state (DESIGN.md rule 2)."""
    if isinstance(result, str):
        outcome, version = result, None
    else:
        outcome, version = ("ok" if result.ok else result.code), result.version
    log.info(
        event,
        extra={
            "match": match_id,
            "version": version,
            "seat": seat,
            "action": action_kind(payload),
            "outcome": outcome,
            "ms": round((time.perf_counter() - started) * 1000, 1),
            **fields,
        },
    )
