"""A round-robin season's fixtures, all at once: every pair of the organiser's teams meets
once, in rounds by the circle method (``leagues.pairing.round_robin``, the tournaments' own),
each fixture opening its table as ``leagues.services.do_create_fixture`` does. All or nothing:
one fixture refused (a player not a member, a team of the wrong size) creates none."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from django.db import transaction
from django.utils.translation import gettext as _

from leagues import pairing
from leagues.models import Fixture, Season
from leagues.services import LeagueError, check_organiser, do_create_fixture

if TYPE_CHECKING:
    from django.contrib.auth.models import _User as User  # (the leagues import no accounts)


def do_create_round_robin(
    season: Season, by: User, teams: Sequence[Sequence[User]]
) -> list[Fixture]:
    """An organiser creates every fixture of the round-robin ``season``: ``teams`` are lists of
    users (each one team of a fixture, in seat order); fixture ``round`` numbers the rounds (a
    team with an odd count of teams rests once). Raises LeagueError, creating nothing."""
    check_organiser(season.league, by)
    if season.format != Season.Format.ROUND_ROBIN:
        raise LeagueError(_("Only a round-robin season gets all its fixtures at once."))
    if len(teams) < 2:
        raise LeagueError(_("A round robin needs at least two teams."))
    players = [u.pk for team in teams for u in team]
    if len(set(players)) != len(players):
        raise LeagueError(_("A player can be on only one team."))
    with transaction.atomic():
        # The season row lock: two organisers pressing at once make one schedule.
        season = Season.objects.select_for_update().select_related("league").get(pk=season.pk)
        if season.fixtures.filter(round__isnull=False).exists():
            raise LeagueError(_("This season's round robin is already scheduled."))
        fixtures = []
        for number, paired in enumerate(pairing.round_robin(range(len(teams))), start=1):
            for a, b in paired.pairs:
                fixtures.append(
                    do_create_fixture(season, by, [teams[a], teams[b]], round_number=number)
                )
    return fixtures
