"""Team-aware ratings with openskill's Plackett-Luce model (no home-made maths): the rating
rows. The maths itself (the model, its defaults, ``rate_teams``, ``ordinal``) is
``leagues.skill``, a leaf module the models read too.

A finished rated match rates its two teams against each other: the winning team ranks first.
Each player's new (mu, sigma) comes from ``PlackettLuce.rate``; the shown rating is openskill's
ordinal, mu − 3·sigma. ``do_rate_match`` writes the ratings and one ``RatingHistory`` row per
player; the unique (league, user, match) constraint means a match is never rated twice.

The site-wide rating (``SiteRating``, the leaderboard) uses the same maths over every rated table
of the site, leagues' included: ``do_rate_site_match`` keeps its rows.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from django.dispatch import receiver
from django.utils import timezone

from games.signals import rated_match_counted
from leagues.models import League, Rating, RatingHistory, SiteRating, SiteRatingChange
from leagues.skill import ordinal, rate_teams

if TYPE_CHECKING:
    from django.contrib.auth.models import _User as User  # (the leagues import no accounts)

    from games.models import Match


def _new_skills[R: (Rating, SiteRating)](
    rows: Mapping[int, R], team0: Sequence[User], team1: Sequence[User], winner: int
) -> Iterator[tuple[User, R, bool, float, float]]:
    """Each player's ``(user, row, won, mu, sigma)`` after a match: ``rows`` maps user ids to
    their (locked) rating rows, league or site, whose ``mu``/``sigma`` are the skills before;
    the new skills come from ``rate_teams``. Shared by league and site ratings."""
    new0, new1 = rate_teams(
        [(rows[u.pk].mu, rows[u.pk].sigma) for u in team0],
        [(rows[u.pk].mu, rows[u.pk].sigma) for u in team1],
        winner,
    )
    for team, new, won in ((team0, new0, winner == 0), (team1, new1, winner == 1)):
        for user, (mu, sigma) in zip(team, new, strict=True):
            yield user, rows[user.pk], won, mu, sigma


def ratings_for(league: League, users: Sequence[User]) -> dict[int, Rating]:
    """Each user's rating row in ``league``, created at the defaults if missing (unsaved
    rows are not created: they are returned with the defaults)."""
    found = {r.user_id: r for r in Rating.objects.filter(league=league, user__in=users)}
    return {u.pk: found.get(u.pk) or Rating(league=league, user=u) for u in users}


def do_rate_match(
    league: League, match: Match, team0: Sequence[User], team1: Sequence[User], winner: int
) -> list[RatingHistory]:
    """Rate a finished match between ``team0`` and ``team1`` (users) in ``league``.

    Precondition: the caller is inside a transaction and holds the row lock of the record
    being processed (fixture or pairing). Rating rows are locked here in user-id order, so two
    matches finishing at once never deadlock on them.
    """
    users = list(team0) + list(team1)
    for user in sorted(users, key=lambda u: u.pk):
        Rating.objects.get_or_create(league=league, user=user)
    rows = {
        r.user_id: r
        for r in Rating.objects.select_for_update()
        .filter(league=league, user__in=users)
        .order_by("user_id")
    }
    history = []
    for user, row, won, mu, sigma in _new_skills(rows, team0, team1, winner):
        history.append(
            RatingHistory(
                league=league,
                user=user,
                match=match,
                won=won,
                mu_before=row.mu,
                sigma_before=row.sigma,
                mu_after=mu,
                sigma_after=sigma,
            )
        )
        row.mu, row.sigma, row.matches = mu, sigma, row.matches + 1
        row.save(update_fields=["mu", "sigma", "matches", "updated_at"])
    RatingHistory.objects.bulk_create(history)
    return history


@receiver(rated_match_counted, dispatch_uid="leagues.ratings.rate_site_match")
def _rate_counted_match(
    sender: object,
    match: Match,
    team0: Sequence[User],
    team1: Sequence[User],
    winner: int,
    **kwargs: Any,
) -> None:
    """A finished rated match was counted (``games.records.player_stats``): rate it site-wide,
    in the same transaction."""
    do_rate_site_match(match, team0, team1, winner)


def do_rate_site_match(
    match: Match, team0: Sequence[User], team1: Sequence[User], winner: int
) -> list[SiteRatingChange]:
    """The site-wide rating: rate finished ``match`` between the users of ``team0`` and
    ``team1``, ``winner`` (0 or 1) having won: update each player's ``SiteRating`` and add one
    ``SiteRatingChange`` each. A match is rated here under the rule leagues use
    (``games.records.player_stats.seated_teams``: a rated table, every seat a person playing for
    themselves); the caller decides. A resignation is a loss like any other.

    Precondition: the caller is inside a transaction and has made sure the match was not
    rated yet (``games.records.player_stats`` holds its ``MatchTally`` guard);
    ``SiteRatingChange``'s unique (user, match) is the second guard. Rating rows are made and locked
    in user-id order, so two matches ending at once never deadlock on them. Five statements,
    whatever the number of players."""
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
    changes = []
    now = timezone.now()
    for user, row, won, mu, sigma in _new_skills(rows, team0, team1, winner):
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
