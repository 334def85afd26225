"""Leagues, seasons, fixtures, ratings, tournaments and their records: every model of the app,
importable from here (``leagues.models.League``), as Django and the migrations expect.

A league match or a tournament match is an ordinary ``games.Table``; ``Fixture.table`` and
``Pairing.table`` link it here. Results are copied onto the fixture or pairing once, when the
match ends (``leagues.results``); ``processed_at`` is the marker that makes that happen once.
Standings are computed from those results by ``leagues.standings`` (never stored), so they
cannot drift from the results they summarise.

The rooms, each importing only the ones listed before it (and ``leagues.skill``):
- ``options``: the check every ``table_options`` field gets;
- ``season``: ``Season``, ``Fixture``, ``FixturePlayer``;
- ``league``: ``League``, ``Membership``, and who may see a league (``league_q``);
- ``rating``: ``Rating``, ``RatingHistory``, ``SiteRating``, ``SiteRatingChange``;
- ``tournament``: ``Tournament`` and its teams, rounds, pairings and log, and who may see one;
- ``notice``: ``Notice``.
"""

from leagues.models.league import League, Membership
from leagues.models.notice import Notice
from leagues.models.rating import Rating, RatingHistory, SiteRating, SiteRatingChange
from leagues.models.season import Fixture, FixturePlayer, Season
from leagues.models.tournament import (
    Pairing,
    TeamMember,
    Tournament,
    TournamentLog,
    TournamentRound,
    TournamentTeam,
)

__all__ = [
    "Fixture",
    "FixturePlayer",
    "League",
    "Membership",
    "Notice",
    "Pairing",
    "Rating",
    "RatingHistory",
    "Season",
    "SiteRating",
    "SiteRatingChange",
    "TeamMember",
    "Tournament",
    "TournamentLog",
    "TournamentRound",
    "TournamentTeam",
]
