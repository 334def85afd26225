"""Quick phrases: said with one click, shown in each reader's own language.

A line stores the phrase's code; each reader's page renders ``PHRASES[code]`` in its language,
so a Spanish player's "Buena partida" reaches a Vietnamese partner as "Ván hay".
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

PHRASES = {
    "hi": _("Hello!"),
    "luck": _("Good luck!"),
    "bomb": _("Nice bomb!"),
    "wp": _("Well played!"),
    "thanks": _("Thanks!"),
    "sorry": _("Sorry!"),
    "oops": _("Oops!"),
    "gg": _("Good game!"),
}


def phrase_text(code: str) -> str:
    """The phrase ``code`` in the active language ("" for an unknown code)."""
    phrase = PHRASES.get(code)
    return str(phrase) if phrase is not None else ""
