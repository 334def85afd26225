"""Admin for leagues and tournaments. Records are edited here; tournament actions (start,
generate a round, pause, forfeit, replace a player, re-pair, close…) call the same
``leagues.tournaments`` services as the staff pages, so they are checked and logged alike.

Django's admin autodiscovery imports this package; importing its rooms registers every model:
- ``league``: leagues, members, seasons, fixtures, ratings (league and site), notices;
- ``tournament``: tournaments, teams, rounds, pairings and the tournament log;
- ``common``: what both share (an action run on each selected row, the winner column).
"""

from leagues.admin.league import (
    FixtureAdmin,
    LeagueAdmin,
    MembershipAdmin,
    NoticeAdmin,
    RatingAdmin,
    RatingHistoryAdmin,
    SeasonAdmin,
    SiteRatingAdmin,
)
from leagues.admin.tournament import (
    PairingAdmin,
    TournamentAdmin,
    TournamentLogAdmin,
    TournamentRoundAdmin,
    TournamentTeamAdmin,
)

__all__ = [
    "FixtureAdmin",
    "LeagueAdmin",
    "MembershipAdmin",
    "NoticeAdmin",
    "PairingAdmin",
    "RatingAdmin",
    "RatingHistoryAdmin",
    "SeasonAdmin",
    "SiteRatingAdmin",
    "TournamentAdmin",
    "TournamentLogAdmin",
    "TournamentRoundAdmin",
    "TournamentTeamAdmin",
]
