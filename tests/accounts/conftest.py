"""The table fixtures of the live-play tests, for the friends, turn-notice and profile tests too."""

from tests.games.conftest import make_table, start_with_hands, started_two_seats  # noqa: F401
