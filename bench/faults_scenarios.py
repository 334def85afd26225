"""The four faults of the fault bench (``bench/faults.py``), each on fresh tables: kill one part
of the setup mid-match (Daphne 1, the worker, the AI worker, Redis), then time the recovery and
check the move log. ``RUNNERS`` maps a fault's name to its function."""

from __future__ import annotations

import time

from faults_common import PEOPLE_OPTIONS, wait_until
from faults_game import Game, play_over_sockets, sockets_current
from faults_site import Site, worker_ready_after
from faults_sockets import Sock, Sockets


def fault_daphne(site: Site, game: Game, state: dict) -> dict:
    """kill -9 of Daphne 1 right after a move was sent on one of its sockets."""
    users = game.users[:4]
    table, match = game.people_table(users, "faults daphne")
    endpoints = [
        f"ws://127.0.0.1:{site.ports['daphne1']}",
        f"ws://127.0.0.1:{site.ports['daphne2']}",
    ]
    socks = Sockets(
        table.pk,
        endpoints,
        [
            Sock(n, game.sessions[u.pk], endpoint=0 if n in (0, 2) else 1)
            for n, u in enumerate(users)
        ],
    )
    try:
        socks.wait_connected()
    except RuntimeError:
        socks.close()
        raise
    state["people"] = (table, match, socks, users)
    play_over_sockets(game, socks, match.pk, users, 8)
    # The next move of a seat whose socket is on Daphne 1 (seats 0 and 2): others play until then.
    while True:
        nxt = game.next_move(match.pk)
        if nxt is not None and nxt[0] in (0, 2):
            break
        play_over_sockets(game, socks, match.pk, users, 1)
    seat, payload = nxt
    version = game.fresh(match.pk).version
    socks.send(seat, payload)
    pid, killed_at = site.kill("daphne1")
    # Its sockets drop; they come back on Daphne 2 and resend the unanswered move once.
    assert wait_until(
        lambda: (
            all(s.connected for s in socks.socks)
            and all(s.connects >= 2 for s in socks.socks if s.seat in (0, 2))
        ),
        60,
    ), socks.socks
    reconnected_at = time.time()
    applied_before_resend = game.applied(match.pk, payload["client_id"])
    resent = socks.send(seat, payload)
    wait_until(lambda: game.fresh(match.pk).version > version, 10)
    applied = game.applied(match.pk, payload["client_id"])
    if applied:
        game.accepted.setdefault(match.pk, []).append(payload["client_id"])
    wait_until(lambda: sockets_current(game, socks, match.pk), 15)
    current_at = time.time()
    after = game.moves_after(match.pk, version)
    resumed = (after[0].created_at.timestamp() - killed_at) if after else None
    play_over_sockets(game, socks, match.pk, users, 4)
    log = game.check_log(match.pk)
    return {
        "fault": "kill -9 of Daphne 1 mid-match",
        "pending": f"seat {seat}'s {payload['action']} at version {version}, sent on Daphne 1 "
        f"just before the kill; 2 of 4 sockets on Daphne 1",
        "resumed_seconds": round(resumed, 2) if resumed is not None else None,
        "sockets_current_seconds": round(current_at - killed_at, 2),
        "detail": (
            f"the killed move was {'in' if applied_before_resend else 'not in'} the log "
            f"when its sockets were back on Daphne 2 "
            f"({reconnected_at - killed_at:.1f} s); resent with its client id "
            f"({'sent' if resent else 'not sent'}): applied {applied} time(s); "
            f"{sum(s.gaps for s in socks.socks)} lost push(es) repaired; "
            f"flashes {[f for s in socks.socks for f in s.flashes][-2:]}"
        ),
        "pending_made": applied,
        "killed_pid": pid,
        "log": log,
    }


