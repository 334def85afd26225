"""What the bot API's tests share: the hands they deal and a match's state to compare before
and after a refused request (test_api_play.py, test_api_access.py, test_schema.py,
test_strict_bodies.py)."""

from __future__ import annotations

from games.models import Match, Move

# Both copies of each card (two decks): a card held by one seat is in nobody else's view.
HANDS = [
    ("3S", "3S", "4S", "4S"),  # seat 0 (ana)
    ("6H", "6H", "7H", "7H"),  # seat 1 (bot)
    ("9D", "9D", "10D", "10D"),
    ("QC", "QC", "KC", "KC"),
]


def match_snapshot(match: Match) -> tuple:
    """The match's version, state and number of moves: equal before and after, nothing changed."""
    match.refresh_from_db()
    return match.version, match.state, Move.objects.filter(match=match).count()
