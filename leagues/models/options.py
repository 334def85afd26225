"""The check the league, season and tournament rows share on their ``table_options``: they
must be §10 options a table of that many seats accepts (the engine's own validator)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from games.engine.options import Options, OptionsError


def check_options_field(options, players: int) -> None:
    """Raise ValidationError (on ``table_options``) unless ``options`` is a dict of §10 options
    a table of ``players`` seats accepts (``games.engine.options.Options.from_dict``)."""
    if not isinstance(options, dict):
        raise ValidationError({"table_options": _("Table options are a set of named options.")})
    try:
        Options.from_dict(options, players=players)
    except OptionsError as e:
        raise ValidationError({"table_options": str(e)}) from None
