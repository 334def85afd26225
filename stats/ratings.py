"""The site-wide rating: openskill over every rated table of the site, leagues' included.

The maths is the leagues' (``leagues.ratings.rate_teams``: Plackett-Luce, the winning team
ranked first; the shown rating is ``leagues.ratings.ordinal``): this module only keeps the site's
own rows. A match is rated here under the rule leagues use (``leagues.results.seated_teams``):
the table is rated and every seat is a person playing for themselves (a seat its own player
handed to the AI while away stays theirs; an AI seat makes the match unrated). A resignation
is a loss like any other.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils import timezone

from leagues.ratings import ordinal, rate_teams
from stats.models import SiteRating, SiteRatingChange


def do_rate_match(match, team0: Sequence, team1: Sequence, winner: int) -> list[SiteRatingChange]:
    """Rate finished ``match`` between the users of ``team0`` and ``team1``, ``winner`` (0 or
    1) having won: update each player's ``SiteRating`` and add one ``SiteRatingChange`` each.

    Precondition: the caller is inside a transaction and has made sure the match was not
    rated yet (``stats.record`` holds its ``MatchTally`` guard); ``SiteRatingChange``'s unique
    (user, match) is the second guard. Rating rows are made and locked in user-id order, so
    two matches ending at once never deadlock on them. Five statements, whatever the number
    of players."""
    users = list(team0) + list(team1)
    # Missing rows first, in user-id order (as the locks below), in one statement.
    SiteRating.objects.bulk_create(
        [SiteRating(user=user) for user in sorted(users, key=lambda u: u.pk)],
        ignore_conflicts=True,
    )
    rows = {
        r.user_id: r
        for r in SiteRating.objects.select_for_update().filter(user__in=users).order_by("user_id")
    }
    new0, new1 = rate_teams(
        [(rows[u.pk].mu, rows[u.pk].sigma) for u in team0],
        [(rows[u.pk].mu, rows[u.pk].sigma) for u in team1],
        winner,
    )
    changes = []
    now = timezone.now()
    for team, new, won in ((team0, new0, winner == 0), (team1, new1, winner == 1)):
        for user, (mu, sigma) in zip(team, new, strict=True):
            row = rows[user.pk]
            changes.append(
                SiteRatingChange(
                    user=user,
                    match=match,
                    won=won,
                    mu_before=row.mu,
                    sigma_before=row.sigma,
                    mu_after=mu,
                    sigma_after=sigma,
                )
            )
            row.mu, row.sigma, row.ordinal = mu, sigma, ordinal(mu, sigma)
            row.matches += 1
            row.wins += won
            row.updated_at = now
    SiteRating.objects.bulk_update(
        rows.values(), ["mu", "sigma", "ordinal", "matches", "wins", "updated_at"]
    )
    SiteRatingChange.objects.bulk_create(changes)
    return changes
