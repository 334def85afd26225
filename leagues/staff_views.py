"""Staff pages that run tournaments: every button calls a ``leagues.tournaments`` service
(the same ones the Django admin actions call), and each action is logged there."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from leagues.view_helpers import AuthenticatedHttpRequest

if TYPE_CHECKING:
    from django.contrib.auth.models import _User as User  # (the leagues import no accounts)

from django import forms
from django.contrib import messages
from django.contrib.admin.views.decorators import staff_member_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.engine.ai import STAND_IN
from games.forms import TableOptionsForm
from leagues import players, tournament_log, tournaments
from leagues.models import Pairing, Tournament, TournamentRound, TournamentTeam
from leagues.tournament_forms import (
    STAND_IN_CHOICES,
    ForfeitForm,
    GenerateRoundForm,
    ReplaceForm,
    StandInForm,
    TournamentForm,
)
from leagues.tournament_views import rounds_with_pairings
from leagues.tournaments import TournamentError
from leagues.view_helpers import option_items


@staff_member_required
def staff_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    return render(
        request, "leagues/staff_tournaments.html", {"tournaments": Tournament.objects.all()}
    )


@staff_member_required
def create(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = TournamentForm(request.POST or None)
    options_form = TableOptionsForm(request.POST or None, prefix="options")
    if request.method == "POST" and form.is_valid() and options_form.is_valid():
        try:
            tournament = tournaments.do_create_tournament(
                request.user, **form.cleaned_data, table_options=options_form.options()
            )
        except TournamentError as e:
            form.add_error(None, str(e))
        else:
            messages.success(request, _("The tournament is created as a draft."))
            return redirect("tournaments:manage", tournament.pk)
    return render(
        request, "leagues/tournament_form.html", {"form": form, "options_form": options_form}
    )


@staff_member_required
def options(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Staff change a tournament's table options (the create-table fields) until it closes."""
    tournament = get_object_or_404(Tournament, pk=pk)
    initial, dropped = TableOptionsForm.initial_for(tournament.table_options)
    form = TableOptionsForm(
        request.POST if request.method == "POST" else None,
        prefix="options",
        initial=initial,
        players=tournament.seats,
    )
    if request.method == "POST" and form.is_valid():
        try:
            tournaments.do_set_table_options(tournament, request.user, form.options())
        except TournamentError as e:
            form.add_error(None, str(e))
        else:
            messages.success(
                request, _("The table options are saved: rounds paired from now on use them.")
            )
            return redirect("tournaments:manage", tournament.pk)
    elif dropped:
        messages.warning(
            request,
            _("These saved options are not valid and will be replaced when you save: %(names)s.")
            % {"names": ", ".join(dropped)},
        )
    return render(
        request,
        "leagues/tournament_options.html",
        {"tournament": tournament, "options_form": form},
    )


