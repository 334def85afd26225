"""Show a table's §10 options in the page's language: ``{{ name|option_label }}`` and
``{{ value|option_value:name }}`` (the create-table form's own labels and choices)."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext as _

from games.forms import CreateTableForm

register = template.Library()


@register.filter
def option_label(name: str) -> str:
    if name == "players":
        return _("Seats")
    if name == "decks":
        return _("Decks")
    field = CreateTableForm.base_fields.get(name)
    return str(field.label) if field is not None else name


@register.filter
def option_value(value: object, name: str) -> str:
    """``value`` of option ``name`` as the page shows it: yes/no, a choice's label, else as is."""
    if value is True or value is False:
        return _("yes") if value else _("no")
    field = CreateTableForm.base_fields.get(name)
    for key, label in getattr(field, "choices", None) or []:
        if str(key) == str(value):
            return str(label)
    return str(value)
