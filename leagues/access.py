"""Who may see a league and a tournament: one predicate per object and the queryset filter that
agrees with it, so a page (404 when hidden) and every list showing the object apply one rule.

- A league: a public one by everyone; an invite-only one by its active or pending members, its
  organisers and staff.
- A tournament: staff see every one; others see it once it left its draft, if its league (when
  it has one) is visible to them.

This module is where other code asks: the games app (``games.access``, for the tables of
fixtures and pairings), the services and the pages. The rules themselves live beside the
models they read, the predicate next to its filter: ``leagues.models.league`` (``league_q``,
``can_see_league``, ``League.objects.visible_to``) and ``leagues.models.tournament``
(``tournament_q``, ``can_see_tournament``, ``Tournament.objects.visible_to``). So this module
imports the models and the models never import it.
"""

from __future__ import annotations

from leagues.models.league import can_see_league, league_q
from leagues.models.tournament import can_see_tournament, tournament_q

__all__ = ["can_see_league", "can_see_tournament", "league_q", "tournament_q"]
