"""Forms of the games app: a table's RULES.md §10 options, and opening a table with them.

``TableOptionsForm`` is the one form for §10 options: the create-table page uses it (through
``CreateTableForm``) and so do the league, season and tournament options pages.
``options()`` gives the options dict under §10's names, as ``games.play.tables.create_table`` takes
it (``target_level`` as a face string: ``"A"``, ``"5"``); ``initial_for`` reads one back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import forms
from django.core.exceptions import ImproperlyConfigured
from django.forms.boundfield import BoundField
from django.utils.functional import lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from config.plain_text import VisibleTextField
from games.engine.cards import face_name
from games.engine.options import CHOICES, FLAGS, TARGET_LEVELS, Options, OptionsError
from games.models import Table
from games.play.tables import SEAT_COUNTS

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

#: The engine's defaults (RULES.md §10): every field's initial value comes from here.
DEFAULTS = Options()


# Formatted when shown, so the label is in the page's language (not the one at import).
def _quick_match_text(face: str) -> str:
    return gettext("%(level)s (quick match)") % {"level": face}


_quick_match = lazy(_quick_match_text, str)

#: §10 options shown under "Advanced rules"; the rest are shown first.
ADVANCED_FIELDS = (
    "two_in_sequences",
    "joker_hook",
    "bomb_in_window",
    "lead_after_out",
    "first_lead",
    "anti_tribute",
)

#: What each of the engine's choices (``CHOICES``) is called on the page; every value the
#: engine accepts has a label (checked below, so a new engine choice cannot go unlabelled).
CHOICE_LABELS = {
    "two_position": {
        "low": _("Low: 2 is the lowest card"),
        "high": _("High: 2 ranks above A, below the level card"),
    },
    "bomb_order": {
        "four_one_four_top": _("4-4-A beats joker bombs"),
        "jokers_top": _("Joker bombs beat 4-4-A"),
    },
    "lead_after_out": {"teammate": _("their teammate"), "next_player": _("the next player")},
    "first_lead": {
        "top_payer": _("the payer of the highest tribute"),
        "top_finisher": _("the first finisher"),
    },
}
if {n: set(v) for n, v in CHOICE_LABELS.items()} != {n: set(v) for n, v in CHOICES.items()}:
    raise ImproperlyConfigured("games.forms.CHOICE_LABELS must label every engine choice")


def _choices(name: str) -> list[tuple[str, object]]:
    """The engine's values of option ``name``, in its order (the default first), labelled."""
    return [(value, CHOICE_LABELS[name][value]) for value in CHOICES[name]]


def _choice(name: str, label: StrOrPromise, **kwargs: Any) -> forms.ChoiceField:
    # Radio buttons, not a drop-down: the choices are two sentences ("Alto: el 2 va por encima
    # del A y por debajo de la carta de nivel"), which a closed drop-down cut off on a phone;
    # a radio's label wraps, and both choices show at once.
    return forms.ChoiceField(
        label=label,
        initial=getattr(DEFAULTS, name),
        choices=_choices(name),
        widget=forms.RadioSelect,
        **kwargs,
    )


def _flag(name: str, label: StrOrPromise) -> forms.BooleanField:
    if name not in FLAGS:
        raise ImproperlyConfigured(f"{name} is not an on/off option of the engine")
    return forms.BooleanField(label=label, initial=getattr(DEFAULTS, name), required=False)


