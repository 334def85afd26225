"""The rating maths: openskill's Plackett-Luce model at its defaults, and nothing else.

A leaf module (it imports no Django and nothing of this project), so the models (their field
defaults, ``SiteRatingChange.before``) and ``leagues.ratings`` (which writes the rating rows)
both read it without importing each other.

A new player is mu 25, sigma 25/3 (openskill's defaults); the shown rating is openskill's
ordinal, mu − 3·sigma, which is 0 for a new player. A win raises it; a loss lowers mu more than
the shrinking sigma gives back (usually), so a loser's figure goes below 0 — the leaderboard and
the league's player page say so (issue #18 §2).
"""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce

#: openskill's defaults (PlackettLuce): a new player is mu 25, sigma 25/3.
DEFAULT_MU = 25.0
DEFAULT_SIGMA = 25.0 / 3.0

MODEL = PlackettLuce(mu=DEFAULT_MU, sigma=DEFAULT_SIGMA)

Skill = tuple[float, float]


def rate_teams(
    team0: Sequence[Skill], team1: Sequence[Skill], winner: int
) -> tuple[list[Skill], list[Skill]]:
    """New (mu, sigma) for each player of two teams after ``winner`` (0 or 1) won."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma) for mu, sigma in team] for team in (team0, team1)]
    ranks: list[float] = [1, 2] if winner == 0 else [2, 1]
    new0, new1 = MODEL.rate(teams, ranks=ranks)
    return [(r.mu, r.sigma) for r in new0], [(r.mu, r.sigma) for r in new1]


def ordinal(mu: float, sigma: float) -> float:
    """The shown rating of a skill: openskill's ordinal, mu − 3·sigma (0 for a new player).
    The site rating (``leagues.ratings.do_rate_site_match``) shows it too."""
    return MODEL.rating(mu=mu, sigma=sigma).ordinal()
