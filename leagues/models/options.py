"""The one check of a league's, season's or tournament's ``table_options``: they must be §10
options a table of that many seats accepts (the engine's own validator). The rows' ``clean``
raise it as a ValidationError, the organisers' services as their own error."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from games.engine.options import Options, OptionsError


def options_problem(options: object, players: int) -> str | None:
    """Why ``options`` could not open a table of ``players`` seats (a translated sentence), or
    None when they are a dict of §10 options it accepts (``Options.from_dict``)."""
    if not isinstance(options, dict):
        return _("Table options: %(error)s") % {"error": _("not a set of options")}
    try:
        Options.from_dict(options, players=players)
    except OptionsError as e:
        return _("Table options: %(error)s") % {"error": e}
    return None


def check_options_field(options: object, players: int) -> None:
    """Raise ValidationError on ``table_options`` unless ``options_problem`` finds none."""
    problem = options_problem(options, players)
    if problem is not None:
        raise ValidationError({"table_options": problem})
