"""Forms for league and tournament pages. They only parse input; services decide."""

from __future__ import annotations

from typing import cast

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from games.engine.ai import STAND_IN
from games.live.teams import team_name_lazy, team_text_lazy
from games.models import Seat
from leagues.models import League, Season, Tournament


def _usernames(value: str) -> list[str]:
    return [n for n in (part.strip() for part in value.replace(";", ",").split(",")) if n]


class UsernamesField(forms.CharField):
    """Comma-separated usernames → users, in the order given."""

    def clean(self, value):
        names = _usernames(super().clean(value) or "")
        users = {
            u.username.casefold(): u
            for u in get_user_model().objects.filter(username__in=names, is_active=True)
        }
        found = []
        for name in names:
            if name.casefold() not in users:
                raise forms.ValidationError(
                    _("No player is called “%(name)s”."), params={"name": name}
                )
            found.append(users[name.casefold()])
        return found


class LeagueForm(forms.ModelForm):
    """A league's own fields; its table options come from ``games.forms.TableOptionsForm``
    beside it (the create-table form's fields), never a JSON box."""

    class Meta:
        model = League
        fields = ["name", "slug", "description", "visibility", "join_policy", "players", "rated"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["slug"].required = False
        self.fields["slug"].help_text = _("Leave empty to make it from the name.")


class SeasonForm(forms.ModelForm):
    class Meta:
        model = Season
        fields = ["name", "starts_on", "ends_on", "format", "status"]
        widgets = {
            "starts_on": forms.DateInput(attrs={"type": "date"}),
            "ends_on": forms.DateInput(attrs={"type": "date"}),
        }


class UsernameForm(forms.Form):
    username = forms.CharField(label=_("Username"), max_length=150)


class FixtureForm(forms.Form):
    season = forms.ModelChoiceField(queryset=Season.objects.none(), label=_("Season"))
    team0 = UsernamesField(
        label=team_name_lazy(0),
        help_text=_("Usernames, separated by commas: seats 1, 3, … in order."),
    )
    team1 = UsernamesField(
        label=team_name_lazy(1),
        help_text=_("Usernames, separated by commas: seats 2, 4, … in order."),
    )
    scheduled_at = forms.DateTimeField(
        label=_("Scheduled at"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
    )

    def __init__(self, *args, league: League, **kwargs):
        super().__init__(*args, **kwargs)
        # the field declared above; `fields` only knows it as a Field
        season = cast("forms.ModelChoiceField[Season]", self.fields["season"])
        season.queryset = league.seasons.exclude(status=Season.Status.FINISHED)


class ResultForm(forms.Form):
    fixture = forms.IntegerField(widget=forms.HiddenInput)
    winner_team = forms.TypedChoiceField(
        label=_("Winner"), coerce=int, choices=[(0, team_name_lazy(0)), (1, team_name_lazy(1))]
    )
    levels_team0 = forms.IntegerField(
        label=team_text_lazy(gettext_noop("Levels gained by %(team)s"), team=0),
        min_value=0,
        max_value=12,
        initial=0,
    )
    levels_team1 = forms.IntegerField(
        label=team_text_lazy(gettext_noop("Levels gained by %(team)s"), team=1),
        min_value=0,
        max_value=12,
        initial=0,
    )
    caught_team0 = forms.IntegerField(
        label=team_text_lazy(gettext_noop("Caught by %(team)s"), team=0), min_value=0, initial=0
    )
    caught_team1 = forms.IntegerField(
        label=team_text_lazy(gettext_noop("Caught by %(team)s"), team=1), min_value=0, initial=0
    )


class TournamentForm(forms.ModelForm):
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
        widgets = {
            "registration_opens": forms.DateTimeInput(attrs={"type": "datetime-local"}),
            "registration_closes": forms.DateTimeInput(attrs={"type": "datetime-local"}),
        }


class SeasonOptionsForm(forms.Form):
    """Whether a season keeps the league's table options or has its own (then a
    ``TableOptionsForm`` beside it says which)."""

    own = forms.BooleanField(
        label=_("This season has its own table options"),
        required=False,
        help_text=_("Unticked: its fixtures use the league's table options."),
    )


class RegisterTeamForm(forms.Form):
    name = forms.CharField(
        label=_("Team name"),
        max_length=60,
        required=False,
        help_text=_("Leave empty to use your names."),
    )

    def __init__(self, *args, tournament: Tournament, **kwargs):
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
    start = forms.BooleanField(
        label=_("Start the matches now"),
        required=False,
        initial=True,
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


class ReplaceForm(forms.Form):
    team = forms.IntegerField(widget=forms.HiddenInput)
    old = forms.CharField(label=_("Player leaving"), max_length=150)
    new = forms.CharField(label=_("Player coming in"), max_length=150)


# Who plays a seat a stand-in is put on: the player, or an AI of one of Seat.Policy's kinds
# (the staff's tournament page lists them too).
STAND_IN_CHOICES = [("", _("The player")), *Seat.Policy.choices]


class StandInForm(forms.Form):
    team = forms.IntegerField(widget=forms.HiddenInput)
    username = forms.CharField(label=_("Player"), max_length=150)
    # An organiser's stand-in plays as the registry's stand-in (the expert) unless they pick
    # another difficulty (issue 11).
    policy = forms.ChoiceField(
        label=_("Seat played by"),
        required=False,
        choices=STAND_IN_CHOICES,
        initial=STAND_IN,
    )