def fault_worker_window(site: Site, game: Game, state: dict) -> dict:
    """kill -9 of the worker right after a claim window opened that nobody answers."""
    from games.engine.state import WINDOW

    users = game.users[4:8]
    table, match = game.people_table(users, "faults window")
    seats = {n: u for n, u in enumerate(users)}
    for _ in range(200):  # play (answering windows) until a play is about to open one
        nxt = game.next_move(match.pk)
        if nxt is None:
            time.sleep(0.05)
            continue
        seat, payload = nxt
        opens = payload["action"] == "play"
        game.submit(match.pk, seats[seat], payload)
        if opens and game.fresh(match.pk).phase == WINDOW:
            break
    else:
        raise RuntimeError("no claim window opened")
    current = game.fresh(match.pk)
    version, deadline = current.version, current.deadline
    pid, killed_at = site.kill("worker")
    ready = worker_ready_after(site, pid, killed_at)
    move = game.wait_move(match.pk, version + 1, 60)
    restarted = [e for e in site.events if e["role"] == "worker" and e["pid"] == pid]
    log = game.check_log(match.pk)
    timeouts = [
        m
        for m in game.moves_after(match.pk, version)
        if m.action["type"] == "timeout" and m.seq == version + 1
    ]
    game.abandon([table.pk])
    return {
        "fault": "kill -9 of the worker, a claim window pending",
        "pending": f"a {PEOPLE_OPTIONS['claim_window_seconds']} s claim window (version "
        f"{version}) nobody answers; its deadline {deadline.timestamp() - killed_at:.1f}"
        " s after the kill",
        "resumed_seconds": round(move.created_at.timestamp() - killed_at, 2) if move else None,
        "detail": (
            f"closed by {describe(move)} "
            f"{move.created_at.timestamp() - deadline.timestamp():+.2f} s from its "
            f"deadline; worker restarted "
            f"{restarted[0]['restarted_at'] - killed_at:.1f} s after the kill, ready after "
            f"{ready:.1f} s"
            if move and restarted and ready is not None
            else "the window did not close within 60 s"
        ),
        "pending_made": len(timeouts),
        "killed_pid": pid,
        "log": log,
    }


def ai_turn_asked(game: Game, match_id: int):
    """The match, the moment (within ~10 ms) a version asks one of its AI seats to play (not a
    window answer, not a deal): its ``ai_act`` countdown task is then held by the AI worker."""
    from games.engine.state import PLAY

    if not wait_until(lambda: game.fresh(match_id).version >= 6, 60):
        raise RuntimeError("the AI table does not play")
    seen = game.fresh(match_id).version
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        current = game.fresh(match_id)
        if current.version != seen:
            seen = current.version
            if current.phase == PLAY:
                return current
        time.sleep(0.005)
    raise RuntimeError("no AI turn within 60 s")


def fault_worker_ai(site: Site, game: Game, state: dict) -> dict:
    """kill -9 of the AI worker the moment an AI seat is asked to play."""
    table, match = game.ai_table("faults ai")
    current = ai_turn_asked(game, match.pk)
    pid, killed_at = site.kill("ai-worker")
    from games.play import services

    turn = services.load_state(current).turn
    asked_at = game.moves_after(match.pk, current.version - 1)[0].created_at.timestamp()
    ready = worker_ready_after(site, pid, killed_at, role="ai-worker")
    move = game.wait_move(match.pk, current.version + 1, 60)
    log = game.check_log(match.pk)
    by_ai = move is not None and move.seat == turn and move.action["type"] != "timeout"
    game.abandon([table.pk])
    return {
        "fault": "kill -9 of the AI worker, an AI turn pending",
        "pending": f"AI seat {turn}'s play at version {current.version}, asked "
        f"{killed_at - asked_at:.2f} s before the kill (its pause: "
        "0.7-1.3 s; turn 30 s)",
        "resumed_seconds": round(move.created_at.timestamp() - killed_at, 2) if move else None,
        "detail": f"version {current.version + 1}: {describe(move)}; the new AI worker ready "
        + (f"{ready:.1f} s after the kill" if ready is not None else "never"),
        "pending_made": 1 if by_ai else 0,
        "killed_pid": pid,
        "log": log,
    }


