"""A league and its members, and who may see a league: the visibility rule as a predicate on
one league (``can_see_league``) and as the queryset filter that agrees with it (``league_q``,
``League.objects.visible_to``), side by side so they cannot drift apart (``leagues.access``
states the rule and is where other code asks).

A league has seasons (``leagues.models.season``, which names ``League`` by its label and so does
not import this module).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeGuard

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from leagues.models.options import check_options_field
from leagues.models.season import Season

if TYPE_CHECKING:
    from django.contrib.auth.models import _User as User  # (the leagues import no accounts)

    from games.access import Viewer

USER = settings.AUTH_USER_MODEL


def signed_in(user: Viewer) -> TypeGuard[User]:
    """Whether ``user`` is a signed-in person (not None, not anonymous)."""
    return user is not None and user.is_authenticated


def league_q(user: Viewer, prefix: str = "") -> Q:
    """The ``Q`` of the leagues ``user`` may see, on the league reached by ``prefix`` (e.g.
    ``"fixture__season__league__"``; empty for ``League`` itself). Staff: every league."""
    if signed_in(user) and user.is_staff:
        return Q()
    seen = Q(**{f"{prefix}visibility": League.Visibility.PUBLIC})
    if signed_in(user):
        member_of = Membership.objects.filter(
            user=user, status__in=[Membership.Status.ACTIVE, Membership.Status.PENDING]
        ).values("league_id")
        organised = League.organisers.through.objects.filter(user_id=user.pk).values("league_id")
        seen |= Q(**{f"{prefix}pk__in": member_of}) | Q(**{f"{prefix}pk__in": organised})
    return seen


def can_see_league(user: Viewer, league: League) -> bool:
    """Whether ``user`` (anonymous allowed, or None) may see ``league``: the rule of
    ``league_q``, without a query for a public league."""
    if league.visibility == League.Visibility.PUBLIC:
        return True
    if not signed_in(user):
        return False
    if user.is_staff or league.organisers.filter(pk=user.pk).exists():
        return True
    return league.memberships.filter(
        user=user, status__in=[Membership.Status.ACTIVE, Membership.Status.PENDING]
    ).exists()


class LeagueQuerySet(models.QuerySet["League"]):
    """Leagues, with ``visible_to``."""

    def visible_to(self, user: Viewer) -> LeagueQuerySet:
        """The leagues ``user`` may see (``can_see_league``)."""
        return self.filter(league_q(user))


class League(models.Model):
    class Visibility(models.TextChoices):
        PUBLIC = "public", _("Public")
        INVITE_ONLY = "invite", _("Invite only")

    class JoinPolicy(models.TextChoices):
        OPEN = "open", _("Anyone may join")
        APPROVAL = "approval", _("An organiser approves")

    name = models.CharField(_("name"), max_length=80)
    slug = models.SlugField(_("slug"), unique=True)
    description = models.TextField(_("description"), blank=True)
    visibility = models.CharField(
        _("visibility"), max_length=10, choices=Visibility, default=Visibility.PUBLIC
    )
    join_policy = models.CharField(
        _("join policy"), max_length=10, choices=JoinPolicy, default=JoinPolicy.OPEN
    )
    table_options = models.JSONField(
        _("default table options"),
        default=dict,
        blank=True,
        help_text=_("The rules of its tables, as a host chooses them when opening a table."),
    )
    players = models.PositiveSmallIntegerField(_("seats per table"), default=4)
    rated = models.BooleanField(
        _("rated"), default=True, help_text=_("League matches change ratings.")
    )
    #: Whether bot accounts (``User.is_bot``) may play this league's fixtures; elsewhere a bot
    #: plays casual tables only (``accounts.bots``).
    allow_bots = models.BooleanField(
        _("allow bots"),
        default=False,
        help_text=_("Bot accounts may play this league's fixtures."),
    )
    # settings.AUTH_USER_MODEL spelled out: django-stubs resolves it here, not through USER
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="organised_leagues",
        verbose_name=_("organisers"),
    )
    created_by = models.ForeignKey(
        USER, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = LeagueQuerySet.as_manager()

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("leagues:detail", args=[self.slug])

    def clean(self) -> None:
        """The table options must be rules options a table accepts (as the admin saves them)."""
        check_options_field(self.table_options, self.players)

    def is_organiser(self, user: Viewer) -> bool:
        """Organisers and staff run the league."""
        if not signed_in(user):
            return False
        return user.is_staff or self.organisers.filter(pk=user.pk).exists()

    def current_season(self) -> Season | None:
        """The running season, else the latest one."""
        seasons = self.seasons.order_by("-starts_on", "-pk")
        return seasons.filter(status=Season.Status.RUNNING).first() or seasons.first()


class Membership(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for approval")
        ACTIVE = "active", _("Member")
        LEFT = "left", _("Left")

    class Role(models.TextChoices):
        MEMBER = "member", _("Member")
        ORGANISER = "organiser", _("Organiser")

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="league_memberships")
    status = models.CharField(max_length=10, choices=Status, default=Status.PENDING)
    role = models.CharField(max_length=10, choices=Role, default=Role.MEMBER)
    requested_at = models.DateTimeField(auto_now_add=True)
    joined_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["league", "user__username"]
        constraints = [
            models.UniqueConstraint(fields=["league", "user"], name="one_membership_per_league")
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.league} ({self.status})"
