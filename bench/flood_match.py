"""What ``bench/page_flood.py`` floods: a finished match with a long record (four people's
seats played to the end in this process by the heuristic AI, every move through the app's one writer
(``games.play.services.apply_locked`` under the match's row lock), so its record, rounds and
export are what a match played on the site leaves), or a lobby full of public open tables.
Needs Django set up (``load_db.Django``).
"""

from __future__ import annotations

import time


def play_long_match(target_level: str = "A", seed: int = 414) -> dict:
    """Open a public 4-seat table of four new people, play its match to ``target_level`` (a face,
    ``"3"``..``"A"``; ``"A"`` is a full match, about 1,500 moves) and return
    ``{"match": id, "rounds": n, "moves": n, "seconds": s}``. The seats play the heuristic
    policy from their own views; a round's end is followed by the next deal at once (the timer's
    ``NextRound``). Raises RuntimeError if the writer refuses a move (a bug)."""
    from django.db import transaction

    from accounts.models import User
    from games.engine.actions import NextRound
    from games.engine.rules import seats_to_act
    from games.engine.state import MATCH_OVER, ROUND_OVER
    from games.live.replay import load_state
    from games.models import Match
    from games.play import ai_turns, services, stewarding

    started = time.monotonic()
    stamp = f"{int(time.time() * 1000) % 10**9}"
    people = [User.objects.create_user(f"flood{stamp}{n}", password=None) for n in range(4)]
    table = stewarding.open_table(
        people[0],
        name="Flood record",
        options={"target_level": target_level},
        seats=[(u, "") for u in people],
        start=True,
        seed=seed,
    )
    match_id = Match.objects.get(table=table).pk
    moves = 0
    while True:
        with transaction.atomic():
            match = Match.objects.select_for_update().select_related("table").get(pk=match_id)
            state = load_state(match)
            if state.phase == MATCH_OVER:
                break
            if state.phase == ROUND_OVER:
                action, seat = NextRound(), None
            else:
                seat = seats_to_act(state)[0]
                action, _pause = ai_turns.decide(state, seat, "heuristic", match.seed)
            result = services.apply_locked(match, state, action, seat)
        if not result.ok:
            raise RuntimeError(f"the writer refused {action}: {result}")
        moves += 1
    return {
        "match": match_id,
        "rounds": state.round_no,
        "moves": moves,
        "seconds": round(time.monotonic() - started, 1),
    }


def open_lobby_tables(count: int) -> list[int]:
    """``count`` public 4-seat tables waiting for players, as hosts open them on the site: the
    host seated, one AI seat, two seats free (new hosts, ``GAMES_MAX_HOSTED_TABLES`` apart: the
    bench makes them through ``stewarding``). Their ids."""
    from accounts.models import User
    from games.play import stewarding

    stamp = f"{int(time.time() * 1000) % 10**9}"
    ids = []
    for n in range(count):
        host = User.objects.create_user(f"lobby{stamp}{n}", password=None)
        table = stewarding.open_table(
            host,
            name=f"Lobby table {n + 1}",
            options={},
            seats=[(host, ""), (None, "heuristic"), (None, ""), (None, "")],
        )
        ids.append(table.pk)
    return ids
