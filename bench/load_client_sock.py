"""One socket of a load-client process (``bench/load_client.py``): it connects, applies the frames
its page would (``load_frames``), beats, and keeps what it saw since an action was sent; and
``Stats``, everything the process counts."""

from __future__ import annotations

import asyncio
import json
import random
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import TYPE_CHECKING

import websockets
from websockets.exceptions import ConnectionClosed, InvalidStatus

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load_frames import SeatChoices, parse, update_choices  # noqa: E402

if TYPE_CHECKING:
    from load_client import Run, Table

ORIGIN = "http://localhost"
OLD_HEARTBEAT = '{"heartbeat":1}'
OLD_HEARTBEAT_SECONDS = 30.0


class Stats:
    """Everything this process counts; ``as_dict`` is what it reports."""

    def __init__(self) -> None:
        self.latency: dict[str, list[float]] = defaultdict(list)  # kind -> last-socket ms
        self.own: dict[str, list[float]] = defaultdict(list)  # kind -> acting-socket ms
        # "seats" / "spectators" -> ms from a send to the last socket of that kind (issue 19)
        self.reach: dict[str, list[float]] = defaultdict(list)
        self.frame_bytes: dict[str, list[int]] = defaultdict(list)
        self.counts: Counter = Counter()
        self.refused: Counter = Counter()
        self.closes: Counter = Counter()
        self.connect_failures: Counter = Counter()
        self.errors: Counter = Counter()
        self.loop_lag: list[float] = []
        self.protocols: Counter = Counter()

    def as_dict(self) -> dict:
        return {
            "latency": self.latency,
            "own": self.own,
            "reach": self.reach,
            "frame_bytes": self.frame_bytes,
            "counts": dict(self.counts),
            "refused": dict(self.refused),
            "closes": {str(k): v for k, v in self.closes.items()},
            "connect_failures": dict(self.connect_failures),
            "errors": dict(self.errors),
            "loop_lag_ms": self.loop_lag,
            "protocols": dict(self.protocols),
        }


class Pending:
    """The one action in flight at a table."""

    def __init__(self, kind: str, sock: Sock, acted: int, sent_at: float) -> None:
        self.kind, self.sock, self.acted, self.sent_at = kind, sock, acted, sent_at
        self.result: int | None = None
        self.own_at: float | None = None
        self.done: dict[Sock, float] = {}


