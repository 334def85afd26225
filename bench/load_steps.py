"""The load bench's plan (``bench/load.py``): the steps on each stack, the client processes
(``bench/load_client.py``) driven through READY, GO, STOPPED, CLOSE, DONE, what the servers spent
meanwhile, the capacity ratio, and the written results."""

from __future__ import annotations

import json
import os
import re
import subprocess
import time
from pathlib import Path

import load_procs
import load_report
from load_stack import BENCH_DIR, Servers, Stack, say

TABLE_OPTIONS = {"turn_seconds": 60, "claim_window_seconds": 5}


class Bench(Servers):
    """A whole run: ``setup``, ``run`` (every step of every stack), ``cleanup``, ``write``."""

    # --- one step --------------------------------------------------------------------------------

    def step(self, stack: Stack, scenario: str, tables: int, spectators: int = 0) -> dict:
        args = self.args
        label = f"{scenario} {stack.mode} {stack.processes}p {tables}t"
        say(f"-- {label}" + (f" + {spectators} spectators" if spectators else ""))
        began = time.monotonic()
        background = background_cpu(1.5)
        specs = self.table_specs(stack, tables, spectators)
        frame_bytes = self.bare_frame_bytes(stack.processes, stack.proxy)
        sockets = sum(len(t["seats"]) + t.get("spectators", 0) for t in specs)
        clients = args.clients or (1 if sockets <= 200 else 2)
        common = {
            "mode": stack.mode,
            "endpoints": stack.endpoints,
            "rate": args.rate,
            "path": "/ws/bare/{table}/" if stack.mode == "bare" else "/ws/table/{table}/",
            "duration": args.duration,
            "action_timeout": args.action_timeout,
            "connect_timeout": args.connect_timeout,
            "connect_concurrency": 50,
            "heartbeat": args.heartbeat,
            "seat_affinity": args.seat_affinity,
            "p_pass": 0.15,
            "p_hook": 0.3,
            "frame_bytes": frame_bytes,
        }
        groups = [specs[n::clients] for n in range(clients)]
        info = {
            "scenario": scenario,
            "mode": stack.mode,
            "processes": stack.processes,
            "proxy": stack.proxy,
            "tables": tables,
            "spectators": spectators,
            "rate": args.rate,
            "duration": args.duration,
            "clients": clients,
            "frame_bytes_sent": frame_bytes if stack.mode == "bare" else None,
            "background_cpu_percent": background,
        }
        try:
            readings = self.drive(stack, label, [g for g in groups if g], common)
        finally:
            if stack.mode == "app":
                self.django.abandon([t["id"] for t in specs])
        results, server = readings
        info["step_seconds"] = round(time.monotonic() - began, 1)  # setup to teardown
        summary = load_report.summarise({**info, **server}, load_report.merge(results))
        self.steps.append(summary)
        lat = summary["latency_ms"]
        say(
            f"   {summary['actions']} actions, p50 {lat['p50']} p99 {lat['p99']} max "
            f"{lat['max']} ms, errors {summary['errors']}, load {summary['loadavg']}, "
            f"held: {summary['held']}"
            + (
                " (a client was saturated: its delay is in the figures)"
                if summary["client_saturated"]
                else ""
            )
            + (
                f" (client loop lag p99 {summary['client']['loop_lag_ms']['p99']} ms with CPU to "
                "spare: the machine is oversubscribed)"
                if summary["client_starved"]
                else ""
            )
        )
        if summary["reach_ms"].get("spectators"):
            seats, watching = summary["reach_ms"]["seats"], summary["reach_ms"]["spectators"]
            say(
                f"   send -> last seat p50 {seats['p50']} p99 {seats['p99']} ms; -> last "
                f"spectator p50 {watching['p50']} p99 {watching['p99']} ms"
            )
        time.sleep(args.settle)
        return summary

    def table_specs(self, stack: Stack, tables: int, spectators: int) -> list[dict]:
        if stack.mode == "bare":
            specs = [
                {
                    "id": self.bare_next_id + n,
                    "seats": [{"seat": k, "cookie": ""} for k in range(4)],
                }
                for n in range(tables)
            ]
            self.bare_next_id += tables
        else:
            specs = self.django.open_tables(tables, self.users, TABLE_OPTIONS, "bench")
            for table in specs:
                for seat in table["seats"]:
                    seat["cookie"] = self.sessions[seat.pop("user")]
        for table in specs:
            table["spectators"] = spectators
            table["languages"] = self.args.spectator_languages.split(",")
        return specs

    def bare_frame_bytes(self, processes: int, proxy: str) -> int:
        if self.args.frame_bytes:
            return self.args.frame_bytes
        sizes = [
            s["mean_seat_frame_bytes"]
            for s in self.steps
            if s["mode"] == "app"
            and s["processes"] == processes
            and s["proxy"] == proxy
            and s["mean_seat_frame_bytes"]
        ]
        return round(sum(sizes) / len(sizes)) if sizes else 15000

    def drive(self, stack: Stack, label: str, groups: list[list], common: dict):
        """Run the client processes through READY, GO, STOPPED, CLOSE, DONE; read the servers."""
        args = self.args
        clients = []
        slug = re.sub(r"\W+", "-", label)
        for n, group in enumerate(groups):
            spec = self.work / f"spec-{slug}-{n}.json"
            spec.write_text(json.dumps({**common, "tables": group, "seed": n + 1}))
            result = self.work / f"result-{slug}-{n}.json"
            proc = subprocess.Popen(
                [self.python, str(BENCH_DIR / "load_client.py"), str(spec), str(result)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                bufsize=0,
                stderr=open(self.logs / f"client-{slug}-{n}.log", "w"),  # noqa: SIM115
                env=self.env("client"),
                start_new_session=True,
            )
            service = load_procs.Service(f"client{n}", proc, self.logs / f"client-{slug}-{n}.log")
            clients.append((service, result))
            self.clients_started.append(service)
        try:
            ready = [expect(c.proc, "READY", args.connect_timeout * 2 + 30) for c, _ in clients]
            failed = sum(int(line.split()[2]) for line in ready)
            if failed:
                say(f"   {failed} sockets failed to connect")
            time.sleep(0.5)
            roots = {**stack.roots, "clients": [c.proc.pid for c, _ in clients]}
            meter = load_procs.Meter(
                {k: v for k, v in roots.items() if v}, extra=[self.pg.sample_backends]
            )
            self.pg.peak_backends = 0
            sql0, pg0 = read_sql(self.sqldir), self.pg.read()
            meter.begin()
            for client, _ in clients:
                tell(client.proc, "GO")
            for client, _ in clients:
                expect(client.proc, "STOPPED", args.duration + args.action_timeout + 30)
            time.sleep(0.5)
            sql1, pg1 = read_sql(self.sqldir), self.pg.read()
            processes = meter.end()
            loadavg = round(os.getloadavg()[0], 2)
            for client, _ in clients:
                tell(client.proc, "CLOSE")
            for client, _ in clients:
                expect(client.proc, "DONE", 60)
                client.proc.wait(10)
            results = [json.loads(path.read_text()) for _, path in clients]
        finally:
            for client, _ in clients:
                client.stop(2)
                self.clients_started.remove(client)
        server = {
            "loadavg": loadavg,
            "processes_cost": processes,
            "sql": {k: sql1.get(k, 0) - sql0.get(k, 0) for k in sql1},
            "pg": {k: pg1[k] - pg0[k] for k in pg1 if k != "numbackends"},
            "pg_peak_backends": self.pg.peak_backends,
        }
        return results, server

    # --- the plan ----------------------------------------------------------------------------

    def run(self) -> None:
        args = self.args
        for processes in args.processes:
            last = processes == args.processes[-1]
            for mode in ("app", "bare"):
                stack = self.start_stack(mode, processes, args.proxy)
                try:
                    steps = args.tables if mode == "app" else args.bare_tables
                    misses = 0
                    for tables in steps:
                        misses = 0 if self.try_step(stack, "tables", tables) else misses + 1
                        if misses >= args.stop_after and not args.keep_going:
                            break
                    if last and args.spectators:
                        self.try_step(stack, "spectators", 1, args.spectators)
                    if last and mode == "app" and args.rated_overload:
                        self.try_step(stack, "overload", args.rated_overload)
                finally:
                    stack.stop()
            self.report_ratio(processes)

    def try_step(self, stack: Stack, scenario: str, tables: int, spectators: int = 0) -> bool:
        """Run a step; a step that breaks down (a client that never got ready, a server that
        died) is reported and counts as not held."""
        try:
            return self.step(stack, scenario, tables, spectators)["held"]
        except RuntimeError as error:
            say(f"   the step broke down: {error}")
            self.broken = getattr(self, "broken", []) + [
                f"{scenario} {stack.mode} {stack.processes}p {tables}t: {error}"
            ]
            if not all(s.alive() for s in stack.services):
                raise
            return False

    def report_ratio(self, processes: int) -> None:
        app = load_report.capacity(self.steps, "app", processes, self.args.proxy)
        bare = load_report.capacity(self.steps, "bare", processes, self.args.proxy)
        top = max(self.args.bare_tables, default=0)
        bound = "≥" if bare == top else ""  # the floor held every step: its capacity is more
        ratio = f"{'≤' if bound and app else ''}{app / bare:.3f}" if bare else "n/a"
        line = (
            f"capacity with {processes} Daphne (proxy {self.args.proxy}): app {app} "
            f"tables{' (no step held)' if not app else ''}, bare {bound}{bare} tables, "
            f"ratio app/bare {ratio}"
        )
        self.ratios = getattr(self, "ratios", []) + [line]
        say(line)

    def write(self) -> None:
        out = self.out
        results = {
            "machine": load_procs.machine(),
            "args": {k: v for k, v in vars(self.args).items()},
            "app_dir": str(self.app_dir),
            "pg_settings": getattr(self.pg, "settings", {}),
            "capacity": getattr(self, "ratios", []),
            "broken_steps": getattr(self, "broken", []),
            "steps": self.steps,
        }
        (out / "results.json").write_text(json.dumps(results, indent=1, default=str))
        if self.steps:
            load_report.plot(self.steps, out / "p99.png")
        table = load_report.markdown(self.steps)
        (out / "results.md").write_text(
            table + "\n\n" + "\n".join(getattr(self, "ratios", [])) + "\n"
        )
        print()
        print(table)
        print()
        for line in getattr(self, "ratios", []):
            print(line)
        print(
            f"\nwrote {out / 'results.json'}, {out / 'results.md'}, {out / 'p99.png'}; "
            f"logs in {self.logs}"
        )


def background_cpu(seconds: float) -> float:
    """Machine CPU % (all cores; 200 = both of two) used while this benchmark idles between
    steps: other work on the box, plus the idle servers."""
    before = load_procs.machine_busy()
    time.sleep(seconds)
    return round(100 * (load_procs.machine_busy() - before) / seconds, 1)


def read_sql(directory: Path) -> dict:
    """Statements and new connections counted so far, in total and per role."""
    totals: dict[str, int] = {}
    for path in directory.glob("*.json"):
        try:
            data = json.loads(path.read_text())
        except (OSError, ValueError):
            continue
        # "connects": Django's connection_created, also when a pool hands out a connection;
        # new server sessions are pg_stat_database.sessions.
        for key, name in (("statements", "statements"), ("connections", "django_connects")):
            totals[name] = totals.get(name, 0) + data[key]
            per_role = f"{name} ({data['role']})"
            totals[per_role] = totals.get(per_role, 0) + data[key]
    return totals


def expect(proc: subprocess.Popen, word: str, timeout: float) -> str:
    """The client's next line starting with ``word``, within ``timeout`` s (raw reads of its
    stdout, so lines that arrive together are not left in a buffer select cannot see)."""
    import selectors

    pending = getattr(proc, "pending_output", b"")
    deadline = time.monotonic() + timeout
    with selectors.DefaultSelector() as selector:
        selector.register(proc.stdout, selectors.EVENT_READ)
        while True:
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                if line.decode(errors="replace").startswith(word):
                    proc.pending_output = pending
                    return line.decode().strip()
            left = deadline - time.monotonic()
            if left <= 0:
                raise RuntimeError(f"no {word} from a client within {timeout:.0f} s")
            if selector.select(min(1.0, left)):
                chunk = os.read(proc.stdout.fileno(), 65536)
                if not chunk:
                    raise RuntimeError(f"a client exited before {word}")
                pending += chunk


def tell(proc: subprocess.Popen, word: str) -> None:
    proc.stdin.write(f"{word}\n".encode())
    proc.stdin.flush()
