"""No seat's view, spectator's view or event shows a card it should not."""

from __future__ import annotations

import json

from hypothesis import given, seed, settings

from games.engine import (
    Options,
)
from games.engine.codec import (
    event_to_json,
)
from games.engine.events import (
    Answered,
    HiddenAnswer,
    Outranked,
)
from games.engine.views import event_for, seat_view, spectator_view

from ..helpers import check_view
from .driver import GAMES_SEED, PLAYERS, SETTINGS, examples, game, seeds, table_options


@PLAYERS
@seed(GAMES_SEED)
@settings(max_examples=examples(8), **SETTINGS)
@given(table=table_options, seed=seeds, choices=seeds)
def test_no_view_or_event_leaks_a_card(players, table, seed, choices):
    """seat_view shows exactly that seat's hand and only public cards elsewhere (trick, top
    play, tribute cards), its own window answer and nobody else's; the spectator view shows no
    hand; event_for never shows a seat another seat's pending claim or outranked notice."""
    options = Options(players=players, **table)
    for step in game(options, seed, choices):
        state = step.after
        for seat in range(options.players):
            check_view(seat_view(state, seat), state, seat)
        check_view(spectator_view(state), state, None)
        for event in step.events:
            for viewer in [None, *range(options.players)]:
                shown = event_for(event, viewer)
                if isinstance(event, Answered) and event.seat != viewer:
                    assert shown == HiddenAnswer(event.seat)
                    assert event_to_json(shown) == {"type": "answer", "seat": event.seat}
                elif isinstance(event, Outranked) and event.seat != viewer:
                    assert shown is None
                else:
                    assert shown == event
                if shown is not None:
                    json.dumps(event_to_json(shown))
