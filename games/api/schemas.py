"""The bot API's request and answer bodies (django-ninja schemas), docs/BOT_API.md.

The OpenAPI schema (``/api/v1/openapi.json``) is generated from these, so what an operation
declares here is what it answers: ``answers`` adds the answers every operation can give (no
valid token, over the rate; with path parameters: malformed; with a body: malformed, too large)
to each operation's own.
Request bodies are strict: a JSON ``true``, ``"1"`` or ``1.5`` where an integer is due, or ``7``
where a string is, is refused ``400 malformed``, never coerced (``{"seat": true}`` is not seat
1). The schema classes' docstrings are the schema's descriptions (Markdown: single backticks).
"""

from __future__ import annotations

from http.client import responses
from typing import Annotated, Any, Literal

from ninja import Schema
from ninja.streaming import StreamFormat
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from games.play.checks import CLIENT_ID_MAX
from games.play.outcomes import PlayerAction

#: Seats and teams count from 0 on the wire (bots depend on it); the table page counts from 1.
SEAT = (
    "A seat number, counting from 0: `0` … `players − 1` clockwise. Seat `0` is the table "
    "page's “Seat 1”, seat `1` its “Seat 2”, and so on."
)
TEAM = (
    "A team number, counting from 0: team `0` holds the even seats (the table page's "
    "“Team 1”), team `1` the odd seats (its “Team 2”)."
)

# --- errors ------------------------------------------------------------------------------------


class ErrorOut(Schema):
    """Every error: a stable `code` (`unauthorized`, `not_found`, `refused`…) and a
    `message` for people."""

    code: str
    message: str


class ErrorDetail(Schema):
    """Where a request does not fit the schema (`["body", "seat"]`: the body's `seat`;
    `["path", "match_id"]`) and what is wrong; the input is never echoed back."""

    loc: list[str]
    msg: str


class MalformedOut(ErrorOut):
    """`400 malformed`: the request does not fit the schema (not JSON, a missing field, a
    field of the wrong type, an unknown action)."""

    code: Literal["malformed"]
    errors: list[ErrorDetail]


class RefusalOut(Schema):
    """The writer refused an action: nothing changed; `version` is the match's version now."""

    ok: Literal[False]
    code: str
    message: str
    version: int


#: What any operation may answer besides its own answers (games.api.errors writes them).
EVERY_OPERATION: dict[int, Any] = {401: ErrorOut, 429: ErrorOut}
#: ... an operation with path parameters: one does not fit (``/matches/x/view``).
WITH_PARAMETERS: dict[int, Any] = {400: MalformedOut}
#: ... and one that takes a body: it does not fit the schema, or it is too large.
WITH_A_BODY: dict[int, Any] = {400: MalformedOut, 413: ErrorOut}


def answers(own: dict[int, Any], *, parameters: bool = False, body: bool = False) -> dict[int, Any]:
    """An operation's ``response=`` declaration: its ``own`` answers by status, plus those of
    every operation (401, 429), of one with ``parameters`` in its path (400) and of one that
    takes a ``body`` (400, 413). ``own`` wins where it names the same status (the actions' 400
    may be the writer's refusal too)."""
    extra = {**(WITH_PARAMETERS if parameters else {}), **(WITH_A_BODY if body else {})}
    return {**EVERY_OPERATION, **extra, **own}


# --- requests ----------------------------------------------------------------------------------


def _integral(value: object) -> object:
    """A JSON number without a fraction (``1.0``) as the integer it is: JSON Schema's
    ``integer`` is any such number, so the schema allows it. Anything else is left to the
    strict check (``true``, ``"1"``, ``1.5`` are refused)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


#: An integer field of a request body: a JSON integer (``1`` or ``1.0``), never a bool, a
#: string or a fraction.
Integer = Annotated[int, BeforeValidator(_integral)]


class StrictIn(BaseModel):
    """A request body: a JSON object, its types as declared, no coercion (``true`` is not 1,
    ``"1"`` is not 1, ``7`` is not ``"7"``). A pydantic model, not a ninja ``Schema``: a
    ``Schema`` reads any value's attributes (for ORM objects), so ``[1, 2]`` or ``"x"`` was
    taken as ``{}``."""

    model_config = ConfigDict(strict=True)


class SitIn(StrictIn):
    seat: Integer | None = Field(None, description=f"{SEAT} Absent or null: the first empty seat.")


class ActionIn(StrictIn):
    action: PlayerAction  # one of the names: the schema lists them
    cards: list[str] | None = None
    card: str | None = None
    version: Integer
    client_id: str | None = Field(
        None,
        max_length=CLIENT_ID_MAX,
        description=f"Your own id for this action (up to {CLIENT_ID_MAX} characters; longer is "
        "refused `malformed`): a resend with an id already applied is answered `duplicate`.",
    )


# --- answers -----------------------------------------------------------------------------------


class ActionOut(Schema):
    ok: Literal[True]
    version: int


class SeatOut(Schema):
    """Where the person sits after `sit`, `accept` (a seat number) or `leave` (null)."""

    table: int
    seat: int | None = Field(description=SEAT)


class TokenOut(Schema):
    name: str
    scope: str


class MySeatOut(Schema):
    table: int
    seat: int = Field(description=SEAT)
    status: str
    match: int | None


class MeOut(Schema):
    id: int
    username: str
    bot: bool
    token: TokenOut
    seats: list[MySeatOut]


class TableSeatOut(Schema):
    number: int = Field(description=SEAT)
    team: int = Field(description=TEAM)
    player: str | None
    bot: bool
    ai: str | None
    empty: bool


class TableOut(Schema):
    id: int
    name: str
    players: int
    rated: bool
    status: str
    visibility: str
    options: dict[str, Any]
    seats: list[TableSeatOut]


class TablesOut(Schema):
    tables: list[TableOut]


class DeadlineOut(Schema):
    kind: str
    at: str
    seconds_left: float


class LegalActionOut(Schema):
    """An action the engine would take from the seat now, as `actions` takes it (without
    `version` and `client_id`)."""

    action: str
    cards: list[str] | None = None
    card: str | None = None


class SeatViewOut(Schema):
    """`GET …/view`: the seat's view of its match (docs/BOT_API.md, "my seat now")."""

    match: int
    table: int
    over: bool
    winner_team: int | None = Field(description=f"{TEAM} Null until the match is over.")
    stand_in: str | None
    deadline: DeadlineOut | None
    options: dict[str, Any]
    view: dict[str, Any] = Field(
        description=(
            "The engine's view of the seat. Every seat number in it (`seat`, `turn`, a "
            "window's `owner`, `top.seat`, the trick's and events' `seat`) counts from 0, and "
            "`hand_sizes` is indexed by it: seat `0` is the table page's “Seat 1”. `team` "
            "counts from 0 too: team `0` is the page's “Team 1”."
        )
    )
    legal_actions: list[LegalActionOut]


