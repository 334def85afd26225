"""Who may see a league and a tournament: one predicate per object and the queryset filter that
agrees with it, so a page (404 when hidden) and every list showing the object apply one rule.

- A league: a public one by everyone; an invite-only one by its active or pending members, its
  organisers and staff.
- A tournament: staff see every one; others see it once it left its draft, if its league (when
  it has one) is visible to them.

The games app asks these through ``games.access`` for the tables of fixtures and pairings.
Nothing here imports a model at import time: ``leagues.models`` uses the querysets.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q


def _signed_in(user) -> bool:
    return user is not None and user.is_authenticated


def league_q(user, prefix: str = "") -> Q:
    """The ``Q`` of the leagues ``user`` may see, on the league reached by ``prefix`` (e.g.
    ``"fixture__season__league__"``; empty for ``League`` itself). Staff: every league."""
    from leagues.models import League, Membership

    if _signed_in(user) and user.is_staff:
        return Q()
    seen = Q(**{f"{prefix}visibility": League.Visibility.PUBLIC})
    if _signed_in(user):
        member_of = Membership.objects.filter(
            user=user, status__in=[Membership.Status.ACTIVE, Membership.Status.PENDING]
        ).values("league_id")
        organised = League.organisers.through.objects.filter(user_id=user.pk).values("league_id")
        seen |= Q(**{f"{prefix}pk__in": member_of}) | Q(**{f"{prefix}pk__in": organised})
    return seen


def can_see_league(user, league) -> bool:
    """Whether ``user`` (anonymous allowed, or None) may see ``league``: the rule of
    ``league_q``, without a query for a public league."""
    from leagues.models import League, Membership

    if league.visibility == League.Visibility.PUBLIC:
        return True
    if not _signed_in(user):
        return False
    if user.is_staff or league.organisers.filter(pk=user.pk).exists():
        return True
    return league.memberships.filter(
        user=user, status__in=[Membership.Status.ACTIVE, Membership.Status.PENDING]
    ).exists()


def tournament_q(user, prefix: str = "") -> Q:
    """The ``Q`` of the tournaments ``user`` may see (``prefix`` as in ``league_q``)."""
    from leagues.models import Tournament

    if _signed_in(user) and user.is_staff:
        return Q()
    return ~Q(**{f"{prefix}status": Tournament.Status.DRAFT}) & (
        Q(**{f"{prefix}league__isnull": True}) | league_q(user, f"{prefix}league__")
    )


def can_see_tournament(user, tournament) -> bool:
    """Whether ``user`` may see ``tournament``: the rule of ``tournament_q``."""
    if _signed_in(user) and user.is_staff:
        return True
    if tournament.status == tournament.Status.DRAFT:
        return False
    return tournament.league_id is None or can_see_league(user, tournament.league)


class LeagueQuerySet(models.QuerySet):
    def visible_to(self, user) -> LeagueQuerySet:
        """The leagues ``user`` may see (``can_see_league``)."""
        return self.filter(league_q(user))


class TournamentQuerySet(models.QuerySet):
    def visible_to(self, user) -> TournamentQuerySet:
        """The tournaments ``user`` may see (``can_see_tournament``)."""
        return self.filter(tournament_q(user))
