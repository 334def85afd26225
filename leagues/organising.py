"""What the games app must know of the tables leagues and tournaments schedule
(``games.organisers``): a fixture's or a pairing's table is not rematched, and is hidden from
whoever may not see its league or tournament (``leagues.access``). Registered once, from
``LeaguesConfig.ready``."""

from __future__ import annotations

from games.organisers import Organiser, register
from leagues.access import league_q, tournament_q
from leagues.models import Fixture, Pairing


def register_organisers() -> None:
    """Tell the games app about league fixtures and tournament pairings."""
    register(
        Organiser(
            name="leagues.fixtures",
            scheduled=lambda: Fixture.objects.all(),
            hidden_from=lambda user: Fixture.objects.exclude(league_q(user, "season__league__")),
        )
    )
    register(
        Organiser(
            name="leagues.pairings",
            scheduled=lambda: Pairing.objects.all(),
            hidden_from=lambda user: Pairing.objects.exclude(
                tournament_q(user, "round__tournament__")
            ),
        )
    )
