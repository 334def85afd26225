"""``{% jinja "games/partials/status.jinja" name=value … %}``: a Jinja partial in a Django
template, with the template's context (and the values named): the page and the push render the
same source (``games.live.jinja``).

On a page (a request's context) it renders through Django's Jinja2 backend, which gives it the
request's ``csrf_input``; inside a region's render it is that region's render, as strict about
undeclared fields as the region (``games.live.regions.render_jinja``).
"""

from __future__ import annotations

from typing import Any, cast

from django import template
from django.template import engines
from django.template.context import Context
from django.utils.safestring import SafeString, mark_safe

from games.live import regions

register = template.Library()


@register.simple_tag(takes_context=True)
def jinja(context: Context, name: str, **values: Any) -> SafeString:
    """The Jinja partial ``name`` with the context's values and ``values``."""
    # a template context's names are strings (the stubs allow any key)
    inputs = cast("dict[str, Any]", context.flatten())
    inputs.update(values)
    request = getattr(context, "request", None)
    if request is not None:
        return mark_safe(engines["jinja2"].get_template(name).render(inputs, request))
    return mark_safe(regions.render_jinja(name, inputs, regions.strict_region(context)))
