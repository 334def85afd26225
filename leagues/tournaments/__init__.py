"""Tournament services: registration, rounds, and the admin actions, each one logged.

Staff pages (``leagues.staff_views``) and Django admin actions (``leagues.admin``) both call
these, as ``tournaments.do_*`` from this package. Every ``do_*`` runs in one transaction holding
the tournament row lock (results arrive under the round → pairing locks, see
``leagues.results``), writes a ``TournamentLog`` row, and raises ``TournamentError`` with a
message for people when the action does not fit.

The rooms (each imports ``base`` and the ones before it, never this package):
- ``base``: ``TournamentError``, the row lock, the status check, the log line;
- ``lifecycle``: draft → registration → running ⇄ paused → closed, and the table options;
- ``registration``: teams register, partners accept or decline, teams withdraw;
- ``rounds``: pair a round, open and start its tables, re-pair it;
- ``matches``: a forfeit, a replaced player, an AI stand-in in a seat.
"""

from leagues.tournaments.base import TournamentError
from leagues.tournaments.lifecycle import (
    check_table_options,
    do_close,
    do_create_tournament,
    do_open_registration,
    do_pause,
    do_resume,
    do_set_table_options,
    do_start,
)
from leagues.tournaments.matches import do_forfeit, do_replace_player, do_stand_in
from leagues.tournaments.registration import (
    check_entry,
    check_registration,
    do_answer_partner,
    do_register_team,
    do_withdraw_team,
)
from leagues.tournaments.rounds import (
    do_generate_round,
    do_repair_round,
    do_start_round,
    planned_rounds,
)

__all__ = [
    "TournamentError",
    "check_entry",
    "check_registration",
    "check_table_options",
    "do_answer_partner",
    "do_close",
    "do_create_tournament",
    "do_forfeit",
    "do_generate_round",
    "do_open_registration",
    "do_pause",
    "do_register_team",
    "do_repair_round",
    "do_replace_player",
    "do_resume",
    "do_set_table_options",
    "do_stand_in",
    "do_start",
    "do_start_round",
    "do_withdraw_team",
    "planned_rounds",
]
