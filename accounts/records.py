"""A player's match record shown on the profile page.

Kept apart so the games app can fill it in from its match tables without touching views.
"""

from __future__ import annotations

from dataclasses import dataclass

from accounts.models import User


@dataclass(frozen=True)
class MatchRecord:
    played: int = 0
    won: int = 0


def match_record(user: User) -> MatchRecord:
    """Matches `user` played and won. Zero until the games app stores matches."""
    return MatchRecord()