class TableOptionsForm(forms.Form):
    """The §10 options a host may change, with their defaults as initial values.

    ``players`` (seats at the table), when given, lets ``clean`` check the whole set with the
    engine's validator (``Options.from_dict``); an error there is a form error, not an
    exception."""

    def __init__(self, *args: Any, players: int | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.players = players

    target_level = forms.ChoiceField(
        label=_("Play to level"),
        initial=face_name(DEFAULTS.target_level),
        choices=[
            (face_name(level), _("A (a full match)") if i == 0 else _quick_match(face_name(level)))
            for i, level in enumerate(TARGET_LEVELS)
        ],
        help_text=_("A quick match is won at this level instead of A."),
    )
    claim_window_seconds = forms.IntegerField(
        label=_("Claim window (seconds)"),
        min_value=0,
        max_value=10,
        initial=int(DEFAULTS.claim_window_seconds),
        help_text=_("Time to hook or unhook after a single. 0 turns hooking off."),
    )
    turn_seconds = forms.IntegerField(
        label=_("Turn time (seconds)"),
        min_value=5,
        max_value=120,
        initial=int(DEFAULTS.turn_seconds),
    )
    two_position = _choice("two_position", _("Where 2 ranks"))
    bomb_order = _choice("bomb_order", _("Highest bomb"))
    two_in_sequences = _flag("two_in_sequences", _("2 may start a straight (2-3-4)"))
    joker_hook = _flag("joker_hook", _("Jokers can be hooked by two jokers of the same colour"))
    bomb_in_window = _flag("bomb_in_window", _("A bomb may be played during a claim window"))
    lead_after_out = _choice("lead_after_out", _("When the trick winner is out, the lead goes to"))
    first_lead = _choice("first_lead", _("After tribute, the first lead goes to"))
    anti_tribute = _flag("anti_tribute", _("No tribute when the payers hold every red joker"))

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data  # what Form.clean returns (typed as maybe None for overrides)
        if self.players is not None and not self.errors:
            try:
                Options.from_dict(self.options(), players=self.players)
            except OptionsError as e:
                raise forms.ValidationError(
                    _("These rules do not fit a table of %(n)d seats: %(error)s"),
                    params={"n": self.players, "error": e},
                ) from None
        return data

    def options(self) -> dict[str, Any]:
        """The §10 options dict of a valid form (§10 names; ``target_level`` a face string)."""
        data = self.cleaned_data
        return {
            "target_level": data["target_level"],
            "claim_window_seconds": data["claim_window_seconds"],
            "turn_seconds": data["turn_seconds"],
            "two_position": data["two_position"],
            "bomb_order": data["bomb_order"],
            **{name: data[name] for name in ADVANCED_FIELDS},
        }

    @classmethod
    def initial_for(
        cls, options: dict[str, Any] | None
    ) -> tuple[dict[str, bool | str | int | float], list[str]]:
        """The form's initial values for stored ``options`` (§10 names), and the names that
        cannot be shown (unknown options, or values no field offers) — dropped, so saving the
        form replaces them with valid ones."""
        initial: dict[str, bool | str | int | float] = {}
        dropped: list[str] = []
        for name, value in (options or {}).items():
            field = cls.base_fields.get(name)
            if field is None:
                dropped.append(name)
                continue
            if isinstance(field, forms.BooleanField):
                if not isinstance(value, bool):
                    dropped.append(name)
                    continue
            elif isinstance(field, forms.ChoiceField):
                value = str(value)
                if not field.valid_value(value):
                    dropped.append(name)
                    continue
            elif isinstance(value, bool) or not isinstance(value, (int, float)):
                dropped.append(name)
                continue
            initial[name] = value
        return initial, sorted(dropped)

    def basic_fields(self) -> list[BoundField]:
        """The visible fields shown first (all but ``ADVANCED_FIELDS``)."""
        return [f for f in self.visible_fields() if f.name not in ADVANCED_FIELDS]

    def advanced_fields(self) -> list[BoundField]:
        """The visible fields shown under "Advanced rules" (``ADVANCED_FIELDS``)."""
        return [f for f in self.visible_fields() if f.name in ADVANCED_FIELDS]


class CreateTableForm(TableOptionsForm):
    """A new table: name and seats, the §10 options (``TableOptionsForm``), rated or casual,
    public or private."""

    field_order = ["name", "seats"]

    name = VisibleTextField(label=_("Table name"), max_length=80)
    seats = forms.TypedChoiceField(
        label=_("Seats"),
        coerce=int,
        initial=4,
        choices=[(n, str(n)) for n in SEAT_COUNTS],
        help_text=_("Seats alternate teams: seats 1, 3, 5, 7 play seats 2, 4, 6, 8."),
    )
    rated = forms.BooleanField(
        label=_("Rated"),
        required=False,
        help_text=_(
            "Only a match where every seat is a person counts for ratings: with an AI player "
            "at the table, a rated table's match does not count."
        ),
    )
    visibility = forms.ChoiceField(
        label=_("Who can find it"),
        choices=Table.Visibility.choices,
        initial=Table.Visibility.PUBLIC,
        help_text=_("A private table is not listed; share its invite link."),
    )
    spectator_delay = forms.IntegerField(
        label=_("Spectator delay (plays)"),
        min_value=0,
        max_value=50,
        initial=0,
        required=False,
        help_text=_(
            "Spectators see the table this many plays late, so nobody watching can tell "
            "a player what is happening now. Players always see it live."
        ),
    )
