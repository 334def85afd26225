"""The fault bench's people on real sockets (``bench/faults.py``): one table's WebSockets, applying
frames as table.js does, beating every ``HEARTBEAT_SECONDS`` and reconnecting to the next live
Daphne after ``RECONNECT_SECONDS``, as nginx and the page would."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from dataclasses import dataclass, field

from faults_common import HEARTBEAT_SECONDS, ORIGIN, RECONNECT_SECONDS
from load_frames import parse


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
