"""The games app's models: tables and seats, matches and their records, table chat.

A package so that each module holds one family; every model is importable from
``games.models`` as Django and the migrations expect.
"""

from games.models.chat import ChatLine, ChatMute, ChatReport
from games.models.matches import (
    DelayedView,
    Match,
    MatchTally,
    Move,
    PlayerMatch,
    Rematch,
    Round,
    TributeRecord,
)
from games.models.reviews import RoundReview
from games.models.tables import (
    Seat,
    Table,
    ai_plays_a_seat,
    automatic_name,
    new_invite_code,
    only_stand_ins,
)

__all__ = [
    "ChatLine",
    "ChatMute",
    "ChatReport",
    "DelayedView",
    "Match",
    "MatchTally",
    "Move",
    "PlayerMatch",
    "Rematch",
    "Round",
    "RoundReview",
    "Seat",
    "Table",
    "TributeRecord",
    "ai_plays_a_seat",
    "automatic_name",
    "new_invite_code",
    "only_stand_ins",
]
