"""``{{ team|team_name }}``: a team's shown name ("Team 1", "Team 2"), from ``games.live.teams``."""

from __future__ import annotations

from django import template

from games.live import teams

register = template.Library()


@register.filter
def team_name(team: int | str | None) -> str:
    """The shown name of engine team ``team`` (0 or 1, or its string); "" for anything else."""
    if team is None:  # (int(None) raises TypeError: the same "")
        return ""
    try:
        return teams.team_name(int(team))
    except (TypeError, ValueError):
        return ""