@staff_member_required
def manage(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    return _manage_page(request, get_object_or_404(Tournament, pk=pk))


def _manage_page(
    request: HttpRequest,
    tournament: Tournament,
    *,
    failed: forms.Form | None = None,
    action: str = "",
) -> HttpResponse:
    """The staff's page of a tournament. ``failed`` is the bound form of ``action`` that came
    back with errors: shown where it was sent from (the round form, or its team's row), with
    the errors beside the fields and what was typed."""
    failed_team = failed.data.get("team") if failed is not None else None
    return render(
        request,
        "leagues/tournament_manage.html",
        {
            "tournament": tournament,
            "rounds": rounds_with_pairings(tournament),
            "teams": tournament.teams.prefetch_related("members__user"),
            "log": tournament_log.entries(tournament.log.select_related("actor")[:100]),
            "generate_form": failed if action == "generate_round" else GenerateRoundForm(),
            "failed": failed,
            "failed_action": action,
            "failed_team": failed_team,
            "stand_in_choices": STAND_IN_CHOICES,
            "stand_in_default": STAND_IN,
            "planned_rounds": tournaments.planned_rounds(tournament),
            "tournament_options": option_items(tournament.table_options),
        },
    )


def _posted_id(request: AuthenticatedHttpRequest, name: str) -> int:
    """The id a form posts in ``name``; a forged one (not a number) is a 404, as an unknown
    one is."""
    try:
        return int(request.POST.get(name, ""))
    except ValueError:
        raise Http404 from None


def _user(username: str) -> User:
    """The player called ``username`` (surrounding spaces ignored, any case, an inactive
    account too: ``leagues.players``); TournamentError if none."""
    try:
        return players.find([username], active=False)[0]
    except players.NoSuchPlayer as e:
        raise TournamentError(e.message) from None


class FormRefused(Exception):
    """An action's form came back with errors (on the form itself)."""

    def __init__(self, form: forms.Form):
        super().__init__()
        self.form = form


def _valid(form: forms.Form) -> dict[str, Any]:
    if not form.is_valid():
        raise FormRefused(form)
    return form.cleaned_data


def _run(form: forms.Form, field: str | None, service: Callable[[], object]) -> None:
    """Run ``service()``; a TournamentError goes on ``form`` (at ``field``) and refuses it."""
    try:
        service()
    except TournamentError as e:
        form.add_error(field, str(e))
        raise FormRefused(form) from None


def _action(request: AuthenticatedHttpRequest, tournament: Tournament, action: str) -> str:
    """Run one admin action; returns the success message. Raises TournamentError (a button
    with nothing typed) or FormRefused (a form whose errors go beside its fields)."""
    by = request.user
    if action == "open_registration":
        tournaments.do_open_registration(tournament, by)
        return _("Registration is open.")
    if action == "start":
        tournaments.do_start(tournament, by)
        return _("The tournament has started.")
    if action == "pause":
        tournaments.do_pause(tournament, by)
        return _("The tournament is paused.")
    if action == "resume":
        tournaments.do_resume(tournament, by)
        return _("The tournament runs again.")
    if action == "close":
        tournaments.do_close(tournament, by)
        return _("The tournament is closed.")
    form: forms.Form
    if action == "generate_round":
        form = GenerateRoundForm(request.POST)
        data = _valid(form)
        made = []
        _run(
            form,
            None,
            lambda: made.append(
                tournaments.do_generate_round(
                    tournament, by, start=data["start"], stand_in=data["stand_in"]
                )
            ),
        )
        return _("Round %(n)d is paired; the players have their table links.") % {
            "n": made[0].number
        }
    if action in ("start_round", "repair_round"):
        rnd = get_object_or_404(
            TournamentRound, pk=_posted_id(request, "round"), tournament=tournament
        )
        if action == "start_round":
            tournaments.do_start_round(rnd, by)
            return _("Round %(n)d has started.") % {"n": rnd.number}
        tournaments.do_repair_round(rnd, by)
        return _("Round %(n)d is paired again.") % {"n": rnd.number}
    if action == "forfeit":
        pairing = get_object_or_404(
            Pairing, pk=_posted_id(request, "pairing"), round__tournament=tournament
        )
        data = _valid(ForfeitForm(request.POST))
        tournaments.do_forfeit(pairing, by, data["forfeiting"])
        return _("The forfeit is recorded and the table abandoned.")
    if action in ("replace_player", "stand_in", "withdraw"):
        team = get_object_or_404(
            TournamentTeam, pk=_posted_id(request, "team"), tournament=tournament
        )
        if action == "withdraw":
            tournaments.do_withdraw_team(team, by)
            return _("“%(team)s” has withdrawn.") % {"team": team.name}
        if action == "replace_player":
            form = ReplaceForm(request.POST)
            data = _valid(form)
            _run(
                form,
                "new",
                lambda: tournaments.do_replace_player(team, by, _user(data["old"]), data["new"]),
            )
            return _("%(old)s is replaced by %(new)s.") % data
        form = StandInForm(request.POST)
        data = _valid(form)
        _run(
            form,
            "username",
            lambda: tournaments.do_stand_in(team, by, _user(data["username"]), data["policy"]),
        )
        return _("%(name)s's seat is handed over.") % {"name": data["username"]}
    raise Http404


@staff_member_required
@require_POST
def act(request: AuthenticatedHttpRequest, pk: int, action: str) -> HttpResponse:
    """One staff action. A form refused comes back on this page with its errors beside its
    fields; a button refused (nothing typed) says why in a message."""
    tournament = get_object_or_404(Tournament, pk=pk)
    try:
        messages.success(request, _action(request, tournament, action))
    except TournamentError as e:
        messages.error(request, str(e))
    except FormRefused as refused:
        return _manage_page(request, tournament, failed=refused.form, action=action)
    return redirect("tournaments:manage", tournament.pk)
