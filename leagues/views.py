"""League pages anyone may open: the list, a league, a season's standings, a player's rating;
creating a league (staff); joining and leaving; a player's notices. Scheduling and the organiser
tools are ``leagues.organiser_views``."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.forms import TableOptionsForm
from games.models import Table
from leagues import results, services
from leagues.forms import FixtureForm, LeagueForm
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
from leagues.view_helpers import (
    AuthenticatedHttpRequest,
    fixture_rows,
    option_items,
    run_service,
    visible_league,
)


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
def league_create(request: AuthenticatedHttpRequest) -> HttpResponse:
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


def league_detail(request: HttpRequest, slug: str) -> HttpResponse:
    return detail_page(request, visible_league(request, slug))


def detail_page(
    request: HttpRequest, league: League, fixture_form: FixtureForm | None = None
) -> HttpResponse:
    """The league's page; ``fixture_form`` is a member's fixture form that came back with
    errors, shown with what they typed (``leagues.organiser_views.fixture_create``)."""
    season = league.current_season()
    members = league.memberships.filter(status=Membership.Status.ACTIVE).select_related("user")
    fixtures = Fixture.objects.filter(season__league=league)
    live = fixtures.filter(table__status=Table.Status.PLAYING)
    membership = None
    if request.user.is_authenticated:
        membership = league.memberships.filter(user=request.user).first()
    if (
        fixture_form is None
        and season
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
            "fixtures": fixture_rows(fixtures.order_by("-created_at")[:30]),
            "live": fixture_rows(live),
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
def join(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    league = visible_league(request, slug)
    pending = league.join_policy == League.JoinPolicy.APPROVAL
    run_service(
        request,
        lambda: services.do_join(league, request.user),
        _("Your request is sent to the organisers.")
        if pending
        else _("Welcome to %(league)s!") % {"league": league.name},
    )
    return redirect(league)


@login_required
@require_POST
def leave(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    league = visible_league(request, slug)
    run_service(request, lambda: services.do_leave(league, request.user), _("You left the league."))
    return redirect(league)


def season_detail(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    league = visible_league(request, slug)
    season = get_object_or_404(Season, pk=season_id, league=league)
    return render(
        request,
        "leagues/season.html",
        {
            "league": league,
            "season": season,
            "standings": results.season_standings(season),
            "fixtures": fixture_rows(season.fixtures.all()),
            "season_options": option_items(season.effective_options()),
            "is_organiser": league.is_organiser(request.user),
        },
    )


def player(request: HttpRequest, slug: str, username: str) -> HttpResponse:
    league = visible_league(request, slug)
    person = get_object_or_404(get_user_model(), username=username)
    rating = Rating.objects.filter(league=league, user=person).first()
    history = RatingHistory.objects.filter(league=league, user=person).select_related(
        "match__table__host"
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
def notices(request: AuthenticatedHttpRequest) -> HttpResponse:
    items = list(
        Notice.objects.filter(user=request.user).select_related(
            "tournament", "league", "table__host", "team", "about"
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
