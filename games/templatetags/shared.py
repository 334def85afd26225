"""``{% shared "template#part" name=value … %}``: a small partial rendered once per language and
values, then reused (``games.live.kept``).

A partial given here sees *only* the values named in the tag (as ``{% include … only %}``), so
its text is a function of those values, the language and the escaping mode. Use it only for a
partial that reads nothing else — no request, no ``{% csrf_token %}``, no clock. The Jinja
partials call the same cache as ``shared(name, value=…)`` (``games.live.jinja``).

The sub-context is ``context.new``: the region's own context class, so the strict regions check
(``games.live.regions._Declared``) still refuses a table-context field the tag did not pass.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.template.base import FilterExpression, Node, Parser, Template, Token
from django.template.context import Context
from django.utils.safestring import SafeString

from games.live import kept, regions

register = template.Library()


class SharedNode(Node):
    """Renders ``name`` with ``values`` only, reusing the text of an equal earlier render."""

    def __init__(self, name: str, values: dict[str, FilterExpression]) -> None:
        self.name = name
        self.values = values
        # The compiled partial, looked up once: this node belongs to a template the engine's
        # cached loader keeps, and a reload (development) parses that template — and this node —
        # again.
        self.template: Template | None = None

    def render(self, context: Context) -> SafeString:
        values = {name: value.resolve(context) for name, value in self.values.items()}
        return kept.text(
            self.name, values, context.autoescape, lambda: self._render(context, values)
        )

    def _render(self, context: Context, values: dict[str, Any]) -> str:
        if self.name.endswith(regions.JINJA):  # a Jinja partial, as strict as this render
            return regions.render_jinja(self.name, values, regions.strict_region(context))
        if self.template is None:
            engine = context.template.engine if context.template else None
            if engine is None:  # pragma: no cover - a Node renders inside a Template
                raise template.TemplateSyntaxError("{% shared %} outside a template")
            self.template = engine.get_template(self.name)
        return self.template.render(context.new(values))


@register.tag("shared")
def do_shared(parser: Parser, token: Token) -> SharedNode:
    """``{% shared "games/partials/countdown.jinja" countdown=countdown %}``."""
    bits = token.split_contents()
    if len(bits) < 2 or bits[1][0] not in "\"'" or bits[1][-1] != bits[1][0]:
        raise template.TemplateSyntaxError(
            f"{bits[0]} takes a quoted template name, then name=value pairs"
        )
    values: dict[str, Any] = template.base.token_kwargs(bits[2:], parser)
    if len(values) != len(bits) - 2:
        raise template.TemplateSyntaxError(f"{bits[0]}: only name=value pairs after the name")
    return SharedNode(bits[1][1:-1], values)
