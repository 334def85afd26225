"""Show a table's §10 options in the page's language: ``{{ name|option_label }}`` and
``{{ value|option_value:name }}`` (the create-table form's own labels and choices), listed in
the form's order (``{{ options|in_form_order }}``)."""

from __future__ import annotations

from collections.abc import Iterable

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


#: The table's size first, as the form asks it first (its "seats" choice holds both).
_SIZE_FIRST = ("players", "decks")


@register.filter
def in_form_order(options: Iterable[tuple[str, object]]) -> list[tuple[str, object]]:
    """``(name, value)`` pairs in the order the create-table form shows them: the seats and
    decks, then its fields top to bottom; a name the form does not have goes last."""
    order = {name: n for n, name in enumerate((*_SIZE_FIRST, *CreateTableForm.base_fields))}
    return sorted(options, key=lambda item: order.get(item[0], len(order)))
