"""What the writer checks before it applies a person's action (DESIGN.md rule 1), as plain
functions of what it read under the match row lock: the payload's own shape, the seat, the
stand-in, a client id seen before, the action's fields, a version that no longer fits.

Nothing here reads or writes: the writer (``services.submit``) passes what it read under the
lock, and whether a client id was seen is asked through its ``seen`` (the lock's own answer,
else a statement), so each rule can be read — and tested — apart from the transaction.

May import the engine, ``games.models`` and ``games.play.outcomes``/``standins``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from accounts.models import User
from games.engine import Pass, Play, Resign
from games.engine.actions import Action
from games.engine.codec import CodecError, action_from_json
from games.engine.state import TRIBUTE, WINDOW, State
from games.live.replay import load_state
from games.models import Match, Move, Seat, Table
from games.play import standins
from games.play.outcomes import PLAYER_ACTIONS, Result

#: The longest ``client_id`` a move may carry (``Move.client_id``'s column).
CLIENT_ID_MAX: int = Move._meta.get_field("client_id").max_length or 64


def payload_refusal(payload: object) -> Result | None:
    """Why a person's ``payload`` (``{"action", "cards"|"card", "version", "client_id"}``) is
    refused before the match is read, or None: an unknown action, a client id that is not a
    string or is over ``CLIENT_ID_MAX`` characters (refused, not cut: two ids alike in their
    first characters would be one id, and the second move answered "duplicate" unapplied)."""
    if not isinstance(payload, dict) or payload.get("action") not in PLAYER_ACTIONS:
        return Result(False, "malformed", "unknown action")
    if not isinstance(payload.get("client_id"), str | None):  # as the bot API's schema
        return Result(False, "malformed", "the client_id is not a string")
    if len(payload.get("client_id") or "") > CLIENT_ID_MAX:
        return Result(False, "malformed", f"the client_id is over {CLIENT_ID_MAX} characters")
    return None


@dataclass(frozen=True)
class Judged:
    """What the locked checks found: the user's ``seat`` (None: not seated), and either the
    ``refused`` Result or the ``action`` (its seat the user's own) with the ``state`` it would
    apply to. Whether its deadline passed or its version still fits is the caller's next step
    (``services.deadline_passed``, ``stale``)."""

    seat: Seat | None
    refused: Result | None = None
    action: Action | None = None
    state: State | None = None


#: The seat and action JSON of the move a client id was logged with (``writes.client_id_move``).
LoggedMove = tuple[int | None, dict[str, Any]] | None


def judge(
    match: Match,
    seats: list[Seat],
    user: User,
    payload: dict[str, Any],
    seen: Callable[[], bool],
    logged: Callable[[], LoggedMove],
) -> Judged:
    """Check ``payload`` (passed ``payload_refusal``) against the locked ``match`` (with its
    table) and its ``seats``: a stopped match, no seat of the user's, a seat the AI plays now
    (``standins.refusal``), a client id seen before (``seen()``, asked only here: it may cost
    a statement; then ``logged()``, the move it was seen with: ``resent_or_reused``), an action
    the engine's codec cannot read. The seat is always the user's own, never one named in the
    payload."""
    if match.table.status == Table.Status.ABANDONED:
        return Judged(None, Result(False, "abandoned", "this match was stopped", match.version))
    seat = next((s for s in seats if s.user_id == user.pk), None)
    if seat is None:
        return Judged(None, Result(False, "not_seated", "you have no seat at this table",
                                   match.version))  # fmt: skip
    refused = standins.refusal(seat, payload["action"])  # the AI plays this seat now
    if refused:
        return Judged(seat, Result(False, refused, "an AI plays this seat", match.version))
    if payload.get("client_id") and seen():
        return Judged(seat, resent_or_reused(match, seat, payload, logged()))
    state = load_state(match)
    try:
        action = action_from_json({**_action_fields(payload), "seat": seat.number})
    except CodecError as e:
        return Judged(seat, Result(False, "malformed", str(e), match.version))
    return Judged(seat, action=action, state=state)


def resent_or_reused(
    match: Match, seat: Seat, payload: dict[str, Any], logged: LoggedMove
) -> Result:
    """The refusal of a move whose client id the match's log holds (``logged``: the seat and
    action it was logged with). The same seat's same action again is a resend: "duplicate",
    not applied twice. Anything else reuses an id that names another move: "client_id_used",
    so that the sender is not told its move was made (docs/BOT_API.md)."""
    if logged is not None and logged[0] == seat.number:
        try:
            again = action_from_json({**_action_fields(payload), "seat": seat.number})
            if again == action_from_json(logged[1]):
                return Result(False, "duplicate", "already applied", match.version)
        except CodecError:
            pass  # not the logged move, whatever it is
    return Result(
        False,
        "client_id_used",
        "the client_id names another move of this match: send each move with a new one",
        match.version,
    )


def _action_fields(payload: dict[str, Any]) -> dict[str, Any]:
    fields = {"type": payload["action"]}
    if payload["action"] == "resign":
        return fields
    if payload["action"] == "return":
        fields["card"] = payload.get("card")
    elif payload["action"] != "pass":
        fields["cards"] = payload.get("cards")
    return fields


def stale(match: Match, state: State, action: Action, version: object) -> str:
    """Why an action no longer fits (DESIGN.md rule 1), or "".

    A turn action must be made against the current version. A window answer or a tribute return
    must have been made after the window (or tribute) it answers opened: answers from several
    seats to one window are all taken, whatever the version moved to meanwhile.
    """
    if type(version) is not int:
        return "the action carries no version"
    if isinstance(action, Resign):  # meant whatever the table did since, but not from the future
        return "" if version <= match.version else "the table has no such version"
    if state.phase in (WINDOW, TRIBUTE) and not isinstance(action, Play):
        return "" if version >= match.deadline_token else "that window or tribute has closed"
    if isinstance(action, (Play, Pass)) and version != match.version:
        return "the table moved on since that action"
    return ""
