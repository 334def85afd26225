"""What every tournament service shares: ``TournamentError``, the status names, the row lock,
the status check, the log line, and usernames to players. For the rooms of
``leagues.tournaments`` only; other code imports ``TournamentError`` from ``leagues.tournaments``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _

from leagues import players
from leagues.models import Tournament, TournamentLog

if TYPE_CHECKING:
    from django.contrib.auth.models import _User as User  # (the leagues import no accounts)

Status = Tournament.Status


class TournamentError(Exception):
    """A tournament action that cannot be done now (the message says why)."""


def _log(tournament: Tournament, by: User, action: str, detail: str = "", **data: Any) -> None:
    """Log ``action``: ``detail`` in English for the admin, ``data`` (names, numbers, lists of
    them: JSON) for the sentence the manage page writes in the reader's language
    (``leagues.tournament_log``)."""
    TournamentLog.objects.create(
        tournament=tournament, actor=by, action=action, detail=detail, data=data
    )


def _locked(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def _check_status(tournament: Tournament, *allowed: str) -> None:
    if tournament.status not in allowed:
        raise TournamentError(
            _("Not possible while the tournament is “%(status)s”.")
            % {"status": tournament.get_status_display()}
        )


def _resolve(usernames: Sequence[str]) -> list[User]:
    """The active users called ``usernames`` (any case: ``leagues.players``), in that order;
    TournamentError for a name nobody has."""
    try:
        return players.find(usernames)
    except players.NoSuchPlayer as e:
        raise TournamentError(e.message) from None
