"""Admin of tournaments, their teams, rounds, pairings and log. The actions (start, generate a
round, pause, forfeit, replace a player, re-pair, close…) call the same ``leagues.tournaments``
services as the staff pages, so they are checked and logged alike."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ActionForm
from django.contrib.auth import get_user_model
from django.db.models import Model, QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from games.engine.ai import STAND_IN
from games.live.teams import team_text_lazy
from games.models import Seat
from leagues import tournaments
from leagues.admin.common import _each, _winner_column
from leagues.models import (
    Pairing,
    TeamMember,
    Tournament,
    TournamentLog,
    TournamentRound,
    TournamentTeam,
)
from leagues.tournaments import TournamentError
from leagues.view_helpers import AuthenticatedHttpRequest

if TYPE_CHECKING:
    from django.contrib.auth.models import _User as User  # (the leagues import no accounts)


def _staff(request: HttpRequest) -> User:
    """The admin page's user: the admin site lets only signed-in staff in."""
    return cast("User", request.user)


class TournamentActionForm(ActionForm):
    """Extra fields beside the admin's action menu, for actions that need a choice."""

    stand_in = forms.ChoiceField(
        label=_("AI stand-ins"), required=False, choices=[("", "—")] + list(Seat.Policy.choices)
    )
    start_matches = forms.BooleanField(label=_("start the matches"), required=False, initial=True)


# ModelAdmin and TabularInline are generic in django-stubs only: subscripting them raises at
# runtime without django_stubs_ext.monkeypatch(), which the site does not install. Their bases
# stay bare, each with an ignore for this reason.
class TournamentTeamInline(admin.TabularInline):  # type: ignore[type-arg]
    model = TournamentTeam
    extra = 0
    fields = ("name", "registered_at", "withdrawn")
    readonly_fields = fields
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("name", "format", "team_size", "status", "league", "created_at")
    list_filter = ("status", "format")
    search_fields = ("name",)
    readonly_fields = ("status", "created_by", "created_at")
    inlines = [TournamentTeamInline]
    action_form = TournamentActionForm
    actions = ["open_registration", "start", "generate_round", "pause", "resume", "close"]

    def save_model(
        self, request: HttpRequest, obj: Tournament, form: forms.ModelForm[Tournament], change: bool
    ) -> None:
        """A new tournament is made by ``tournaments.do_create_tournament`` (its checks, its log
        line); a change is saved as the admin does."""
        if not change:  # a new tournament goes through the service (checks, log)
            data = {
                f: form.cleaned_data[f]
                for f in form.cleaned_data
                if f not in ("name", "format", "team_size")
            }
            try:
                created = tournaments.do_create_tournament(
                    _staff(request),
                    name=obj.name,
                    format=obj.format,
                    team_size=obj.team_size,
                    **data,
                )
            except TournamentError as e:
                self.message_user(request, str(e), messages.ERROR)
                return
            obj.pk = created.pk
            obj.refresh_from_db()
            return
        super().save_model(request, obj, form, change)

    @admin.action(description=_("Open registration"))
    def open_registration(
        self, request: AuthenticatedHttpRequest, queryset: QuerySet[Tournament]
    ) -> None:
        _each(
            self,
            request,
            queryset,
            lambda t: tournaments.do_open_registration(t, request.user),
            _("Registration opened"),
        )

    @admin.action(description=_("Start"))
    def start(self, request: AuthenticatedHttpRequest, queryset: QuerySet[Tournament]) -> None:
        _each(
            self, request, queryset, lambda t: tournaments.do_start(t, request.user), _("Started")
        )

    @admin.action(description=_("Generate the next round (pair, open tables, notify)"))
    def generate_round(
        self, request: AuthenticatedHttpRequest, queryset: QuerySet[Tournament]
    ) -> None:
        start = bool(request.POST.get("start_matches"))
        stand_in = request.POST.get("stand_in", "")
        _each(
            self,
            request,
            queryset,
            lambda t: tournaments.do_generate_round(
                t, request.user, start=start, stand_in=stand_in
            ),
            _("Round generated"),
        )

    @admin.action(description=_("Pause"))
    def pause(self, request: AuthenticatedHttpRequest, queryset: QuerySet[Tournament]) -> None:
        _each(self, request, queryset, lambda t: tournaments.do_pause(t, request.user), _("Paused"))

    @admin.action(description=_("Resume"))
    def resume(self, request: AuthenticatedHttpRequest, queryset: QuerySet[Tournament]) -> None:
        _each(
            self, request, queryset, lambda t: tournaments.do_resume(t, request.user), _("Resumed")
        )

    @admin.action(description=_("Close"))
    def close(self, request: AuthenticatedHttpRequest, queryset: QuerySet[Tournament]) -> None:
        _each(self, request, queryset, lambda t: tournaments.do_close(t, request.user), _("Closed"))


class TeamActionForm(ActionForm):
    old_username = forms.CharField(label=_("player"), required=False, max_length=150)
    new_username = forms.CharField(label=_("replaced by"), required=False, max_length=150)
    stand_in = forms.ChoiceField(
        label=_("seat played by"),
        required=False,
        choices=[("", _("the player"))] + list(Seat.Policy.choices),
        initial=STAND_IN,
    )


