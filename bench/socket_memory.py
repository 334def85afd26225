"""What a Daphne process holds in memory per open socket and per live table (issue 19).

A benchmark, not a test. One Daphne process of the app (production settings, the load bench's
servers: ``load_stack.Servers``, its own database and Redis namespace ``mem-``), then:

1. its RSS after start-up and one socket's snapshot (the table's templates loaded);
2. ``--idle`` anonymous spectator sockets on one table (no match: nothing pushed), opened and
   left idle for ``--settle`` seconds, sending the page's heartbeat: RSS again;
3. ``--tables`` started 4-seat tables of people, every seat's socket open, each seat having
   received its snapshot: RSS again.

Reports the deltas per socket and per table (psutil, the process's resident set; a Python
process rarely gives memory back, so the figures are what the process keeps growing by, which
is the point). Run with the project's venv, under ``nice``, from anywhere::

    nice -n 5 .venv/bin/python bench/socket_memory.py --idle 1000 --tables 50
    nice -n 5 .venv/bin/python bench/socket_memory.py --app-rev main    # another commit
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH_DIR))

import psutil  # noqa: E402
import websockets  # noqa: E402
from load_stack import Servers, say  # noqa: E402

ORIGIN = "http://localhost"


def django_call(function, *args):
    """``function(*args)`` in a thread of its own, its database connection closed after."""

    def call():
        from django.db import connections

        try:
            return function(*args)
        finally:
            connections.close_all()

    return asyncio.to_thread(call)


def rss_mb(pid: int) -> float:
    return psutil.Process(pid).memory_info().rss / 2**20


async def open_sockets(urls: list[tuple[str, str]], concurrency: int = 50) -> list:
    """Open every (url, session cookie) socket and read its first frame."""
    gate = asyncio.Semaphore(concurrency)

    async def one(url: str, cookie: str):
        headers = {"Origin": ORIGIN}
        if cookie:
            headers["Cookie"] = f"sessionid={cookie}"
        async with gate:
            ws = await websockets.connect(
                url, additional_headers=headers, ping_interval=None, open_timeout=60
            )
            await asyncio.wait_for(ws.recv(), 60)
            return ws

    return list(await asyncio.gather(*(one(url, cookie) for url, cookie in urls)))


async def heartbeats(sockets: list, seconds: float) -> None:
    """Send each socket the page's heartbeat every 5 s for ``seconds``, reading what comes."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for ws in sockets:
            await ws.send('{"heartbeat": 1, "version": -1}')
        await asyncio.sleep(min(5.0, max(0.0, end - time.monotonic())))


async def measure(servers: Servers, args: argparse.Namespace) -> dict:
    stack = servers.start_stack("app", 1, "none")
    try:
        (pid,) = stack.roots["daphne"]
        endpoint = stack.endpoints[0]
        # Django's ORM is sync: its calls run in a thread, off this loop.
        opened = await django_call(servers.django.open_tables, 1, servers.users[:4], {}, "mem")
        host_table = opened[0]["id"]
        # One socket first: its snapshot loads the table's templates and catalogues.
        first = await open_sockets([(f"{endpoint}/ws/table/{host_table}/", "")])
        time.sleep(args.settle)
        figures = {"start_mb": rss_mb(pid), "load": os.getloadavg()[0]}
        say(f"Daphne after start-up and one socket: {figures['start_mb']:.1f} MB")
        idle = await open_sockets([(f"{endpoint}/ws/table/{host_table}/", "")] * args.idle)
        await heartbeats(idle, args.settle)
        figures["idle_mb"] = rss_mb(pid)
        per_socket = (figures["idle_mb"] - figures["start_mb"]) * 1024 / max(args.idle, 1)
        say(
            f"+ {args.idle} idle spectator sockets: {figures['idle_mb']:.1f} MB, "
            f"{per_socket:.1f} KB each"
        )
        specs = await django_call(
            servers.django.open_tables, args.tables, servers.users[4:], {"turn_seconds": 600}, "mem"
        )
        seats = [
            (f"{endpoint}/ws/table/{t['id']}/", servers.sessions[s["user"]])
            for t in specs
            for s in t["seats"]
        ]
        live = await open_sockets(seats)
        await heartbeats(live, args.settle)
        figures["tables_mb"] = rss_mb(pid)
        per_table = (figures["tables_mb"] - figures["idle_mb"]) / max(args.tables, 1)
        say(
            f"+ {args.tables} started tables, 4 seat sockets each: "
            f"{figures['tables_mb']:.1f} MB, {per_table * 1024:.0f} KB a table"
        )
        figures.update(
            per_socket_kb=round(per_socket, 1),
            per_table_kb=round(per_table * 1024),
            load_after=os.getloadavg()[0],
        )
        for ws in first + idle + live:
            await ws.close()
        await django_call(servers.django.abandon, [t["id"] for t in specs] + [host_table])
        return figures
    finally:
        stack.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--idle", type=int, default=1000, help="idle spectator sockets")
    parser.add_argument("--tables", type=int, default=50, help="started tables of 4 seats")
    parser.add_argument("--settle", type=float, default=10.0, help="seconds before each reading")
    parser.add_argument("--app-rev", default="", help="measure the app at this git revision")
    parser.add_argument("--name", default="mem")
    args = parser.parse_args()
    servers_args = argparse.Namespace(
        name=args.name,
        out=str(BENCH_DIR.parent / "var" / "bench-memory"),
        app_rev=args.app_rev,
        app_dir=str(BENCH_DIR.parent),
        tables=[args.tables + 1],
        rated_overload=0,
        count_sql=False,
        keep_db=False,
        beat=False,
        proxy="none",
        spectators=args.idle + 1,  # the spectator cap: the idle sockets and the first
    )
    servers = Servers(servers_args)
    try:
        servers.setup()
        figures = asyncio.run(measure(servers, args))
        say(f"load average {figures['load']:.1f} -> {figures['load_after']:.1f}")
    finally:
        servers.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
