"""A seat's view made from the shared spectator view of the same state (``seat_view``'s
``public``, what a push does for its four views) is the seat's own view: the same fields, its
own hand only, its own window answer only."""

from __future__ import annotations

import random

from games.engine import NextRound, apply
from games.engine.ai import policy
from games.engine.deal import new_match
from games.engine.options import Options
from games.engine.rules import legal_actions, seats_to_act
from games.engine.state import MATCH_OVER, ROUND_OVER
from games.engine.views import seat_view, spectator_view


def test_a_seat_view_from_the_public_view_is_the_seat_view():
    options = Options.from_dict({}, players=4)
    state = new_match(options, 5)
    rng = random.Random(5)
    chooser = policy("heuristic")
    checked = 0
    while checked < 300 and state.phase != MATCH_OVER:
        public = spectator_view(state)
        assert public.hand == () and public.hands is None and public.my_answer is None
        for seat in range(4):
            shared = seat_view(state, seat, public)
            assert shared == seat_view(state, seat)
            assert shared.hand == state.hands[seat]
        if state.phase == ROUND_OVER:
            action = NextRound()
        else:
            seat = rng.choice(seats_to_act(state))
            action = chooser.choose(seat_view(state, seat), legal_actions(state, seat), rng)
        state = apply(state, action).state
        checked += 1
    assert checked == 300
