"""Text a person typed, as the site keeps it: without the characters that are not shown but
change how the rest reads.

Unicode's category C — control characters, and the format characters such as the right-to-left
override (U+202E) and the zero-width joiners — would let a table, team or league name or a chat
line read backwards or hide what follows ("‮<b>x</b>" shows as "<b/>x<b>"). Usernames are
guarded by ``accounts.usernames`` (confusables and scripts); free text gets this.

One format character stays where it does its job: the zero-width joiner between two emoji
("👨‍👩‍👧", "🏃‍♀️", "👩🏽‍💻" are each one picture made of several joined by U+200D). Between two
symbols it can only join them into one picture or show them side by side: it reorders and
hides nothing, and dropping it split a family emoji in the chat into three people.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from django import forms

ZWJ = "\u200d"
#: What may stand before a joiner in an emoji sequence: a symbol, the emoji presentation
#: selector (U+FE0F) or a skin tone (the modifiers are category Sk).
_JOINED_AFTER = ("So", "Sk")
_EMOJI_PRESENTATION = "\ufe0f"


def visible(text: str, lines: bool = False) -> str:
    """``text`` without its category-C characters (controls, format characters such as bidi
    overrides and zero-width marks; the plain space is kept, and with ``lines`` the line
    breaks of a text of several lines, as "\n"), stripped at both ends. A zero-width joiner
    between two emoji is kept (the module's docstring says why)."""
    if lines:
        text = text.replace("\r\n", "\n")
    kept: list[str] = []
    for i, char in enumerate(text):
        if (
            unicodedata.category(char)[0] != "C"
            or char == " "
            or (lines and char == "\n")
            or _joins_emoji(kept, text, i)
        ):
            kept.append(char)
    return "".join(kept).strip()


def _joins_emoji(kept: list[str], text: str, i: int) -> bool:
    """Whether ``text[i]`` is a joiner between an emoji kept just before it and a symbol
    right after it."""
    if text[i] != ZWJ or not kept or i + 1 >= len(text):
        return False
    before = kept[-1]
    joined = before == _EMOJI_PRESENTATION or unicodedata.category(before) in _JOINED_AFTER
    return joined and unicodedata.category(text[i + 1]) == "So"


class VisibleTextField(forms.CharField):
    """A ``CharField`` that keeps only ``visible`` text: a name made only of invisible
    characters is empty (so "This field is required" where it is required)."""

    lines = False  # a name is one line

    def to_python(self, value: Any) -> str | None:
        text = super().to_python(value)
        return visible(text, self.lines) if isinstance(text, str) else text


class VisibleLinesField(VisibleTextField):
    """``VisibleTextField`` for a text of several lines (a league's or tournament's
    description): its line breaks stay."""

    lines = True
