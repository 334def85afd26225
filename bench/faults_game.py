"""The match side of the fault bench (``bench/faults.py``), in this process with Django: the
tables, the next move a person would make, moves over the people's sockets, and the move-log
check."""

from __future__ import annotations

import random
import time
import uuid
from pathlib import Path

import load_db
from faults_common import AI_OPTIONS, PEOPLE_OPTIONS, REPO_DIR, say, wait_until
from faults_sockets import Sockets


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


def sockets_current(game: Game, socks: Sockets, match_id: int) -> bool:
    version = game.fresh(match_id).version
    return all(s.connected and s.version == version for s in socks.socks)
