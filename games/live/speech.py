"""The language a push renders in, asked of Django once per run of audiences, not at every word.

Django's ``gettext`` finds the active translation in an ``asgiref`` ``Local`` at every call
(~1 µs: a lock and a context lookup); a push asks it ~40 times per move — the partials' words,
card and seat names. Inside ``speaking(language)`` (``translation.override`` and, beside it, the
active translation kept in a ``ContextVar``) this module's ``gettext`` and ``pgettext`` read
that translation straight, and ``get_language`` its language; anywhere else they are Django's.
Their answers are Django's, word for word (the same code on the same translation object).

Inside ``speaking`` no code may switch the language itself (``translation.override`` or
``activate``): these functions would go on speaking the outer language.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from django.conf import settings
from django.utils import translation
from django.utils.safestring import SafeData, mark_safe
from django.utils.translation import trans_real


class _Spoken:
    """The translation a ``speaking`` block keeps, and the words it translated so far (a plain
    ``str`` message → its translation: the same few dozen words at every push, each found in
    the translation's catalogues through Python's ``gettext`` and its fallbacks otherwise).
    Lives for one block: bounded by the words its renders ask."""

    __slots__ = ("plurals", "translation", "words")

    def __init__(self, translation: Any) -> None:
        self.translation = translation
        self.words: dict[str, str] = {}
        #: ``ngettext``'s answers by (singular, plural, count): a seat's "13 cards".
        self.plurals: dict[tuple[str, str, int], str] = {}


#: The active translation inside ``speaking`` (None: ask Django).
_SPOKEN: ContextVar[_Spoken | None] = ContextVar("spoken_translation", default=None)


@contextmanager
def speaking(language: str | None) -> Iterator[None]:
    """``translation.override(language)``, with the translation kept for ``gettext``."""
    with translation.override(language):
        token = _SPOKEN.set(_Spoken(trans_real.catalog()) if settings.USE_I18N else None)
        try:
            yield
        finally:
            _SPOKEN.reset(token)


def gettext(message: str) -> str:
    """Django's ``gettext``: inside ``speaking``, on the translation it keeps (a plain
    message's translation kept for the block)."""
    spoken = _SPOKEN.get()
    if spoken is None:
        return translation.gettext(message)
    plain = type(message) is str
    if plain:
        known = spoken.words.get(message)
        if known is not None:
            return known
    # trans_real.gettext's own steps, on the kept translation object
    eol_message = message.replace("\r\n", "\n").replace("\r", "\n")
    result = spoken.translation.gettext(eol_message) if eol_message else type(message)("")
    if isinstance(message, SafeData):
        return mark_safe(result)
    if plain:
        spoken.words[message] = result
    return result


def ngettext(singular: str, plural: str, number: int) -> str:
    """Django's ``ngettext``: inside ``speaking``, on the translation it keeps (an answer for
    plain messages and an ``int`` count kept for the block)."""
    spoken = _SPOKEN.get()
    if spoken is None:
        return translation.ngettext(singular, plural, number)
    if type(singular) is not str or type(plural) is not str or type(number) is not int:
        return spoken.translation.ngettext(singular, plural, number)  # type: ignore[no-any-return]
    key = (singular, plural, number)
    known = spoken.plurals.get(key)
    if known is None:
        known = spoken.plurals[key] = spoken.translation.ngettext(singular, plural, number)
    return known


def get_language() -> str | None:
    """Django's ``get_language``: inside ``speaking``, the kept translation's language."""
    spoken = _SPOKEN.get()
    if spoken is None:
        return translation.get_language()
    return spoken.translation.to_language()  # type: ignore[no-any-return]


def pgettext(context: str, message: str) -> str:
    """Django's ``pgettext``: inside ``speaking``, on the translation it keeps."""
    if _SPOKEN.get() is None:
        return translation.pgettext(context, message)
    # The catalogue's key for a message in a context (a variable: makemessages would take a
    # literal in the call for a message of its own).
    key = f"{context}{trans_real.CONTEXT_SEPARATOR}{message}"
    result = gettext(key)
    if trans_real.CONTEXT_SEPARATOR in result:  # not translated
        return message
    if isinstance(message, SafeData):
        return mark_safe(result)
    return result
