"""The table fixtures of the live-play tests, for the friends and turn-notice tests too."""

from tests.games.conftest import make_table, start_with_hands  # noqa: F401
