"""The Jinja2 environment of the table's hot partials (issue 19): compiled Python instead of
Django's node tree, the same bytes out.

Django's own backend (``django.template.backends.jinja2.Jinja2``, ``TEMPLATES`` in
``config.settings``) builds it with ``environment`` below; ``games.live.regions.render`` renders
a region whose template ends in ``.jinja`` with it, and a Django page includes one with
``{% jinja "…" %}`` (``games.templatetags.jinja``): one source for the page and the push. A
Jinja partial writes what its Django original wrote, byte for byte:

- **Escaping as Django's.** Every ``{{ value }}`` goes through ``_finalize``: Django's
  ``conditional_escape`` (``&#x27;`` for a quote, where MarkupSafe would write ``&#39;``); a
  value with ``__html__`` (Django's ``SafeString``, Jinja's ``Markup``) is written as it is.
  Jinja's own autoescape is off, since ``_finalize`` does it: a filter or function that
  returns HTML returns ``Markup``. Nothing is localized: these partials print strings and
  integers only (no float, no date).
- **Translations as Django's tags.** ``{{ _("Pass") }}`` is ``{% translate "Pass" %}``: the
  translated text escaped (with a context: ``pgettext_escaped(context, message)``).
  ``{% trans name=… %}…{% endtrans %}`` (the i18n extension, new-style gettext) is
  ``{% blocktranslate with name=… %}``: the translated text as written, the values escaped;
  ``{% pluralize %}`` is ``{% plural %}`` and ``{% trans "ctx" … %}`` a context. The message
  ids are Django's (``{{ name }}`` becomes ``%(name)s``), so ``make messages``
  (``games.management.commands.makemessages``: Babel's Jinja extractor) finds the strings into
  the same catalogues and their translations are shared.
- **The strict regions check.** A region's render sees only the fields it declares
  (``regions.Region.inputs``); under ``settings.GAMES_STRICT_REGIONS`` reading another table
  context field raises ``regions.UndeclaredInput`` (``Undeclared``). Any other missing name is
  empty, as in Django (``ChainableUndefined``: ``a.b.c`` of a missing ``a`` is empty too).
- **Lookups as Django's.** ``row.name`` reads a dict's key before an attribute
  (``_Environment.getattr``).
- **Whitespace.** The file's last newline is kept (``keep_trailing_newline``), as Django keeps
  it; ``{% filter spaceless %}`` is Django's ``{% spaceless %}``.
"""

from __future__ import annotations

import html
from collections.abc import MutableMapping
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django.template.defaultfilters import floatformat, stringformat
from django.urls import get_resolver, get_script_prefix, get_urlconf, reverse
from django.utils.html import strip_spaces_between_tags
from django.utils.safestring import mark_safe
from django.utils.translation import npgettext
from jinja2 import ChainableUndefined, Environment, Undefined, pass_context
from jinja2.runtime import Context
from jinja2.utils import missing
from markupsafe import Markup

from games.live import kept, regions
from games.live.context import FIELDS
from games.live.speech import gettext, ngettext, pgettext
from games.live.teams import team_name

_FIELD_NAMES = frozenset(FIELDS)


def environment(**options: Any) -> Environment:
    """The environment Django's Jinja2 backend builds (``OPTIONS["environment"]``): its loader
    and ``auto_reload`` come from the backend; escaping, missing names and whitespace are set
    here, whatever the backend's defaults (its ``DebugUndefined`` would print a missing name)."""
    options.update(
        # Escaping is ``_finalize``'s, Django's own: Jinja's (MarkupSafe's) would write other
        # bytes for a quote, and cost a second ``Markup`` per value.
        autoescape=False,
        finalize=_finalize,
        undefined=Undeclared,
        keep_trailing_newline=True,
        extensions=["jinja2.ext.i18n"],
    )
    env = _Environment(**options)
    # The i18n extension's switch (set on the environment by ``Environment.extend``): a
    # ``{% trans %}`` block calls ``gettext(message, **values)``, which formats it itself.
    env.newstyle_gettext = True  # type: ignore[attr-defined]
    env.globals.update(
        _=gettext,
        pgettext_escaped=_pgettext_escaped,
        gettext=_block_gettext,
        ngettext=_block_ngettext,
        pgettext=_block_pgettext,
        npgettext=_block_npgettext,
        url=_url,
        shared=shared,
    )
    env.filters.update(
        team_name=_team_name,
        join=_join,
        spaceless=_spaceless,
        stringformat=stringformat,
        floatformat=_floatformat,
    )
    return env