def fault_redis(site: Site, game: Game, state: dict) -> dict:
    """kill -9 of Redis mid-match, started again (empty) 1 s later by the supervisor."""
    from games.play import services

    table, match = game.ai_table("faults redis")
    people = state.get("people")
    pids = {role: site.pid(role) for role in ("worker", "ai-worker", "beat", "daphne1", "daphne2")}
    current = ai_turn_asked(game, match.pk)
    version, turn = current.version, services.load_state(current).turn
    time.sleep(0.3)  # its countdown task (0.7-1.3 s) has reached the worker: held, unacked
    pid, killed_at = site.kill("redis")
    wait_until(lambda: any(e["role"] == "redis" and e["pid"] == pid for e in site.events), 30)
    back = next((e for e in site.events if e["role"] == "redis" and e["pid"] == pid), None)
    if back is None:
        raise RuntimeError("the supervisor did not start Redis again within 30 s")
    # The AI table: its countdown tasks and its timer were in the Redis that is gone.
    wait_until(lambda: game.fresh(match.pk).version > version + 1, 60)
    after = game.moves_after(match.pk, version)
    first_after = after[0] if after else None
    socks_detail = "no people's table"
    people_log = None
    if people is not None:
        p_table, p_match, socks, users = people
        before = game.fresh(p_match.pk).version
        gaps = sum(s.gaps for s in socks.socks)
        started = time.time()
        try:
            played = play_over_sockets(game, socks, p_match.pk, users, 3, timeout=20)
        except RuntimeError:
            played = 0
        current = wait_until(lambda: sockets_current(game, socks, p_match.pk), 30)
        socks_detail = (
            f"people's table: {played}/3 moves over its sockets after the restart "
            f"(version {before} -> {game.fresh(p_match.pk).version}), every socket "
            f"{'current' if current else 'NOT current'} "
            f"{time.time() - started:.1f} s after the first was sent, "
            f"{sum(s.gaps for s in socks.socks) - gaps} lost push(es) repaired; closes "
            f"{[c for s in socks.socks for c in s.closes]}"
        )
        people_log = game.check_log(p_match.pk)
    survived = {role: site.pid(role) == old for role, old in pids.items()}
    deaths = [
        f"{e['role']} exited with code {e['returncode']} and was started again"
        for e in site.events
        if e["at"] > killed_at and e["role"] != "redis"
    ]
    log = game.check_log(match.pk)
    game.abandon([table.pk])
    return {
        "fault": "kill -9 of Redis, restarted empty 1 s later",
        "pending": f"AI seat {turn}'s play at version {version} (its countdown task held by the "
        "worker, unacked, its deadline in the clock's set), the people's table of fault 1 idle",
        "resumed_seconds": round(first_after.created_at.timestamp() - killed_at, 2)
        if first_after
        else None,
        "detail": (
            f"Redis back {back['restarted_at'] - killed_at:.1f} s after the kill; version "
            f"{version + 1}: {describe(after[0] if after else None)}; processes kept running "
            "(same pid): "
            f"{survived}{''.join('; ' + d for d in deaths)}; {socks_detail}"
        ),
        "pending_made": int(
            bool(after) and after[0].seat == turn and after[0].action["type"] != "timeout"
        ),
        "killed_pid": pid,
        "log": log,
        "people_log": people_log,
        "survived": survived,
    }


def describe(move) -> str:
    if move is None:
        return "nothing"
    who = "the clock (timeout)" if move.seat is None else f"seat {move.seat}"
    return f"{move.action['type']} by {who}"


RUNNERS = {
    "daphne": fault_daphne,
    "worker-window": fault_worker_window,
    "worker-ai": fault_worker_ai,
    "redis": fault_redis,
}
