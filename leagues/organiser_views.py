"""League pages that schedule and organise: a fixture scheduled by a member (in an open season)
or an organiser, and the organiser tools (members, seasons, results, table options, bots). The
services decide who may do what; these pages ask them and report the outcome."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST

from config.redirects import safe_next
from games.forms import TableOptionsForm
from leagues import services
from leagues.forms import (
    FixtureForm,
    ResultForm,
    RoundRobinForm,
    SeasonForm,
    SeasonOptionsForm,
    UsernameForm,
)
from leagues.models import Fixture, League, Membership, Season
from leagues.round_robin import do_create_round_robin
from leagues.services import LeagueError
from leagues.view_helpers import (
    AuthenticatedHttpRequest,
    fixture_rows,
    option_items,
    run_service,
    visible_league,
)
from leagues.views import detail_page


@login_required
@require_POST
def fixture_create(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """Members schedule fixtures in open seasons; organisers in any season (service checks).
    A refused fixture comes back on the page it was sent from (the organise page or the
    league's), the errors beside the fields and what was typed kept."""
    league = visible_league(request, slug)
    form = FixtureForm(request.POST, league=league)
    if form.is_valid():
        data = form.cleaned_data
        try:
            services.do_create_fixture(
                data["season"], request.user, [data["team0"], data["team1"]], data["scheduled_at"]
            )
        except LeagueError as e:
            form.add_error(None, str(e))
        else:
            messages.success(request, _("The fixture is scheduled and its table is open."))
            return redirect(safe_next(request, league.get_absolute_url()))
    if league.is_organiser(request.user) and safe_next(request, "") == reverse_manage(league):
        return _manage_page(request, league, fixture_form=form)
    return detail_page(request, league, fixture_form=form)


@login_required
@require_POST
def fixture_start(request: AuthenticatedHttpRequest, slug: str, fixture_id: int) -> HttpResponse:
    league = visible_league(request, slug)
    fixture = get_object_or_404(Fixture, pk=fixture_id, season__league=league)
    run_service(
        request,
        lambda: services.do_start_fixture(fixture, request.user),
        _("The match has started."),
    )
    return redirect(league)


def _organiser_league(request: AuthenticatedHttpRequest, slug: str) -> League:
    league = visible_league(request, slug)
    if not league.is_organiser(request.user):
        raise PermissionDenied
    return league


@login_required
def manage(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    return _manage_page(request, _organiser_league(request, slug))


def _manage_page(
    request: AuthenticatedHttpRequest, league: League, **forms: forms.BaseForm
) -> HttpResponse:
    """The organise page. ``forms`` are the bound forms that came back with errors (by their
    context names: ``member_form``, ``season_form``, ``fixture_form``, ``round_robin_form``,
    ``result_form``): shown with their errors and what was typed, the others empty."""
    result_form = forms.pop("result_form", None)
    open_fixtures = fixture_rows(
        Fixture.objects.filter(season__league=league, processed_at__isnull=True)
    )
    failed = result_form.data.get("fixture") if result_form is not None else None
    context = {
        "league": league,
        "pending": league.memberships.filter(status=Membership.Status.PENDING).select_related(
            "user"
        ),
        "members": league.memberships.filter(status=Membership.Status.ACTIVE).select_related(
            "user"
        ),
        "member_form": UsernameForm(),
        "season_form": SeasonForm(),
        "fixture_form": FixtureForm(league=league),
        "round_robin_form": RoundRobinForm(league=league),
        # Each row its own result form; the one sent back keeps its numbers and errors.
        "open_fixtures": [
            (
                f,
                result_form
                if result_form is not None and failed == str(f.pk)
                else ResultForm(initial={"fixture": f.pk}, auto_id=False),
            )
            for f in open_fixtures
        ],
        "seasons": league.seasons.all(),
        "league_options": option_items(league.table_options),
        **forms,
    }
    return render(request, "leagues/manage.html", context)


def _options_page(
    request: HttpRequest, context: dict[str, object], stored: dict[str, Any] | None, players: int
) -> TableOptionsForm:
    """The options form for ``stored`` options (GET) or the posted one, also put in
    ``context["options_form"]``; and a warning naming stored options no field can show (saved
    before they were checked)."""
    initial, dropped = TableOptionsForm.initial_for(stored)
    form = TableOptionsForm(
        request.POST if request.method == "POST" else None,
        prefix="options",
        initial=initial,
        players=players,
    )
    if dropped and request.method != "POST":
        messages.warning(
            request,
            _("These saved options are not valid and will be replaced when you save: %(names)s.")
            % {"names": ", ".join(dropped)},
        )
    context["options_form"] = form
    return form


@login_required
def league_options(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """Organisers (and staff) edit the league's table options: the create-table fields."""
    league = _organiser_league(request, slug)
    context = {"league": league, "title": _("Table options"), "back": reverse_manage(league)}
    form = _options_page(request, context, league.table_options, league.players)
    if request.method == "POST" and form.is_valid():
        if run_service(
            request,
            lambda: services.do_set_league_options(league, request.user, form.options()),
            _("The table options are saved: fixtures scheduled from now on use them."),
        ):
            return redirect("leagues:manage", slug)
    return render(request, "leagues/options_form.html", context)


@login_required
@require_POST
def league_bots(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """Organisers let bot accounts play the league's fixtures (``allow_bots`` = "1"), or not."""
    league = _organiser_league(request, slug)
    allow = request.POST.get("allow_bots") == "1"
    run_service(
        request,
        lambda: services.do_set_allow_bots(league, request.user, allow),
        _("Bot accounts may play this league's fixtures.")
        if allow
        else _("Bot accounts may no longer play this league's fixtures."),
    )
    return redirect("leagues:manage", slug)


@login_required
def season_options(request: AuthenticatedHttpRequest, slug: str, season_id: int) -> HttpResponse:
    """Organisers give a season its own table options, or let it use the league's."""
    league = _organiser_league(request, slug)
    season = get_object_or_404(Season, pk=season_id, league=league)
    context = {
        "league": league,
        "season": season,
        "title": _("Table options of %(season)s") % {"season": season.name},
        "back": season.get_absolute_url(),
    }
    own_form = SeasonOptionsForm(
        request.POST if request.method == "POST" else None,
        initial={"own": bool(season.table_options)},
    )
    context["own_form"] = own_form
    form = _options_page(request, context, season.effective_options(), league.players)
    if request.method == "POST" and own_form.is_valid():
        own = own_form.cleaned_data["own"]
        if not own or form.is_valid():
            options = form.options() if own else None
            if run_service(
                request,
                lambda: services.do_set_season_options(season, request.user, options),
                _("The season's table options are saved."),
            ):
                return redirect(season)
    return render(request, "leagues/options_form.html", context)


def reverse_manage(league: League) -> str:
    return reverse("leagues:manage", args=[league.slug])


MEMBER_ACTIONS = {
    "approve": (services.do_approve, gettext_lazy("%(name)s is now a member.")),
    "decline": (services.do_decline, gettext_lazy("%(name)s's request is declined.")),
    "add": (services.do_add_member, gettext_lazy("%(name)s is now a member.")),
    "organiser": (services.do_set_organiser, gettext_lazy("%(name)s is now an organiser.")),
}


@login_required
@require_POST
def manage_members(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """Approve, decline, add a member or make an organiser (``action``), by username."""
    league = _organiser_league(request, slug)
    action = request.POST.get("action")
    if action not in MEMBER_ACTIONS:
        raise Http404
    form = UsernameForm(request.POST)
    if form.is_valid():
        user = form.cleaned_data["username"]
        service, success = MEMBER_ACTIONS[action]
        try:
            service(league, request.user, user)
        except LeagueError as e:
            form.add_error("username", str(e))
        else:
            messages.success(request, success % {"name": user.username})
            return redirect("leagues:manage", slug)
    return _manage_page(request, league, member_form=form)


@login_required
@require_POST
def manage_season(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    league = _organiser_league(request, slug)
    form = SeasonForm(request.POST)
    if form.is_valid():
        try:
            services.do_create_season(league, request.user, **form.cleaned_data)
        except LeagueError as e:
            form.add_error(None, str(e))
        else:
            messages.success(request, _("The season is created."))
            return redirect("leagues:manage", slug)
    return _manage_page(request, league, season_form=form)


@login_required
@require_POST
def manage_round_robin(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    """Every fixture of a round-robin season at once (``leagues.round_robin``)."""
    league = _organiser_league(request, slug)
    form = RoundRobinForm(request.POST, league=league)
    if form.is_valid():
        try:
            fixtures = do_create_round_robin(
                form.cleaned_data["season"], request.user, form.cleaned_data["teams"]
            )
        except LeagueError as e:
            form.add_error(None, str(e))
        else:
            messages.success(
                request,
                ngettext(
                    "%(n)d fixture is scheduled and its table is open.",
                    "%(n)d fixtures are scheduled and their tables are open.",
                    len(fixtures),
                )
                % {"n": len(fixtures)},
            )
            return redirect("leagues:manage", slug)
    return _manage_page(request, league, round_robin_form=form)


@login_required
@require_POST
def manage_result(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    league = _organiser_league(request, slug)
    form = ResultForm(request.POST, auto_id=False)
    if form.is_valid():
        data = form.cleaned_data
        fixture = get_object_or_404(Fixture, pk=data["fixture"], season__league=league)
        try:
            services.do_record_result(
                fixture,
                request.user,
                winner_team=data["winner_team"],
                levels=(data["levels_team0"], data["levels_team1"]),
                caught=(data["caught_team0"], data["caught_team1"]),
            )
        except LeagueError as e:
            form.add_error(None, str(e))
        else:
            messages.success(request, _("The result is recorded."))
            return redirect("leagues:manage", slug)
    return _manage_page(request, league, result_form=form)
