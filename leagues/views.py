"""League pages: list, league, season standings, player rating, notices, organiser tools."""

from __future__ import annotations

from collections.abc import Callable

from django.contrib import messages
from django.contrib.admin.views.decorators import staff_member_required
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.models import Table
from leagues import results, services
from leagues.forms import FixtureForm, LeagueForm, ResultForm, SeasonForm, UsernameForm
from leagues.models import Fixture, League, Membership, Notice, Rating, RatingHistory, Season
from leagues.services import LeagueError


def _league(request: HttpRequest, slug: str) -> League:
    league = get_object_or_404(League, slug=slug)
    if not services.can_see(league, request.user):
        raise Http404
    return league


def _back(request: HttpRequest, default: str) -> str:
    """Where a form sends the person back: its ``next`` field if that is a page of this site
    (same host, and https when the request is), else ``default``. Never another site."""
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return default


def _run(request: HttpRequest, action: Callable, success: str) -> bool:
    """Call a service; report its outcome as a message."""
    try:
        action()
    except LeagueError as e:
        messages.error(request, str(e))
        return False
    messages.success(request, success)
    return True


def league_list(request: HttpRequest) -> HttpResponse:
    leagues = League.objects.filter(visibility=League.Visibility.PUBLIC)
    mine = League.objects.none()
    if request.user.is_authenticated:
        mine = League.objects.filter(
            memberships__user=request.user, memberships__status=Membership.Status.ACTIVE
        )
    return render(request, "leagues/list.html", {"leagues": leagues, "mine": mine})


@staff_member_required
def league_create(request: HttpRequest) -> HttpResponse:
    form = LeagueForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            league = services.do_create_league(request.user, **form.cleaned_data)
        except LeagueError as e:
            form.add_error(None, str(e))
        else:
            return redirect(league)
    return render(request, "leagues/league_form.html", {"form": form})


def _fixture_rows(fixtures) -> list:
    return list(fixtures.select_related("table", "season").prefetch_related("players__user"))


def league_detail(request: HttpRequest, slug: str) -> HttpResponse:
    league = _league(request, slug)
    season = league.current_season()
    members = league.memberships.filter(status=Membership.Status.ACTIVE).select_related("user")
    fixtures = Fixture.objects.filter(season__league=league)
    live = fixtures.filter(table__status=Table.Status.PLAYING)
    membership = None
    if request.user.is_authenticated:
        membership = league.memberships.filter(user=request.user).first()
    fixture_form = None
    if (
        season
        and season.format == Season.Format.OPEN
        and membership
        and (membership.status == Membership.Status.ACTIVE)
    ):
        fixture_form = FixtureForm(league=league)
    return render(
        request,
        "leagues/detail.html",
        {
            "league": league,
            "season": season,
            "members": members,
            "standings": results.season_standings(season) if season else [],
            "fixtures": _fixture_rows(fixtures.order_by("-created_at")[:30]),
            "live": _fixture_rows(live),
            "membership": membership,
            "is_organiser": league.is_organiser(request.user),
            "fixture_form": fixture_form,
            "tournaments": league.tournaments.exclude(status="draft")[:10],
        },
    )


@login_required
@require_POST
def join(request: HttpRequest, slug: str) -> HttpResponse:
    league = _league(request, slug)
    pending = league.join_policy == League.JoinPolicy.APPROVAL
    _run(
        request,
        lambda: services.do_join(league, request.user),
        _("Your request is sent to the organisers.")
        if pending
        else _("Welcome to %(league)s!") % {"league": league.name},
    )
    return redirect(league)


@login_required
@require_POST
def leave(request: HttpRequest, slug: str) -> HttpResponse:
    league = _league(request, slug)
    _run(request, lambda: services.do_leave(league, request.user), _("You left the league."))
    return redirect(league)


def season_detail(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    league = _league(request, slug)
    season = get_object_or_404(Season, pk=season_id, league=league)
    return render(
        request,
        "leagues/season.html",
        {
            "league": league,
            "season": season,
            "standings": results.season_standings(season),
            "fixtures": _fixture_rows(season.fixtures.all()),
        },
    )


def player(request: HttpRequest, slug: str, username: str) -> HttpResponse:
    league = _league(request, slug)
    person = get_object_or_404(get_user_model(), username=username)
    rating = Rating.objects.filter(league=league, user=person).first()
    history = RatingHistory.objects.filter(league=league, user=person).select_related(
        "match__table"
    )[:50]
    partners = results.league_partner_stats(league, person)
    names = dict(
        get_user_model()
        .objects.filter(pk__in=[p.partner for p in partners])
        .values_list("pk", "username")
    )
    return render(
        request,
        "leagues/player.html",
        {
            "league": league,
            "person": person,
            "rating": rating or Rating(league=league, user=person),
            "history": history,
            "partners": [(names.get(p.partner, "?"), p) for p in partners],
            "chart": _chart_points([h.after for h in reversed(history)]),
        },
    )


def _chart_points(values: list[float], width: int = 300, height: int = 80) -> str:
    """SVG polyline points for a small rating chart (oldest left)."""
    if len(values) < 2:
        return ""
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    step = width / (len(values) - 1)
    return " ".join(
        f"{i * step:.1f},{height - (v - low) / span * height:.1f}" for i, v in enumerate(values)
    )


@login_required
def notices(request: HttpRequest) -> HttpResponse:
    items = list(
        Notice.objects.filter(user=request.user).select_related("tournament", "league", "table")[
            :50
        ]
    )
    Notice.objects.filter(user=request.user, seen_at__isnull=True).update(seen_at=timezone.now())
    return render(request, "leagues/notices.html", {"notices": items})


# --- schedule and organise ----------------------------------------------------------------------


@login_required
@require_POST
def fixture_create(request: HttpRequest, slug: str) -> HttpResponse:
    """Members schedule fixtures in open seasons; organisers in any season (service checks)."""
    league = _league(request, slug)
    form = FixtureForm(request.POST, league=league)
    if not form.is_valid():
        for errors in form.errors.values():
            messages.error(request, " ".join(errors))
        return redirect(_back(request, league.get_absolute_url()))
    data = form.cleaned_data
    _run(
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
    league = _league(request, slug)
    fixture = get_object_or_404(Fixture, pk=fixture_id, season__league=league)
    _run(
        request,
        lambda: services.do_start_fixture(fixture, request.user),
        _("The match has started."),
    )
    return redirect(league)


def _organiser_league(request: HttpRequest, slug: str) -> League:
    league = _league(request, slug)
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
            "open_fixtures": _fixture_rows(
                Fixture.objects.filter(season__league=league, processed_at__isnull=True)
            ),
            "result_form": ResultForm(),
            "seasons": league.seasons.all(),
        },
    )


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
    _run(request, lambda: service(league, request.user, user), success % {"name": user.username})
    return redirect("leagues:manage", slug)


@login_required
@require_POST
def manage_season(request: HttpRequest, slug: str) -> HttpResponse:
    league = _organiser_league(request, slug)
    form = SeasonForm(request.POST)
    if form.is_valid():
        _run(
            request,
            lambda: services.do_create_season(league, request.user, **form.cleaned_data),
            _("The season is created."),
        )
    else:
        for field, errors in form.errors.items():
            messages.error(request, f"{field}: {' '.join(errors)}")
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
    _run(
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
