"""What a league fixture and a tournament pairing share: a match played at a table of their
own, whose result is recorded once (``processed_at``, by ``leagues.results``)."""

from __future__ import annotations

from games.models import Table

#: Table statuses of a match being played or over but not yet recorded.
_LIVE_STATUSES = frozenset({Table.Status.PLAYING.value, Table.Status.FINISHED.value})


class PlayedAtTable:
    """A mixin of models with a ``table`` (nullable foreign key to games.Table) and a
    ``processed_at`` (when the result was recorded, or None)."""

    table: Table | None
    processed_at: object

    @property
    def is_done(self) -> bool:
        """Its result is recorded."""
        return self.processed_at is not None

    @property
    def is_live(self) -> bool:
        """Being played, as everyone may know: its table is playing, or its match is over but
        the result is not recorded yet — at a table with a spectator delay, until the
        spectators' view reaches the end (``leagues.results``: the result is recorded then)."""
        return not self.is_done and self.table is not None and self.table.status in _LIVE_STATUSES
