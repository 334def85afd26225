"""A fingerprint of the engine's behaviour, to check that an optimisation changed nothing.

    python bench/digest.py            # prints: <actions applied> <sha256>
    python bench/digest.py --matches 40

Plays seeded random matches under several option sets (2, 4 and 6 players, every §10 switch
flipped somewhere) and hashes the repr of everything observable along the way: every seat's
``legal_actions``, ``seats_to_act``, each ``apply`` outcome (state and events), some rejected
actions and timeouts, and ``moves.leads``/``moves.follows`` on a hand at each step. Run it before
and after a change to the engine: the same digest means the same behaviour on those games.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine.actions import Hook, NextRound, Outcome, Pass, Play, Rejection, Timeout  # noqa: E402
from games.engine.codec import events_to_json  # noqa: E402
from games.engine.combos import classify  # noqa: E402
from games.engine.deal import new_match  # noqa: E402
from games.engine.moves import follows, leads  # noqa: E402
from games.engine.options import Options  # noqa: E402
from games.engine.rules import apply, legal_actions, seats_to_act  # noqa: E402
from games.engine.state import MATCH_OVER, ROUND_OVER  # noqa: E402

VARIANTS = [
    {"players": 4},
    {"players": 2},
    {"players": 6},
    {"players": 4, "two_position": "high", "bomb_order": "jokers_top", "joker_hook": True},
    {
        "players": 4,
        "two_in_sequences": True,
        "bomb_in_window": True,
        "lead_after_out": "next_player",
    },
    {
        "players": 6,
        "bomb_in_window": True,
        "joker_hook": True,
        "anti_tribute": True,
        "first_lead": "top_finisher",
    },
    {"players": 4, "claim_window_seconds": 0, "target_level": 5},
]


def digest(matches: int, rounds_per_match: int = 6) -> tuple[int, str]:
    h = hashlib.sha256()
    applied = 0
    for index, variant in enumerate(VARIANTS):
        options = Options(**variant)
        rng = random.Random(index)
        for _ in range(matches):
            state = new_match(options, rng.getrandbits(32))
            rounds = 0
            while state.phase != MATCH_OVER and rounds < rounds_per_match:
                if state.phase == ROUND_OVER:
                    outcome = apply(state, NextRound())
                    h.update(_seen(outcome))
                    state = outcome.state
                    rounds += 1
                    continue
                for seat in range(options.players):
                    h.update(repr(legal_actions(state, seat)).encode())
                h.update(repr(seats_to_act(state)).encode())
                if rng.random() < 0.03:
                    outcome = apply(state, Timeout())
                elif rng.random() < 0.02:  # an arbitrary, usually illegal, action
                    seat = rng.randrange(options.players)
                    hand = state.hands[seat]
                    cards = (
                        tuple(rng.sample(hand, min(len(hand), rng.randint(1, 4))))
                        if hand
                        else ("3S",)
                    )
                    action = rng.choice([Play(seat, cards), Pass(seat), Hook(seat, cards)])
                    h.update(_seen(apply(state, action)))
                    h.update(repr(classify(cards, state.level, options)).encode())
                    continue
                else:
                    seats = seats_to_act(state)
                    seat = seats[0] if len(seats) == 1 else rng.choice(seats)
                    outcome = apply(state, rng.choice(legal_actions(state, seat)))
                h.update(_seen(outcome))
                applied += 1
                state = outcome.state
                hand = state.hands[rng.randrange(options.players)]
                h.update(repr(leads(hand, state.level, options)).encode())
                if state.top is not None:
                    h.update(repr(follows(hand, state.top.combo, state.level, options)).encode())
    return applied, h.hexdigest()


def _seen(outcome: Outcome | Rejection) -> bytes:
    """An outcome's repr with its events as the database stores them (``codec``), so that the
    digest does not move with the classes events are made of."""
    if isinstance(outcome, Outcome):
        outcome = outcome._replace(events=tuple(events_to_json(outcome.events)))
    return repr(outcome).encode()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--matches", type=int, default=40, help="matches per option set")
    args = parser.parse_args(argv)
    applied, hexdigest = digest(args.matches)
    print(applied, hexdigest)
    return 0


if __name__ == "__main__":
    sys.exit(main())
