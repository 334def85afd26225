"""League pages that schedule and organise: a fixture scheduled by a member (in an open season)
or an organiser, and the organiser tools (members, seasons, results, table options, bots). The
services decide who may do what; these pages ask them and report the outcome."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.forms import TableOptionsForm
from leagues import services
from leagues.forms import FixtureForm, ResultForm, SeasonForm, SeasonOptionsForm, UsernameForm
from leagues.models import Fixture, League, Membership, Season
from leagues.view_helpers import fixture_rows, option_items, run_service, visible_league


def _back(request: HttpRequest, default: str) -> str:
    """Where a form sends the person back: its ``next`` field if that is a page of this site
    (same host, and https when the request is), else ``default``. Never another site."""
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return default


@login_required
@require_POST
def fixture_create(request: HttpRequest, slug: str) -> HttpResponse:
    """Members schedule fixtures in open seasons; organisers in any season (service checks)."""
    league = visible_league(request, slug)
    form = FixtureForm(request.POST, league=league)
    if not form.is_valid():
        for errors in form.errors.values():
            messages.error(request, " ".join(str(error) for error in errors))
        return redirect(_back(request, league.get_absolute_url()))
    data = form.cleaned_data
    run_service(
        request,
        lambda: services.do_create_fixture(
            data["season"], request.user, [data["team0"], data["team1"]], data["scheduled_at"]
        ),
        _("The fixture is scheduled and its table is open."),
    )
    return redirect(_back(request, league.get_absolute_url()))


@login_required
@require_POST
def fixture_start(request: HttpRequest, slug: str, fixture_id: int) -> HttpResponse:
    league = visible_league(request, slug)
    fixture = get_object_or_404(Fixture, pk=fixture_id, season__league=league)
    run_service(
        request,
        lambda: services.do_start_fixture(fixture, request.user),
        _("The match has started."),
    )
    return redirect(league)


def _organiser_league(request: HttpRequest, slug: str) -> League:
    league = visible_league(request, slug)
    if not league.is_organiser(request.user):
        raise PermissionDenied
    return league


@login_required
def manage(request: HttpRequest, slug: str) -> HttpResponse:
    league = _organiser_league(request, slug)
    return render(
        request,
        "leagues/manage.html",
        {
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
            "open_fixtures": fixture_rows(
                Fixture.objects.filter(season__league=league, processed_at__isnull=True)
            ),
            "result_form": ResultForm(),
            "seasons": league.seasons.all(),
            "league_options": option_items(league.table_options),
        },
    )


def _options_page(
    request: HttpRequest, context: dict[str, object], stored: dict, players: int
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
def league_options(request: HttpRequest, slug: str) -> HttpResponse:
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
def league_bots(request: HttpRequest, slug: str) -> HttpResponse:
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
def season_options(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
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


@login_required
@require_POST
def manage_members(request: HttpRequest, slug: str) -> HttpResponse:
    league = _organiser_league(request, slug)
    form = UsernameForm(request.POST)
    user = None
    if form.is_valid():
        user = get_user_model().objects.filter(username=form.cleaned_data["username"]).first()
    if user is None:
        messages.error(request, _("No such player."))
        return redirect("leagues:manage", slug)
    action = request.POST.get("action")
    actions = {
        "approve": (services.do_approve, _("%(name)s is now a member.")),
        "decline": (services.do_decline, _("%(name)s's request is declined.")),
        "add": (services.do_add_member, _("%(name)s is now a member.")),
        "organiser": (services.do_set_organiser, _("%(name)s is now an organiser.")),
    }
    if action not in actions:
        raise Http404
    service, success = actions[action]
    run_service(
        request, lambda: service(league, request.user, user), success % {"name": user.username}
    )
    return redirect("leagues:manage", slug)


@login_required
@require_POST
def manage_season(request: HttpRequest, slug: str) -> HttpResponse:
    league = _organiser_league(request, slug)
    form = SeasonForm(request.POST)
    if form.is_valid():
        run_service(
            request,
            lambda: services.do_create_season(league, request.user, **form.cleaned_data),
            _("The season is created."),
        )
    else:
        for field, errors in form.errors.items():
            messages.error(request, f"{field}: {' '.join(str(error) for error in errors)}")
    return redirect("leagues:manage", slug)


@login_required
@require_POST
def manage_result(request: HttpRequest, slug: str) -> HttpResponse:
    league = _organiser_league(request, slug)
    form = ResultForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Check the result: every number is 0 or more."))
        return redirect("leagues:manage", slug)
    data = form.cleaned_data
    fixture = get_object_or_404(Fixture, pk=data["fixture"], season__league=league)
    run_service(
        request,
        lambda: services.do_record_result(
            fixture,
            request.user,
            winner_team=data["winner_team"],
            levels=(data["levels_team0"], data["levels_team1"]),
            caught=(data["caught_team0"], data["caught_team1"]),
        ),
        _("The result is recorded."),
    )
    return redirect("leagues:manage", slug)
