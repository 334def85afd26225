"""Text a person typed, as the site keeps it: without the characters that are not shown but
change how the rest reads.

Unicode's category C — control characters, and the format characters such as the right-to-left
override (U+202E) and the zero-width joiners — would let a table, team or league name or a chat
line read backwards or hide what follows ("‮<b>x</b>" shows as "<b/>x<b>"). Usernames are
guarded by ``accounts.usernames`` (confusables and scripts); free text gets this.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from django import forms


def visible(text: str) -> str:
    """``text`` without its category-C characters (controls, format characters such as bidi
    overrides and zero-width marks; the plain space is kept), stripped at both ends."""
    return "".join(c for c in text if unicodedata.category(c)[0] != "C" or c == " ").strip()


class VisibleTextField(forms.CharField):
    """A ``CharField`` that keeps only ``visible`` text: a name made only of invisible
    characters is empty (so "This field is required" where it is required)."""

    def to_python(self, value: Any) -> str | None:
        text = super().to_python(value)
        return visible(text) if isinstance(text, str) else text
