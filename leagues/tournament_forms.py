"""Forms for the tournament pages: the staff's (create, generate a round, forfeit, replace a
player, stand-in) and a player's team registration. Like ``leagues.forms`` they say what is
wrong next to the field; the model's ``Tournament.settings_problems`` is the one check of a
tournament's settings, which the form shows by field and the service enforces."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from config.plain_text import VisibleLinesField, VisibleTextField
from games.engine.ai import STAND_IN
from games.live.teams import team_name_lazy
from games.models import Seat
from leagues.models import Tournament
from leagues.models.tournament import MAX_ROUNDS


# ModelForm is generic in django-stubs only (subscripting it raises at runtime without
# django_stubs_ext.monkeypatch(), not installed): a bare base, ignored for this.
class TournamentForm(forms.ModelForm):  # type: ignore[type-arg]
    """A new tournament's settings (its table options are a ``TableOptionsForm`` beside it).
    ``Tournament.clean`` adds the settings' problems to their fields."""

    class Meta:
        model = Tournament
        fields = [
            "name",
            "description",
            "format",
            "team_size",
            "planned_rounds",
            "registration_opens",
            "registration_closes",
            "league",
            "min_rating",
            "rated",
        ]
        field_classes = {"name": VisibleTextField, "description": VisibleLinesField}
        widgets = {
            "registration_opens": forms.DateTimeInput(attrs={"type": "datetime-local"}),
            "registration_closes": forms.DateTimeInput(attrs={"type": "datetime-local"}),
        }

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        rounds = self.fields["planned_rounds"]
        rounds.widget.attrs["max"] = MAX_ROUNDS
        rounds.help_text = _(
            "0: round robin plays everyone once; Swiss plays ⌈log2 teams⌉ rounds. At most %(n)d."
        ) % {"n": MAX_ROUNDS}


class RegisterTeamForm(forms.Form):
    name = VisibleTextField(
        label=_("Team name"),
        max_length=60,
        required=False,
        help_text=_("Leave empty to use your names."),
    )

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any):
        super().__init__(*args, **kwargs)
        for i in range(1, tournament.team_size):
            self.fields[f"partner_{i}"] = forms.CharField(
                label=_("Partner %(n)d (username)") % {"n": i},
                max_length=150,
                help_text=_("They get a notice to accept; the team plays once all have."),
            )

    def partners(self) -> list[str]:
        return [v for k, v in self.cleaned_data.items() if k.startswith("partner_")]


STAND_IN_CHOICES = [("", _("No: the players play"))] + list(Seat.Policy.choices)


class GenerateRoundForm(forms.Form):
    # Not ticked: pairings are looked at before the tables deal (issue 18).
    start = forms.BooleanField(
        label=_("Start the matches now"),
        required=False,
        initial=False,
        help_text=_(
            "Leave unticked to check the pairings first (a round can be re-paired until it starts)."
        ),
    )
    stand_in = forms.ChoiceField(
        label=_("AI stand-ins play every seat"), required=False, choices=STAND_IN_CHOICES
    )


class ForfeitForm(forms.Form):
    pairing = forms.IntegerField(widget=forms.HiddenInput)
    forfeiting = forms.TypedChoiceField(
        label=_("Forfeits"), coerce=int, choices=[(0, team_name_lazy(0)), (1, team_name_lazy(1))]
    )


class TeamForm(forms.Form):
    """A staff action on one team (its id in a hidden field)."""

    team = forms.IntegerField(widget=forms.HiddenInput)


class ReplaceForm(TeamForm):
    old = forms.CharField(label=_("Player leaving"), max_length=150)
    new = forms.CharField(label=_("Player coming in"), max_length=150)


# Who plays a seat a stand-in is put on: the player, or an AI of one of Seat.Policy's kinds
# (the staff's tournament page lists them too).
STAND_IN_CHOICES = [("", _("The player")), *Seat.Policy.choices]


class StandInForm(TeamForm):
    username = forms.CharField(label=_("Player"), max_length=150)
    # An organiser's stand-in plays as the registry's stand-in (the expert) unless they pick
    # another difficulty (issue 11).
    policy = forms.ChoiceField(
        label=_("Seat played by"),
        required=False,
        choices=STAND_IN_CHOICES,
        initial=STAND_IN,
    )
