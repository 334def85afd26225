"""League pages: list, league, season standings, player rating, notices, organiser tools."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.forms import TableOptionsForm
from games.models import Table
from leagues import results, services
from leagues.forms import (
    FixtureForm,
    LeagueForm,
    ResultForm,
    SeasonForm,
    SeasonOptionsForm,
    UsernameForm,
)
from leagues.models import (
    Fixture,
    League,
    Membership,
    Notice,
    Rating,
    RatingHistory,
    Season,
    TeamMember,
    Tournament,
)
from leagues.services import LeagueError


def option_items(options) -> list[tuple]:
    """Stored table options as sorted (name, value) pairs for ``_options_summary.html``
    (nothing for a value that is not a set of options)."""
    return sorted(options.items()) if isinstance(options, dict) else []


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


#: How many staff members the "who can create a league" page names.
STAFF_NAMED = 5


@login_required
def league_create(request: HttpRequest) -> HttpResponse:
    """Staff create leagues, with the create-table form's rules fields. Anyone else gets a
    page saying who can create one and how to ask (403), not the admin's log-in."""
    if not request.user.is_staff:
        staff = (
            get_user_model()
            .objects.filter(is_staff=True, is_active=True)
            .order_by("username")[:STAFF_NAMED]
        )
        return render(
            request,
            "leagues/league_create_refused.html",
            {"staff": staff, "contact_email": settings.CLUB_CONTACT_EMAIL},
            status=403,
        )
    form = LeagueForm(request.POST or None)
    options_form = TableOptionsForm(request.POST or None, prefix="options")
    if request.method == "POST" and form.is_valid() and options_form.is_valid():
        try:
            league = services.do_create_league(
                request.user, **form.cleaned_data, table_options=options_form.options()
            )
        except LeagueError as e:
            form.add_error(None, str(e))
        else:
            return redirect(league)
    return render(request, "leagues/league_form.html", {"form": form, "options_form": options_form})


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
            "league_options": option_items(
                season.effective_options() if season else league.table_options
            ),
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
            "season_options": option_items(season.effective_options()),
            "is_organiser": league.is_organiser(request.user),
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
        Notice.objects.filter(user=request.user).select_related(
            "tournament", "league", "table", "team", "about"
        )[:50]
    )
    # Partner requests still waiting for this player's answer get Accept / Decline buttons.
    waiting = set(
        TeamMember.objects.filter(
            user=request.user,
            pending=True,
            tournament__status=Tournament.Status.REGISTRATION,
        ).values_list("team_id", flat=True)
    )
    open_requests = {
        n.pk for n in items if n.kind == Notice.Kind.PARTNER_REQUEST and n.team_id in waiting
    }
    Notice.objects.filter(user=request.user, seen_at__isnull=True).exclude(
        pk__in=open_requests
    ).update(seen_at=timezone.now())
    return render(
        request, "leagues/notices.html", {"notices": items, "open_requests": open_requests}
    )


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
            "league_options": option_items(league.table_options),
        },
    )


def _options_page(request: HttpRequest, context: dict, stored: dict, players: int) -> tuple:
    """The options form for ``stored`` options (GET) or the posted one; and a warning naming
    stored options no field can show (saved before they were checked)."""
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
        if _run(
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
    _run(
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
            if _run(
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