class _Context(Context):
    """A render's context that calls the environment's own plain functions (``_PLAIN_CALLS``:
    ``_()``, the ``{% trans %}`` gettexts, ``url()``, ``shared()``) straight. Jinja's
    ``Context.call`` first asks each callable, and its ``__call__``, whether it takes the
    context (two failed attribute lookups, each a raised ``AttributeError``: ~36 calls a push);
    these take none. Any other callable goes through Jinja's own ``call``."""

    def call(
        __self,  # noqa: N805 - Jinja's own signature: a keyword argument may be named "self"
        __obj: Any,
        *args: Any,
        **kwargs: Any,
    ) -> Any:
        if __obj in _PLAIN_CALLS:
            if kwargs:  # a call in a loop or a block is handed those names (Jinja's compiler)
                kwargs.pop("_loop_vars", None)
                kwargs.pop("_block_vars", None)
            return __obj(*args, **kwargs)
        return super().call(__obj, *args, **kwargs)


class _Environment(Environment):
    """Looks ``a.b`` up as Django does: the key ``b`` of a dict first (the table context's rows
    are dicts), then the attribute — Jinja's own order is the reverse, which for a dict costs a
    raised ``AttributeError`` on every lookup. Its renders' context is ``_Context``, and a
    template's globals are one plain dict (``make_globals``)."""

    context_class = _Context

    def make_globals(self, d: MutableMapping[str, Any] | None) -> MutableMapping[str, Any]:
        """A template's globals: the environment's, then the template's own, copied into one
        dict when the template loads. Jinja's own is a ``ChainMap`` over the two, which every
        render copied again key by key in Python (``new_context``: ~8 µs of a ~12 µs empty
        render); the environment's globals are all set before any template loads
        (``environment``), as Jinja asks ("avoid modifying any globals after a template is
        loaded")."""
        return {**self.globals, **(d or {})}

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)


def _finalize(value: Any) -> str:
    """What ``{{ value }}`` writes: Django's ``conditional_escape`` of it — a value with
    ``__html__`` (Django's ``SafeString``, Jinja's ``Markup``: a translated block, a kept
    partial) as it is, anything else escaped. A push writes ~100 values, most of them the same
    short words, names and numbers at every push: a plain string's escaped text is kept
    (``_escaped``), an integer has nothing to escape."""
    kind = type(value)
    if kind is str:
        text = _escaped_texts.get(value)
        if text is None:
            text = html.escape(value)
            if len(value) <= MAX_ESCAPED_LENGTH:
                if len(_escaped_texts) >= MAX_ESCAPED:
                    _escaped_texts.clear()
                _escaped_texts[value] = text
        return text
    if kind is int:
        return str(value)
    if hasattr(value, "__html__"):
        return value.__html__()  # type: ignore[no-any-return]
    return html.escape(str(value))


#: ``_finalize``'s escaped plain strings of up to ``MAX_ESCAPED_LENGTH`` characters, by
#: string; cleared when ``MAX_ESCAPED`` are kept.
MAX_ESCAPED = 4096
MAX_ESCAPED_LENGTH = 80
_escaped_texts: dict[str, str] = {}


class Undeclared(ChainableUndefined):
    """A missing name, empty as in Django — unless it is a table-context field and a region is
    being rendered under ``GAMES_STRICT_REGIONS`` (``regions.STRICT`` names it): then reading
    it raises ``UndeclaredInput`` at once, as ``regions._Declared`` does for a Django partial."""

    __slots__ = ()

    def __new__(
        cls,
        hint: str | None = None,
        obj: Any = missing,
        name: str | None = None,
        exc: type[Exception] | None = None,
    ) -> Undeclared:
        if obj is missing and name in _FIELD_NAMES:
            region = regions.STRICT.get()
            if region:
                raise regions.UndeclaredInput(f"the {region} region reads {name!r}: declare it")
        return super().__new__(cls)


@pass_context
def _team_name(_context: Context, team: int) -> str:
    """``{{ 0|team_name }}``: ``teams.team_name`` in the current language. Taking the context
    keeps Jinja from working out ``0|team_name`` once, when the template is compiled, in
    whatever language was active then."""
    return team_name(team)