class ViewLine(SeatViewOut):
    type: Literal["view"]
    version: int
    events: list[dict[str, Any]]


class PingLine(Schema):
    type: Literal["ping"]
    version: int


class EndLine(Schema):
    type: Literal["end"]
    reason: Literal["match_over", "abandoned", "unseated", "revoked"]
    winner_team: int | None = Field(None, description=TEAM)


#: One line of ``GET …/stream`` (games.api.stream).
StreamLine = Annotated[ViewLine | PingLine | EndLine, Field(discriminator="type")]


# StreamFormat[T] cannot be a base: ninja's StreamFormat.__class_getitem__ returns its
# response alias, not a class (ninja's own JSONL subclasses the bare StreamFormat too).
class NDJSON[T](StreamFormat):  # type: ignore[type-arg]  # generic, as ninja's own JSONL
    """Newline-delimited JSON, as the stream answers it: ``response=NDJSON[StreamLine]``
    documents its 200 as ``application/x-ndjson`` lines of that schema."""

    media_type = "application/x-ndjson"

    @classmethod
    def format_chunk(cls, data: str) -> str:
        return data + "\n"


def json_answers(answers_by_status: dict[int, type[Schema]]) -> dict[str, Any]:
    """``openapi_extra`` declaring JSON answers by status, for a streaming operation: ninja
    gives one of those a single answer (its 200, in the stream's media type)."""
    return {
        "responses": {
            status: {
                "description": responses[status],
                "content": {"application/json": {"schema": model.model_json_schema()}},
            }
            for status, model in answers_by_status.items()
        }
    }


# --- the expert's round reviews (issue 20) -------------------------------------------------------


class ReviewActionOut(Schema):
    """A move as the engine's codec writes it: `type` (play, pass, hook, unhook, return), the
    `seat`, and its `cards` (a play, hook or unhook) or `card` (a return)."""

    type: str
    seat: int = Field(description=SEAT)
    cards: list[str] | None = None
    card: str | None = None


class ReviewedOut(Schema):
    """One decision of the seat: `index` in the round's actions, `version` of the state it was
    made in, `kind` (play, pass, hook, unhook, window_pass, return), the seat's own `hand`
    then, the move `played` and the expert's `best`, their expected round values for the
    seat's team (null: nothing weighed), `loss`, `mark` (good, inaccuracy, mistake, blunder,
    forced), named `patterns`, moves weighed (`options`), sampled deals (`samples`) and the
    `noise` margin (null in reviews made before it was stored)."""

    index: int
    version: int
    kind: str
    hand: list[str]
    played: ReviewActionOut
    best: ReviewActionOut
    played_value: float | None
    best_value: float | None
    loss: float
    mark: str
    patterns: list[str]
    options: int
    samples: int
    noise: float | None = Field(
        default=None,
        description="The gap between the two values the judge needs before it counts a loss:"
        " a smaller gap is the sampled deals' noise, and the move played is as good as the"
        " expert's (loss 0). Null in reviews made before it was stored.",
    )


class RoundReviewOut(Schema):
    """A seat's round as the expert reviewed it (docs/AI.md: marks and accuracy)."""

    round: int
    seat: int = Field(description=SEAT)
    player: str | None
    accuracy: float | None
    samples: int
    counts: dict[str, int]
    decisions: list[ReviewedOut]


class ReviewsOut(Schema):
    """`GET …/reviews`: the reviews the token's person may read (`over`: the match is finished
    for them, so everyone's are there; before that their own seat's only)."""

    match: int
    over: bool
    reviews: list[RoundReviewOut]
