"""Cards are conserved at every step of random games."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, seed, settings

from games.engine import (
    Options,
)
from games.engine.cards import full_deck, remove_cards, sort_cards
from games.engine.events import (
    Bombed,
    Dealt,
    Hooked,
    Played,
    Returned,
    TributePaid,
    Unhooked,
)

from .driver import GAMES_SEED, PLAYERS, SETTINGS, examples, game, seeds, table_options


@PLAYERS
@seed(GAMES_SEED)
@settings(max_examples=examples(12), **SETTINGS)
@given(table=table_options, seed=seeds, choices=seeds)
def test_cards_are_conserved(players, table, seed, choices):
    """Hands plus every card played, hooked or unhooked this round is the full deck multiset (no
    copy twice, none lost); tribute and return cards move from one hand to the other; a pending
    claim's cards stay in the claimant's hand; the trick holds only played cards."""
    options = Options(players=players, **table)
    deck = Counter(full_deck(options.decks))
    played: Counter = Counter()
    for step in game(options, seed, choices, rounds=3):
        state = step.after
        for event in step.events:
            if isinstance(event, Dealt):
                played = Counter()
            elif isinstance(event, (Played, Bombed, Hooked, Unhooked)):
                played.update(event.cards)
            elif isinstance(event, TributePaid):
                assert event.card in state.hands[event.receiver]
            elif isinstance(event, Returned):
                assert event.card in state.hands[event.to]
                t = next(t for t in state.tributes if t.receiver == event.seat)
                assert t.returned == event.card and t.payer == event.to
        held = Counter(c for hand in state.hands for c in hand)
        assert held + played == deck
        assert max(held.values()) <= options.decks
        assert all(hand == sort_cards(hand) for hand in state.hands)
        trick = Counter(c for entry in state.trick for c in entry.cards)
        assert not trick - played
        if state.window is not None:
            for seat, answer in enumerate(state.window.answers):
                if answer:
                    assert remove_cards(state.hands[seat], answer) is not None
