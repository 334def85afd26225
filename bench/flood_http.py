"""One HTTP flood process of ``bench/page_flood.py``: page readers as fast as they can, and a
lobby probe. Started by page_flood (never by hand, though it can be):

    python bench/flood_http.py SPEC.json RESULT.json

SPEC: ``{"port", "host", "clients", "urls", "lobby_url", "lobby_every", "lobby_source",
"max_seconds"}``. Each of
``clients`` threads keeps one connection (HTTP/1.1 keep-alive, ``Accept-Encoding: gzip`` as a
browser sends) and GETs ``urls`` in turn, starting at its own offset, one request after another
with no pause. The probe GETs ``lobby_url`` every ``lobby_every`` seconds on its own connection,
as a person opening the lobby would, from ``lobby_source`` (another loopback address such as
127.0.0.2: another person for the per-address limits), and times it. Prints ``READY`` once the
probe answered, stops on ``STOP`` on stdin (or after ``max_seconds``), writes RESULT.json and
prints ``DONE``. A request that fails counts as an error and its thread reconnects.
"""

from __future__ import annotations

import http.client
import json
import sys
import threading
import time
from collections import Counter
from pathlib import Path

HEADERS = {"Host": "localhost", "Accept-Encoding": "gzip", "User-Agent": "page-flood"}


class Reader:
    """One keep-alive connection's requests: their statuses, bytes and times (ms)."""

    def __init__(self, port: int, host: str, source: str = "") -> None:
        self.port, self.host, self.source = port, host, source
        self.conn: http.client.HTTPConnection | None = None
        self.statuses: Counter[str] = Counter()
        self.bytes = 0
        self.times: list[float] = []

    def get(self, url: str) -> float | None:
        """GET ``url``; its time in ms, or None when it failed (counted by its error)."""
        started = time.monotonic()
        try:
            if self.conn is None:
                self.conn = http.client.HTTPConnection(
                    self.host,
                    self.port,
                    timeout=60,
                    source_address=(self.source, 0) if self.source else None,
                )
            self.conn.request("GET", url, headers=HEADERS)
            response = self.conn.getresponse()
            self.bytes += len(response.read())
            self.statuses[str(response.status)] += 1
        except (OSError, http.client.HTTPException) as error:
            self.statuses[type(error).__name__] += 1
            if self.conn is not None:
                self.conn.close()
            self.conn = None
            return None
        elapsed = (time.monotonic() - started) * 1e3
        self.times.append(elapsed)
        return elapsed


def flood(reader: Reader, urls: list[str], offset: int, stop: threading.Event) -> None:
    n = offset
    while not stop.is_set():
        reader.get(urls[n % len(urls)])
        n += 1


def probe(reader: Reader, url: str, every: float, stop: threading.Event, ready: threading.Event):
    while not stop.is_set():
        if reader.get(url) is not None:
            ready.set()
        stop.wait(every)


def percentile(values: list[float], share: float) -> float | None:
    """The value at ``share`` (0..1) of the sorted ``values`` (nearest rank), None if empty."""
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))], 1)


def main() -> None:
    spec = json.loads(Path(sys.argv[1]).read_text())
    stop, ready = threading.Event(), threading.Event()
    lobby = Reader(spec["port"], spec["host"], spec.get("lobby_source", ""))
    readers = [Reader(spec["port"], spec["host"]) for _ in range(spec["clients"])]
    threads = [
        threading.Thread(target=flood, args=(r, spec["urls"], n, stop), daemon=True)
        for n, r in enumerate(readers)
    ]
    threads.append(
        threading.Thread(
            target=probe,
            args=(lobby, spec["lobby_url"], spec["lobby_every"], stop, ready),
            daemon=True,
        )
    )
    started = time.monotonic()
    for thread in threads:
        thread.start()
    if not ready.wait(60):
        print(f"FAILED no lobby answer: {dict(lobby.statuses)}", flush=True)
    print("READY", flush=True)
    waiter = threading.Thread(target=lambda: (sys.stdin.readline(), stop.set()), daemon=True)
    waiter.start()
    stop.wait(spec["max_seconds"])
    stop.set()
    wall = time.monotonic() - started
    for thread in threads:
        thread.join(65)
    statuses: Counter[str] = Counter()
    times: list[float] = []
    for reader in readers:
        statuses.update(reader.statuses)
        times += reader.times
    result = {
        "clients": spec["clients"],
        "wall_seconds": round(wall, 1),
        "pages": sum(statuses.values()),
        "pages_per_second": round(sum(statuses.values()) / wall, 1),
        "megabytes": round(sum(r.bytes for r in readers) / 2**20, 1),
        "statuses": dict(statuses),
        "page_ms": {"p50": percentile(times, 0.5), "p99": percentile(times, 0.99)},
        "lobby": {
            "count": len(lobby.times),
            "statuses": dict(lobby.statuses),
            "p50": percentile(lobby.times, 0.5),
            "p99": percentile(lobby.times, 0.99),
            "max": percentile(lobby.times, 1.0),
        },
    }
    Path(sys.argv[2]).write_text(json.dumps(result))
    print("DONE", flush=True)


if __name__ == "__main__":
    main()