class Sock:
    """One WebSocket: a seat (``seat`` is its number) or a spectator (``seat`` None)."""

    def __init__(self, run: Run, table: Table, seat: int | None, url: str, cookie: str) -> None:
        self.run, self.table, self.seat, self.url = run, table, seat, url
        self.headers = {"Origin": ORIGIN}
        if cookie:
            self.headers["Cookie"] = f"sessionid={cookie}"
        self.ws = None
        self.version: int | None = None
        self.revision: int | None = None
        self.protocol = ""
        self.choices = SeatChoices()
        self.history: list[tuple[int, float]] = []  # (version, time) applied since the send
        self.ready = asyncio.Event()
        self.closing = False
        self.resync_asked_at = 0.0
        self.kind = "seat" if seat is not None else "spectator"
        self.dead = False  # closed by the server, or never connected

    @property
    def live(self) -> bool:
        return self.ws is not None and not self.dead

    async def connect(self, timeout: float) -> bool:
        stats = self.run.stats
        try:
            self.ws = await websockets.connect(
                self.url,
                additional_headers=self.headers,
                compression=None,
                ping_interval=None,
                open_timeout=timeout,
                close_timeout=5,
                max_size=2**23,
            )
        except InvalidStatus as error:
            stats.connect_failures[f"http {error.response.status_code}"] += 1
            return False
        except websockets.exceptions.InvalidMessage:
            # Daphne drops a handshake its app did not accept in time (websocket_connect_timeout)
            stats.connect_failures["handshake dropped, no HTTP response"] += 1
            return False
        except (OSError, TimeoutError, websockets.exceptions.WebSocketException) as error:
            stats.connect_failures[type(error).__name__] += 1
            return False
        asyncio.get_running_loop().create_task(self.read())
        return True

    async def read(self) -> None:
        try:
            async for message in self.ws:
                self.on_frame(
                    message if isinstance(message, str) else message.decode(), time.monotonic()
                )
        except ConnectionClosed as closed:
            if not self.closing:
                self.dead = True
                code = closed.rcvd.code if closed.rcvd else 1006
                self.run.stats.closes[code] += 1
        except Exception as error:  # noqa: BLE001 - a benchmark reports, it does not crash
            self.run.stats.errors[f"reader {type(error).__name__}: {error}"[:120]] += 1

    def on_frame(self, text: str, now: float) -> None:
        stats = self.run.stats
        frame = parse(text)
        # The snapshot on connect is counted apart: it is not what an action costs.
        label = "connect" if self.version is None and frame.version is not None else frame.kind
        stats.frame_bytes[f"{self.kind} {label}"].append(len(text.encode()))
        if frame.kind in ("full", "delta") and frame.version is not None:
            self.protocol = "new" if frame.header else "old"
            pending = self.table.pending
            if (
                pending is not None
                and pending.sock is self
                and pending.result is None
                and frame.version > pending.acted
            ):
                pending.result, pending.own_at = frame.version, now
            if self.apply(frame, now):
                if self.seat is not None:
                    update_choices(self.choices, frame, self.seat)
                self.ready.set()
            self.table.check(now)
        elif frame.kind == "flash":
            pending = self.table.pending
            if pending is not None and pending.sock is self and pending.result is None:
                stats.refused[frame.flash[:80]] += 1
                self.table.pending = None
            else:
                stats.counts["flash frames (no action of mine pending)"] += 1

    def apply(self, frame, now: float) -> bool:
        """Whether this socket takes the frame (full: not older; delta: on its own version)."""
        stats = self.run.stats
        if frame.kind == "full":
            if self.version is not None:
                mine, theirs = (
                    (self.revision or 0, self.version),
                    (frame.revision or 0, frame.version),
                )
                if theirs < mine:
                    stats.counts["out-of-order full (dropped)"] += 1
                    return False
                if theirs == mine:
                    stats.counts["repeated full (same version)"] += 1
                elif frame.version > self.version + 1:
                    stats.counts["versions skipped, covered by a full"] += (
                        frame.version - self.version - 1
                    )
            self.version, self.revision = frame.version, frame.revision
            self.history.append((frame.version, now))
            return True
        if self.run.bare:  # the bare floor has no resync: count the gap and go on
            if self.version is not None and frame.base != self.version:
                stats.counts["gaps (delta on another version)"] += 1
            self.version = frame.version
            self.history.append((frame.version, now))
            return True
        if (
            self.version is None
            or frame.base != self.version
            or (frame.revision is not None and frame.revision != self.revision)
        ):
            if self.version is not None and frame.version <= self.version:
                stats.counts["duplicate or old delta (dropped)"] += 1
            else:
                stats.counts["gaps (delta on another version)"] += 1
                self.ask_resync(now)
            return False
        self.version = frame.version
        self.history.append((frame.version, now))
        return True

    def ask_resync(self, now: float) -> None:
        """A gap: tell the server our version, as the page's heartbeat does (at most 1/s)."""
        if now - self.resync_asked_at < 1.0 or self.ws is None:
            return
        self.resync_asked_at = now
        self.run.stats.counts["resync requests"] += 1
        self.send_soon({"heartbeat": 1, "version": self.version})

    def send_soon(self, payload: dict | str) -> None:
        text = payload if isinstance(payload, str) else json.dumps(payload)
        asyncio.get_running_loop().create_task(self.send(text))

    async def send(self, text: str) -> None:
        try:
            await self.ws.send(text)
        except ConnectionClosed:
            self.run.stats.counts["send on a closed socket"] += 1

    async def heartbeat(self, every: float, until: float) -> None:
        """The page's heartbeat: new protocol every ``every`` s with the version; old protocol
        only spectators, the bare string, every 30 s (what table.js did)."""
        await asyncio.sleep(random.uniform(0, every))
        while time.monotonic() < until and not self.closing:
            if self.protocol == "old":
                if self.seat is None:
                    await self.send(OLD_HEARTBEAT)
                await asyncio.sleep(OLD_HEARTBEAT_SECONDS)
                continue
            await self.send(json.dumps({"heartbeat": 1, "version": self.version}))
            self.run.stats.counts["heartbeats sent"] += 1
            await asyncio.sleep(every)
