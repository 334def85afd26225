"""What a team is called, everywhere: "Team 1" for team 0 (the even seats, shown as seats
1, 3, …) and "Team 2" for team 1 (the odd seats, shown as 2, 4, …), RULES.md §0.

The table, the match record, profiles, league and tournament pages, forms and admin actions all
name teams through these functions or the ``team`` template partial
(``games/partials/bits.html#team``, which calls ``team_name``), so no page numbers them another
way.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.functional import lazy

from games.live.speech import gettext


def team_name(team: int) -> str:
    """The shown name of engine team ``team`` (0 or 1), in the current language.

    Raises ValueError for any other number."""
    if team == 0:
        return gettext("Team 1")
    if team == 1:
        return gettext("Team 2")
    raise ValueError(f"a team is 0 or 1, not {team!r}")


def team_label(team: int, players: Iterable[str] = ()) -> str:
    """``team_name`` with the seats' players where known: "Team 1 (ana, cy)"; just "Team 1"
    without names."""
    names = [p for p in players if p]
    if not names:
        return team_name(team)
    return gettext("%(team)s (%(players)s)") % {
        "team": team_name(team),
        "players": ", ".join(names),
    }


#: ``team_name`` evaluated when shown (for labels and choices built at import time).
team_name_lazy = lazy(team_name, str)


def _format(text: str, **teams: int) -> str:
    return gettext(text) % {key: team_name(value) for key, value in teams.items()}


#: A translated sentence naming teams, evaluated when shown: ``team_text_lazy("%(team)s won",
#: team=0)``. Mark the sentence for makemessages with ``gettext_noop`` where it is written.
team_text_lazy = lazy(_format, str)
