"""One load-client process: the sockets of some tables, playing as scripted people.

Started by ``bench/load.py`` (never by hand, though it can be):

    python bench/load_client.py SPEC.json RESULT.json

It connects every socket of its tables (seats with their session cookie, spectators anonymous,
``Origin: http://localhost``), prints ``READY <connected> <failed>``, waits for ``GO`` on stdin,
plays for ``duration`` seconds, drains, prints ``STOPPED``, waits for ``CLOSE``, closes every
socket, writes RESULT.json and prints ``DONE``. Every wait is bounded.

What a seat does uses only what its own socket received (``load_frames``): each table has one
pacer; once per ``1/rate`` seconds it picks a seat that may act — a seat with a claim form
answers (pass, or sometimes hook), a seat owing a tribute returns a card, the seat whose turn it
is plays its weakest hint or sometimes passes — and sends it against the version that socket
shows. One action per table is in flight at a time. Its latency is from the send to the moment
the LAST socket of the table has applied a frame at or past the resulting version (the first
versioned frame with ``v`` above the acted one on the acting socket).

``mode: bare`` drives ``bench/bare_app.py`` the same way: the acting seat sends ``{"v", "size"}``
and the server broadcasts a frame of that size to the table's group.

The tables and their pacers are here; a socket and the counters are ``load_client_sock.py``.
"""

from __future__ import annotations

import asyncio
import json
import random
import resource
import sys
import time
import uuid
from pathlib import Path

from websockets.exceptions import ConnectionClosed

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load_client_sock import Pending, Sock, Stats  # noqa: E402


class Table:
    """A table's sockets and its pacer."""

    def __init__(self, run: Run, spec: dict) -> None:
        self.run, self.id = run, spec["id"]
        self.socks: list[Sock] = []
        self.pending: Pending | None = None
        self.turns = 0
        for seat in spec["seats"]:
            url = run.url(self.id, seated=True)
            self.socks.append(Sock(run, self, seat["seat"], url, seat["cookie"]))
        languages = spec.get("languages") or ["en"]
        for n in range(spec.get("spectators", 0)):
            sock = Sock(run, self, None, run.url(self.id), "")
            # Spectators in turn in each language: one audience (render, publish) per language.
            sock.headers["Accept-Language"] = languages[n % len(languages)]
            self.socks.append(sock)
        self.seats = [s for s in self.socks if s.seat is not None]

    def check(self, now: float) -> None:
        """Complete the pending action once every socket has reached its result."""
        pending = self.pending
        if pending is None or pending.result is None:
            return
        live = [s for s in self.socks if s.live]  # a closed socket is counted as a close
        for sock in live:
            if sock not in pending.done:
                reached = next((t for v, t in sock.history if v >= pending.result), None)
                if reached is not None:
                    pending.done[sock] = reached
        if any(s not in pending.done for s in live):
            return
        stats = self.run.stats
        stats.latency[pending.kind].append((max(pending.done.values()) - pending.sent_at) * 1e3)
        stats.own[pending.kind].append((pending.own_at - pending.sent_at) * 1e3)
        for kind, seated in (("seats", True), ("spectators", False)):
            reached = [t for s, t in pending.done.items() if (s.seat is not None) == seated]
            if reached:
                stats.reach[kind].append((max(reached) - pending.sent_at) * 1e3)
        self.pending = None

    def choose(self, rng: random.Random) -> tuple[str, Sock, dict] | None:
        """The next action a scripted person at this table would take, or None."""
        spec = self.run.spec
        if self.run.bare:
            sock = self.seats[self.turns % len(self.seats)]
            self.turns += 1
            return "broadcast", sock, {"v": (sock.version or 0) + 1, "size": spec["frame_bytes"]}
        claimers = [s for s in self.seats if s.choices.claim_open]
        if claimers:
            sock = rng.choice(claimers)
            claim = sock.choices.claim
            if claim and rng.random() < spec["p_hook"]:
                return claim[0], sock, {"action": claim[0], "cards": claim[1]}
            return "window pass", sock, {"action": "pass", "cards": []}
        returners = [s for s in self.seats if s.choices.returns]
        if returners:
            sock = returners[0]
            return "return", sock, {"action": "return", "card": sock.choices.returns[0]}
        for sock in self.seats:
            choices = sock.choices
            if not choices.my_turn:
                continue
            if choices.can_pass and (not choices.hints or rng.random() < spec["p_pass"]):
                return "pass", sock, {"action": "pass", "cards": []}
            if choices.hints:
                return "play", sock, {"action": "play", "cards": choices.hints[0]}
        return None

    async def pace(self, start: float, end: float, rng: random.Random) -> None:
        stats, period = self.run.stats, 1.0 / self.run.spec["rate"]
        timeout = self.run.spec["action_timeout"]
        tick = start + rng.uniform(0, period)
        while True:
            await asyncio.sleep(max(0.0, tick - time.monotonic()))
            now = time.monotonic()
            if now >= end:
                return
            tick += period
            if tick < now:
                stats.counts["ticks late (client behind)"] += 1
                tick = now + period
            if self.pending is not None:
                if now - self.pending.sent_at < timeout:
                    stats.counts["ticks busy (an action in flight)"] += 1
                    continue
                self.lose(self.pending)
            choice = self.choose(rng)
            if choice is None:
                stats.counts["ticks idle (nobody may act)"] += 1
                continue
            kind, sock, payload = choice
            if sock.version is None:
                continue
            if not self.run.bare:
                payload.update(version=sock.version, client_id=uuid.uuid4().hex)
            self.pending = Pending(kind, sock, sock.version, time.monotonic())
            for s in self.socks:
                s.history.clear()
            stats.counts["actions sent"] += 1
            await sock.send(json.dumps(payload))

    def lose(self, pending: Pending) -> None:
        """An action whose result did not reach every socket in time."""
        stats = self.run.stats
        if pending.result is None:
            stats.counts["lost: no answer on the acting socket"] += 1
        else:
            stats.counts["lost: result missing on some socket"] += 1
        self.pending = None


