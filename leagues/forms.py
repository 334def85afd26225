"""Forms for the league pages (the tournament pages' are ``leagues.tournament_forms``). They
parse input and say what is wrong next to the field; services decide the rest, and a page adds
a service's refusal to the same bound form, so the organiser sees it with what they typed."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from django.contrib.auth.models import _User as User  # (the leagues import no accounts)

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from config.plain_text import VisibleLinesField, VisibleTextField
from games.live.teams import team_name_lazy, team_text_lazy
from games.play.tables import SEAT_COUNTS
from leagues import players
from leagues.models import League, Season


def _usernames(value: str) -> list[str]:
    return [n for n in (part.strip() for part in value.replace(";", ",").split(",")) if n]


def _players(names: list[str]) -> list[User]:
    """The active users called ``names`` (any case, as sign-up counts a name taken:
    ``leagues.players``), in that order; a ValidationError naming the first name no player
    has."""
    try:
        return players.find(names)
    except players.NoSuchPlayer as e:
        raise forms.ValidationError(e.message, code="no_such_player") from None


class UsernamesField(forms.CharField):
    """Comma-separated usernames → users, in the order given."""

    def clean(self, value: Any) -> list[User]:
        names = _usernames(super().clean(value) or "")
        if self.required and not names:
            raise forms.ValidationError(self.error_messages["required"], code="required")
        return _players(names)


# ModelForm is generic in django-stubs only (subscripting it raises at runtime without
# django_stubs_ext.monkeypatch(), not installed): bare bases, each ignored for this.
class LeagueForm(forms.ModelForm):  # type: ignore[type-arg]
    """A league's own fields; its table options come from ``games.forms.TableOptionsForm``
    beside it (the create-table form's fields), never a JSON box."""

    # A choice, not a number box: the model's own clean checks the table options against it,
    # and any other count (0, 3, 999999) has no table (issue 18).
    players = forms.TypedChoiceField(
        label=_("Seats per table"),
        choices=[(n, n) for n in SEAT_COUNTS],
        coerce=int,
        initial=4,
    )

    class Meta:
        model = League
        fields = ["name", "slug", "description", "visibility", "join_policy", "players", "rated"]
        field_classes = {"name": VisibleTextField, "description": VisibleLinesField}

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["slug"].required = False
        self.fields["slug"].help_text = _("Leave empty to make it from the name.")


class SeasonForm(forms.ModelForm):  # type: ignore[type-arg]
    class Meta:
        model = Season
        fields = ["name", "starts_on", "ends_on", "format", "status"]
        field_classes = {"name": VisibleTextField}
        widgets = {
            "starts_on": forms.DateInput(attrs={"type": "date"}),
            "ends_on": forms.DateInput(attrs={"type": "date"}),
        }

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data  # what Form.clean returns (typed as maybe None for overrides)
        starts, ends = data.get("starts_on"), data.get("ends_on")
        if starts and ends and ends < starts:
            self.add_error("ends_on", _("A season cannot end before it starts."))
        return data


class UsernameForm(forms.Form):
    """One player, by username (any case): ``cleaned_data["username"]`` is the user."""

    username = forms.CharField(label=_("Username"), max_length=150)

    def clean_username(self) -> User:
        return _players([self.cleaned_data["username"].strip()])[0]


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

    def __init__(self, *args: Any, league: League, **kwargs: Any):
        super().__init__(*args, **kwargs)
        # the field declared above; `fields` only knows it as a Field
        season = cast("forms.ModelChoiceField[Season]", self.fields["season"])
        season.queryset = league.seasons.exclude(status=Season.Status.FINISHED)


#: The most catches a hand-recorded result may give a team.
MAX_CAUGHT = 999


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
    # A bound the column can hold (PositiveSmallIntegerField): more was a database error.
    caught_team0 = forms.IntegerField(
        label=team_text_lazy(gettext_noop("Caught by %(team)s"), team=0),
        min_value=0,
        max_value=MAX_CAUGHT,
        initial=0,
    )
    caught_team1 = forms.IntegerField(
        label=team_text_lazy(gettext_noop("Caught by %(team)s"), team=1),
        min_value=0,
        max_value=MAX_CAUGHT,
        initial=0,
    )

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        # One of these sits in each row of the organise page, without a <label>: each field
        # is named by its label instead.
        for field in self.fields.values():
            field.widget.attrs.setdefault("aria-label", str(field.label))
            if isinstance(field, forms.IntegerField):
                field.widget.attrs.setdefault("size", 2)


class SeasonOptionsForm(forms.Form):
    """Whether a season keeps the league's table options or has its own (then a
    ``TableOptionsForm`` beside it says which)."""

    own = forms.BooleanField(
        label=_("This season has its own table options"),
        required=False,
        help_text=_("Unticked: its fixtures use the league's table options."),
    )


#: The most teams one round robin may have (n·(n−1)/2 tables open at once).
MAX_ROUND_ROBIN_TEAMS = 16


class RoundRobinForm(forms.Form):
    """The teams of a round-robin season, one a line: every pair of them gets a fixture."""

    season = forms.ModelChoiceField(queryset=Season.objects.none(), label=_("Season"))
    teams = forms.CharField(
        label=_("Teams"),
        widget=forms.Textarea(attrs={"rows": 6}),
        help_text=_("One team a line: its usernames, separated by commas."),
    )

    def __init__(self, *args: Any, league: League, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.league = league
        season = cast("forms.ModelChoiceField[Season]", self.fields["season"])
        season.queryset = league.seasons.filter(format=Season.Format.ROUND_ROBIN).exclude(
            status=Season.Status.FINISHED
        )

    def clean_teams(self) -> list[list[User]]:
        lines = [line for line in self.cleaned_data["teams"].splitlines() if line.strip()]
        if len(lines) < 2:
            raise forms.ValidationError(_("A round robin needs at least two teams."))
        if len(lines) > MAX_ROUND_ROBIN_TEAMS:
            raise forms.ValidationError(
                _("At most %(n)d teams."), params={"n": MAX_ROUND_ROBIN_TEAMS}
            )
        return [_players(_usernames(line)) for line in lines]