def _escaped(values: dict[str, Any]) -> dict[str, str]:
    # ``_finalize`` is Django's ``conditional_escape`` without its lazy-argument wrapper.
    return {name: _finalize(value) for name, value in values.items()}


def _formatted(translated: str, message: str, values: dict[str, Any]) -> Markup:
    """A block's translation with its values put in, as ``{% blocktranslate %}`` does: the
    text as translated, the values escaped; a translation that does not take them falls back
    to the message itself."""
    escaped = _escaped(values)
    try:
        return Markup(translated % escaped)
    except (KeyError, ValueError):
        return Markup(message % escaped)


def _block_gettext(message: str, /, **values: Any) -> Markup:
    return _formatted(gettext(message), message, values)


def _block_ngettext(singular: str, plural: str, count: int, /, **values: Any) -> Markup:
    message = singular if count == 1 else plural
    return _formatted(ngettext(singular, plural, count), message, values)


def _block_pgettext(context: str, message: str, /, **values: Any) -> Markup:
    return _formatted(pgettext(context, message), message, values)


def _block_npgettext(
    context: str, singular: str, plural: str, count: int, /, **values: Any
) -> Markup:
    message = singular if count == 1 else plural
    return _formatted(npgettext(context, singular, plural, count), message, values)


def _pgettext_escaped(context: str, message: str) -> str:
    """``{{ pgettext_escaped("a seat passed", "Pass") }}``: ``{% translate "Pass" context "a
    seat passed" %}``, the translated text escaped (``_finalize``) as ``_()``'s."""
    return pgettext(context, message)


#: ``url()``'s answers by (name, arguments, script prefix), each beside the URL resolver that
#: gave it: the claim help writes the same two links at every render, and ``reverse`` walks the
#: URLconf each time (~10-20 µs). Another URLconf (a new resolver: a test's override, a reload)
#: is asked again. Cleared when ``MAX_URLS`` are kept.
MAX_URLS = 1024
_urls: dict[tuple[str, tuple[Any, ...], str], tuple[object, str]] = {}


def _url(name: str, *args: Any) -> str:
    """``{{ url("games:take_seat", table.pk) }}``, Django's ``{% url %}``."""
    resolver = get_resolver(get_urlconf())
    key = (name, args, get_script_prefix())
    kept_url = _urls.get(key)
    if kept_url is not None and kept_url[0] is resolver:
        return kept_url[1]
    url = reverse(name, args=args)
    if len(_urls) >= MAX_URLS:
        _urls.clear()
    _urls[key] = (resolver, url)
    return url


def _floatformat(value: Any, arg: Any = -1) -> Any:
    """Django's ``floatformat``; a number from 0 to 999 to no decimals (the countdown's seconds,
    at every push) rounded here, half up as Django rounds it, without Django's way through
    ``Decimal`` arithmetic and the locale's number format (~8 µs): under 1,000 no thousands
    separator applies, and with no decimals no decimal separator."""
    if arg == 0 and type(value) in (float, int) and 0 <= value < 1000:
        return mark_safe(str(int(Decimal(str(value)).quantize(_ONE, ROUND_HALF_UP))))
    return floatformat(value, arg)


_ONE = Decimal(1)


def _join(values: Any, separator: str = "") -> Markup:
    """Django's ``join`` filter: each value and the separator escaped (by Django's rules)."""
    return Markup(_finalize(separator).join([_finalize(v) for v in values]))


def _spaceless(text: str) -> Markup:
    """Django's ``{% spaceless %}``: the whitespace between tags removed, and around the text."""
    return Markup(strip_spaces_between_tags(str(text).strip()))


def shared(name: str, /, **values: Any) -> str:
    """``{{ shared("games/partials/countdown.jinja", countdown=countdown) }}``: the partial
    ``name`` (Jinja, or Django) with ``values`` only, kept by its values (``games.live.kept``,
    shared with the ``{% shared %}`` tag's texts). A missing value is passed as "", as the tag
    passes it (a Jinja ``Undefined`` is nothing a Django template can read)."""
    values = {key: "" if isinstance(value, Undefined) else value for key, value in values.items()}
    return kept.text(name, values, True, lambda: regions.render(name, values))


#: The globals ``_Context.call`` calls straight: plain functions that take no context.
_PLAIN_CALLS = frozenset(
    {
        gettext,
        _pgettext_escaped,
        _block_gettext,
        _block_ngettext,
        _block_pgettext,
        _block_npgettext,
        _url,
        shared,
    }
)