class Run:
    """This process's tables, and the steps READY, GO, STOPPED, CLOSE, DONE."""

    def __init__(self, spec: dict) -> None:
        self.spec = spec
        self.bare = spec["mode"] == "bare"
        self.stats = Stats()
        self.endpoints = spec["endpoints"]
        self.path = spec["path"]
        self._next = 0
        self.tables = [Table(self, t) for t in spec["tables"]]
        self.socks = [s for t in self.tables for s in t.socks]

    def url(self, table_id: int, seated: bool = False) -> str:
        """Sockets are spread over the endpoints in turn, as a balancer would; with
        ``seat_affinity`` a table's seats all go to one endpoint (by table id), as a balancer
        hashing seat sockets by table would (spectators still in turn). A seat's address asks
        for that routing as the table page does (``?seat``: deploy/nginx.conf's
        ``$ws_affinity``), so a run through nginx (``--proxy nginx``) is routed as deployed."""
        if seated and self.spec.get("seat_affinity"):
            endpoint = self.endpoints[table_id % len(self.endpoints)]
        else:
            endpoint = self.endpoints[self._next % len(self.endpoints)]
            self._next += 1
        query = "?seat" if seated and not self.bare else ""
        return f"{endpoint}{self.path.format(table=table_id)}{query}"

    async def connect_all(self) -> list[Sock]:
        limit = asyncio.Semaphore(self.spec["connect_concurrency"])
        timeout = self.spec["connect_timeout"]

        async def one(sock: Sock) -> bool:
            async with limit:
                if not await sock.connect(timeout):
                    return False
            try:
                await asyncio.wait_for(sock.ready.wait(), timeout)
                return True
            except TimeoutError:
                self.stats.connect_failures["no snapshot after connect"] += 1
                return False

        started = time.monotonic()
        results = await asyncio.gather(*(one(s) for s in self.socks))
        self.connect_seconds = round(time.monotonic() - started, 2)
        return [s for s, ok in zip(self.socks, results, strict=True) if ok]

    async def watch_loop(self, until: float) -> None:
        while time.monotonic() < until:
            before = time.monotonic()
            await asyncio.sleep(0.05)
            self.stats.loop_lag.append(round((time.monotonic() - before - 0.05) * 1e3, 2))

    async def drain(self) -> None:
        """Let the actions in flight finish (bounded), then count sockets left behind."""
        deadline = time.monotonic() + self.spec["action_timeout"]
        while time.monotonic() < deadline and any(t.pending for t in self.tables):
            await asyncio.sleep(0.05)
        for table in self.tables:
            if table.pending is not None:
                table.lose(table.pending)
        await asyncio.sleep(1.0)
        for table in self.tables:
            live = [s for s in table.socks if s.ws is not None and s.version is not None]
            top = max((s.version for s in live), default=None)
            behind = sum(1 for s in live if s.version < top)
            if behind:
                self.stats.counts["lost: sockets behind their table at the end"] += behind

    async def close_all(self) -> None:
        async def one(sock: Sock) -> None:
            sock.closing = True
            if sock.ws is not None:
                try:
                    await asyncio.wait_for(sock.ws.close(), 5)
                except (TimeoutError, ConnectionClosed, OSError):
                    pass

        await asyncio.gather(*(one(s) for s in self.socks))

    async def main(self) -> dict:
        loop = asyncio.get_running_loop()
        connected = await self.connect_all()
        say(f"READY {len(connected)} {len(self.socks) - len(connected)}")
        line = await loop.run_in_executor(None, sys.stdin.readline)
        if line.strip() != "GO":
            await self.close_all()
            return self.report(0.0, 0.0)
        usage = resource.getrusage(resource.RUSAGE_SELF)
        cpu_before = usage.ru_utime + usage.ru_stime
        start = time.monotonic()
        end = start + self.spec["duration"]
        for sock in connected:
            self.stats.protocols[sock.protocol or "?"] += 1
        rng = random.Random(self.spec["seed"])
        tasks = [
            loop.create_task(t.pace(start, end, random.Random(rng.random()))) for t in self.tables
        ]
        tasks.append(loop.create_task(self.watch_loop(end)))
        every = float(self.spec.get("heartbeat") or 0)
        beats = [loop.create_task(s.heartbeat(every, end)) for s in connected] if every else []
        await asyncio.wait(tasks, timeout=self.spec["duration"] + 5)
        for task in beats:
            task.cancel()
        await self.drain()
        wall = time.monotonic() - start
        usage = resource.getrusage(resource.RUSAGE_SELF)
        cpu = usage.ru_utime + usage.ru_stime - cpu_before
        say("STOPPED")
        await loop.run_in_executor(None, sys.stdin.readline)
        await self.close_all()
        return self.report(wall, cpu)

    def report(self, wall: float, cpu: float) -> dict:
        return {
            "sockets": len(self.socks),
            "tables": len(self.tables),
            "wall_seconds": wall,
            "cpu_seconds": cpu,
            "connect_seconds": getattr(self, "connect_seconds", None),
            **self.stats.as_dict(),
        }


def say(line: str) -> None:
    print(line, flush=True)


def main() -> None:
    spec_path, result_path = sys.argv[1], sys.argv[2]
    spec = json.loads(Path(spec_path).read_text())
    result = asyncio.run(Run(spec).main())
    Path(result_path).write_text(json.dumps(result))
    say("DONE")


if __name__ == "__main__":
    main()
