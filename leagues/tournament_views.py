"""Public tournament pages: the list, a tournament (rounds, pairings, live matches, standings)
and team registration."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config.redirects import safe_next
from games.models import Seat, Table
from leagues import results, tournaments
from leagues.models import Pairing, TeamMember, Tournament, TournamentRound, TournamentTeam
from leagues.tournament_forms import RegisterTeamForm
from leagues.tournaments import TournamentError
from leagues.view_helpers import AuthenticatedHttpRequest, option_items

PUBLIC = [
    Tournament.Status.REGISTRATION,
    Tournament.Status.RUNNING,
    Tournament.Status.PAUSED,
    Tournament.Status.CLOSED,
]


def tournament_list(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "leagues/tournament_list.html",
        {
            "tournaments": Tournament.objects.visible_to(request.user)
            .filter(status__in=PUBLIC)
            .select_related("league", "winner"),
        },
    )


def rounds_with_pairings(tournament: Tournament) -> list[TournamentRound]:
    pairings = Pairing.objects.select_related("team_a", "team_b", "table")
    return list(
        tournament.rounds.order_by("-number").prefetch_related(
            Prefetch("pairings", queryset=pairings)
        )
    )


def tournament_detail(request: HttpRequest, pk: int) -> HttpResponse:
    # Hidden (a draft, or the tournament of a league this viewer may not see): 404, as if it
    # did not exist (``leagues.access``).
    tournament = get_object_or_404(Tournament.objects.visible_to(request.user), pk=pk)
    rounds = rounds_with_pairings(tournament)
    # Live as everyone may know it: a match over but not recorded (a delayed table's
    # spectators have not seen its end yet) is still live (``Pairing.is_live``).
    live = [p for r in rounds for p in r.pairings.all() if p.is_live]
    my_team = my_tables = entry = None
    if request.user.is_authenticated:
        entry = (
            TeamMember.objects.filter(tournament=tournament, user=request.user)
            .select_related("team")
            .first()
        )
        my_team = entry.team if entry else None
        my_tables = [
            p.table
            for r in rounds
            for p in r.pairings.all()
            if p.table
            and not p.is_done
            and p.table.status in (Table.Status.OPEN, Table.Status.PLAYING)
            and Seat.objects.filter(table=p.table, user=request.user).exists()
        ]
    teams = tournament.teams.prefetch_related("members__user")
    return render(
        request,
        "leagues/tournament_detail.html",
        {
            "tournament": tournament,
            "rounds": rounds,
            "live": live,
            "teams": teams,
            "standings": results.tournament_standings(tournament),
            "my_team": my_team,
            "my_entry": entry,
            "my_tables": my_tables,
            "registration_open": tournament.status == Tournament.Status.REGISTRATION,
            "tournament_options": option_items(tournament.table_options),
        },
    )


@login_required
def register(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    tournament = get_object_or_404(
        Tournament.objects.visible_to(request.user), pk=pk, status__in=PUBLIC
    )
    form = RegisterTeamForm(request.POST or None, tournament=tournament)
    if request.method == "POST" and form.is_valid():
        try:
            team = tournaments.do_register_team(
                tournament, request.user, form.partners(), form.cleaned_data["name"]
            )
        except TournamentError as e:
            form.add_error(None, str(e))
        else:
            messages.success(
                request,
                _("Team “%(team)s” is registered; it plays once your partners accept.")
                % {"team": team.name},
            )
            return redirect(tournament)
    return render(
        request, "leagues/tournament_register.html", {"tournament": tournament, "form": form}
    )


@login_required
@require_POST
def answer_partner(request: AuthenticatedHttpRequest, pk: int, team_id: int) -> HttpResponse:
    """A player named as a partner accepts (``answer=accept``) or declines the team."""
    tournament = get_object_or_404(Tournament.objects.visible_to(request.user), pk=pk)
    team = TournamentTeam.objects.filter(pk=team_id, tournament=tournament).first()
    answer = request.POST.get("answer")
    back = safe_next(request, tournament.get_absolute_url())
    if team is None or answer not in ("accept", "decline"):
        messages.error(request, _("There is no request from this team for you to answer."))
        return redirect(back)
    try:
        kept = tournaments.do_answer_partner(team, request.user, accept=answer == "accept")
    except TournamentError as e:
        messages.error(request, str(e))
    else:
        if kept is None:
            messages.success(request, _("You declined; the registration is withdrawn."))
        else:
            messages.success(request, _("You are in team “%(team)s”.") % {"team": kept.name})
    return redirect(back)
