"""Admin of the league records: leagues and their members, seasons and fixtures, league and
site ratings, and notices. Memberships are approved through ``leagues.services``, as on the
organiser pages."""

from __future__ import annotations

from django.contrib import admin
from django.db.models import Model, QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from games.live.teams import team_label
from leagues import services
from leagues.admin.common import _each, _winner_column
from leagues.models import (
    Fixture,
    FixturePlayer,
    League,
    Membership,
    Notice,
    Rating,
    RatingHistory,
    Season,
    SiteRating,
)
from leagues.view_helpers import AuthenticatedHttpRequest


# ModelAdmin and TabularInline are generic in django-stubs only: subscripting them raises at
# runtime without django_stubs_ext.monkeypatch(), which the site does not install. Their bases
# stay bare, each with an ignore for this reason.
class MembershipInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Membership
    extra = 0
    fields = ("user", "status", "role", "joined_at")
    readonly_fields = ("joined_at",)
    autocomplete_fields = ("user",)


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("name", "slug", "visibility", "join_policy", "rated", "created_at")
    prepopulated_fields = {"slug": ("name",)}
    filter_horizontal = ("organisers",)
    search_fields = ("name",)
    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("league", "user", "status", "role", "requested_at", "joined_at")
    list_filter = ("status", "role", "league")
    search_fields = ("user__username", "league__name")
    actions = ["approve"]

    @admin.action(description=_("Approve the selected requests"))
    def approve(self, request: AuthenticatedHttpRequest, queryset: QuerySet[Membership]) -> None:
        _each(
            self,
            request,
            queryset.select_related("league", "user"),
            lambda m: services.do_approve(m.league, request.user, m.user),
            _("Approved"),
        )


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("name", "league", "starts_on", "ends_on", "format", "status")
    list_filter = ("status", "format", "league")


class FixturePlayerInline(admin.TabularInline):  # type: ignore[type-arg]
    model = FixturePlayer
    extra = 0
    readonly_fields = ("user", "team", "seat")
    can_delete = False


@admin.display(description=_("Teams"))
def _teams_column(fixture: Fixture) -> str:
    """Both teams with their players: "Team 1 (ana, cy) · Team 2 (bo, di)"."""
    players = list(fixture.players.all())
    return " · ".join(
        team_label(team, [p.user.username for p in players if p.team == team]) for team in (0, 1)
    )


@admin.register(Fixture)
class FixtureAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("__str__", "season", _teams_column, "table", _winner_column, "processed_at")
    list_filter = ("season__league",)
    readonly_fields = (
        "table",
        "match",
        "winner_team",
        "levels_team0",
        "levels_team1",
        "caught_team0",
        "caught_team1",
        "processed_at",
    )
    inlines = [FixturePlayerInline]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Fixture]:
        return super().get_queryset(request).prefetch_related("players__user")


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("user", "league", "display", "mu", "sigma", "matches", "updated_at")
    list_filter = ("league",)
    search_fields = ("user__username",)
    readonly_fields = ("mu", "sigma", "matches")


@admin.register(RatingHistory)
class RatingHistoryAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("user", "league", "match", "won", "before", "after", "created_at")
    list_filter = ("league",)

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(SiteRating)
class SiteRatingAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Read-only: ``leagues.ratings.do_rate_site_match`` alone writes the site ratings."""

    list_display = ("user", "display", "matches", "wins", "updated_at")
    search_fields = ("user__username",)
    readonly_fields = ("user", "mu", "sigma", "ordinal", "matches", "wins", "updated_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(Notice)
class NoticeAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("user", "kind", "tournament", "league", "table", "created_at", "seen_at")
    list_filter = ("kind",)
