"""The writer's entry for a socket's action, awaited on the event loop (issue 19; DESIGN.md
rule 1: still the one writer).

``services.submit`` in a pool thread blocked about ten times a move on its round trips, and at
each the thread had to take the GIL back from the loop forwarding frames (docs/PERFORMANCE.md,
"The writer off the pool threads"). Here the same move is made with the same functions — the
payload's and the locked checks (``checks``), the engine and the move's row
(``services.prepare_move``), the statements (``writes.lock_statement``, ``save_statement``) —
on one of the loop's own connections (``loop_db``), and what follows the commit is awaited too
(``after_commit.publish_async``).

A plain move only (a person's first claim windows counted too, and seats not kept here read).
Whatever else the writer does under the lock stays with ``services.submit``: a passed deadline
(its own transition first), a stale version (was it resent?), a round's end or deal, a
resignation, a tribute (the summaries' rows), a client id the lock could not answer for. For
those ``submit`` rolls back — nothing was written — and answers ``IN_POOL``: the caller hands the
action to ``services.submit`` in a pool thread, which locks and judges it afresh.

May import what ``games.play`` may.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, Final

import psycopg

from accounts.models import User
from games.engine.state import WINDOW
from games.models import Match
from games.play import (
    after_commit,
    checks,
    first_windows,
    loop_db,
    services,
    standins,
    summaries,
    writes,
)
from games.play.outcomes import Result, log_action

log = logging.getLogger(__name__)

#: ``submit``'s answer when the action is ``services.submit``'s to make (in a pool thread).
IN_POOL: Final = "in_pool"


#: ``submit``'s answer when the caller's ``check`` failed.
CHECK_FAILED: Final = "check_failed"


class _CheckFailed(Exception):
    """The caller's check failed: nothing done."""


class _ForThePool(Exception):
    """Raised under the lock: roll back, and let ``services.submit`` make this action."""


async def submit(
    match_id: int,
    user: User,
    payload: object,
    check: Callable[[psycopg.AsyncConnection[Any]], Awaitable[bool]] | None = None,
) -> Result | str:
    """A person's action from a table's socket, as ``services.submit`` takes it (same payload,
    same Result, same ``game.action`` log line), or ``IN_POOL`` when the action needs what only
    ``services.submit`` does (above): nothing was written, and nothing logged. ``check``: the
    caller's own condition (a socket's session still signs its person in), awaited on the move's
    connection before its transaction: False answers ``CHECK_FAILED``, nothing done or logged.

    Raises what the database raises beyond a duplicate move (``psycopg.Error``), as
    ``services.submit`` does."""
    started = time.perf_counter()
    seat: list[int] = []
    result = checks.payload_refusal(payload)
    if result is None:
        assert isinstance(payload, dict)  # (payload_refusal refuses anything else)
        try:
            result = await _submit_locked(match_id, user, payload, seat, check)
        except _CheckFailed:
            return CHECK_FAILED
        except _ForThePool as handed:
            log.info("game.action.handed", extra={"match": match_id, "why": str(handed)})
            return IN_POOL
        except psycopg.errors.UniqueViolation:  # a move logged twice: rolled back
            result = Result(False, "duplicate", "already applied")
    log_action("game.action", match_id, seat[0] if seat else None, payload, result, started,
               writer="loop")  # fmt: skip
    return result


async def _submit_locked(
    match_id: int,
    user: User,
    payload: dict[str, Any],
    found_seat: list[int],
    check: Callable[[psycopg.AsyncConnection[Any]], Awaitable[bool]] | None,
) -> Result:
    client_id = payload.get("client_id") or ""
    async with loop_db.connection() as conn:
        if check is not None and not await check(conn):
            raise _CheckFailed
        async with conn.transaction():
            sql, params = writes.lock_statement(match_id, client_id)
            row = await (await conn.execute(sql, params)).fetchone()
            match = writes.locked_match(match_id, client_id, row)
            seats = services.kept_seats(match)
            if seats is None:  # not kept here, or changed since: read, and kept
                rows = await (
                    await conn.execute(*writes.seats_statement(match.table_id))
                ).fetchall()
                seats = services.keep_seats(match, *writes.seats_from_rows(rows))
            judged = checks.judge(match, seats, user, payload, lambda: _seen(match, client_id))
            if judged.seat is not None:
                found_seat.append(judged.seat.number)
            if judged.refused is not None:
                return judged.refused
            assert judged.seat is not None and judged.action and judged.state  # (judge's promise)
            seat, action, state = judged.seat, judged.action, judged.state
            now = services.writer_now()
            if services.deadline_passed(match, now):
                raise _ForThePool("late")
            if checks.stale(match, state, action, payload.get("version")):
                raise _ForThePool("stale")
            standins.note_own_action(match, seat.number)
            move = services.prepare_move(match, state, action, seat.number, client_id, now)
            if isinstance(move, Result):
                return move
            if summaries.needs_record(move.events):
                raise _ForThePool("summaries")
            sql, params, _ = writes.save_statement(match, move.row)
            await conn.execute(sql, params)
            helped = state.phase == WINDOW and first_windows.counts_answer(user)
            if helped:  # an answer: the claim help counts it, in the move's transaction
                await conn.execute(*first_windows.note_statement(user))
    writes.remember(match)
    if helped:
        first_windows.noted(user)
    await after_commit.publish_async(
        match, move.state, move.timer_changed, seats, (state, move.events)
    )
    return Result(True, version=move.state.version)


def _seen(match: Match, client_id: str) -> bool:
    """Whether the client id was logged for the match, as the lock's own statement answered it;
    when it could not (another writer changed the row while this one waited), the pool's."""
    seen = writes.seen_by_lock(match, client_id)
    if seen is None:
        raise _ForThePool("client id")
    return seen