class TeamMemberInline(admin.TabularInline):  # type: ignore[type-arg]
    model = TeamMember
    extra = 0
    fields = ("position", "user")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


@admin.register(TournamentTeam)
class TournamentTeamAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("name", "tournament", "registered_at", "withdrawn")
    list_filter = ("tournament",)
    readonly_fields = ("tournament", "registered_at", "registered_by", "withdrawn")
    inlines = [TeamMemberInline]
    action_form = TeamActionForm
    actions = ["replace_player", "stand_in", "withdraw"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # teams register through the tournament page (entry conditions)

    def _player(self, request: HttpRequest) -> User:
        """The player the action form names (``old_username``); TournamentError if none."""
        name = request.POST.get("old_username", "").strip()
        user = get_user_model().objects.filter(username=name).first()
        if user is None:
            raise TournamentError(_("No player is called “%(name)s”.") % {"name": name})
        return user

    @admin.action(description=_("Replace the player (fields above)"))
    def replace_player(
        self, request: AuthenticatedHttpRequest, queryset: QuerySet[TournamentTeam]
    ) -> None:
        new = request.POST.get("new_username", "")
        _each(
            self,
            request,
            queryset,
            lambda t: tournaments.do_replace_player(t, request.user, self._player(request), new),
            _("Player replaced"),
        )

    @admin.action(description=_("Hand the player's seat to an AI stand-in (fields above)"))
    def stand_in(
        self, request: AuthenticatedHttpRequest, queryset: QuerySet[TournamentTeam]
    ) -> None:
        policy = request.POST.get("stand_in", "")
        _each(
            self,
            request,
            queryset,
            lambda t: tournaments.do_stand_in(t, request.user, self._player(request), policy),
            _("Seat handed over"),
        )

    @admin.action(description=_("Withdraw"))
    def withdraw(
        self, request: AuthenticatedHttpRequest, queryset: QuerySet[TournamentTeam]
    ) -> None:
        _each(
            self,
            request,
            queryset,
            lambda t: tournaments.do_withdraw_team(t, request.user),
            _("Withdrawn"),
        )


class PairingInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Pairing
    extra = 0
    # "winner_column" is the method below (a name: `fields` lists names, not functions)
    fields = ("board", "team_a", "team_b", "table", "winner_column", "forfeit", "processed_at")
    readonly_fields = fields
    can_delete = False

    @admin.display(description=_("winner"))
    def winner_column(self, pairing: Pairing) -> str:
        return _winner_column(pairing)

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


@admin.register(TournamentRound)
class TournamentRoundAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("__str__", "tournament", "number", "status")
    list_filter = ("tournament", "status")
    readonly_fields = ("tournament", "number", "status")
    inlines = [PairingInline]
    actions = ["start_round", "repair_round"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.action(description=_("Start the matches"))
    def start_round(
        self, request: AuthenticatedHttpRequest, queryset: QuerySet[TournamentRound]
    ) -> None:
        _each(
            self,
            request,
            queryset,
            lambda r: tournaments.do_start_round(r, request.user),
            _("Round started"),
        )

    @admin.action(description=_("Re-pair (only before its matches started)"))
    def repair_round(
        self, request: AuthenticatedHttpRequest, queryset: QuerySet[TournamentRound]
    ) -> None:
        _each(
            self,
            request,
            queryset,
            lambda r: tournaments.do_repair_round(r, request.user),
            _("Round re-paired"),
        )


@admin.register(Pairing)
class PairingAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("__str__", "table", _winner_column, "forfeit", "processed_at")
    list_filter = ("round__tournament",)
    readonly_fields = (
        "round",
        "board",
        "team_a",
        "team_b",
        "table",
        "match",
        "winner_team",
        "levels_a",
        "levels_b",
        "caught_a",
        "caught_b",
        "forfeit",
        "processed_at",
    )
    actions = ["forfeit_a", "forfeit_b"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.action(
        description=team_text_lazy(
            gettext_noop("%(loser)s forfeits (%(winner)s wins)"), loser=0, winner=1
        )
    )
    def forfeit_a(self, request: AuthenticatedHttpRequest, queryset: QuerySet[Pairing]) -> None:
        _each(
            self,
            request,
            queryset,
            lambda p: tournaments.do_forfeit(p, request.user, 0),
            _("Forfeit recorded"),
        )

    @admin.action(
        description=team_text_lazy(
            gettext_noop("%(loser)s forfeits (%(winner)s wins)"), loser=1, winner=0
        )
    )
    def forfeit_b(self, request: AuthenticatedHttpRequest, queryset: QuerySet[Pairing]) -> None:
        _each(
            self,
            request,
            queryset,
            lambda p: tournaments.do_forfeit(p, request.user, 1),
            _("Forfeit recorded"),
        )


@admin.register(TournamentLog)
class TournamentLogAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("created_at", "tournament", "actor", "action", "detail")
    list_filter = ("tournament", "action")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False
