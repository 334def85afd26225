"""A tournament's log as the manage page shows it: each entry a sentence in the reader's
language, never the action's code (a walk's staff read "partner_accept Los Carl: demo accepted"
on a Spanish page).

``ACTIONS`` is the one place a logged action (``leagues.tournaments``' ``_log`` codes) becomes
words: a short label and a sentence whose named placeholders are fields of the entry's
``data``. An entry written before ``data`` was stored (``{}``), or whose fields do not fit its
sentence, shows its label and the English ``detail`` it was stored with; an action not listed
shows "Other action" and its detail.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.models import Seat
from leagues.models import Tournament, TournamentLog

#: Code → (label, sentence). Variants of one action are ``code/variant`` (``_variant``).
ACTIONS: dict[str, tuple[Promise, Promise]] = {
    "create": (
        gettext_lazy("Tournament created"),
        gettext_lazy("Created the tournament: %(format)s, teams of %(team_size)s."),
    ),
    "open_registration": (
        gettext_lazy("Registration opened"),
        gettext_lazy("Opened registration."),
    ),
    "register": (
        gettext_lazy("Team registered"),
        gettext_lazy("Registered team “%(team)s”: %(players)s (waiting for %(waiting)s)."),
    ),
    "register/confirmed": (
        gettext_lazy("Team registered"),
        gettext_lazy("Registered team “%(team)s”: %(players)s."),
    ),
    "partner_accept": (
        gettext_lazy("Partner accepted"),
        gettext_lazy("%(user)s accepted their place in team “%(team)s”."),
    ),
    "partner_decline": (
        gettext_lazy("Partner declined"),
        gettext_lazy("%(user)s declined their place in team “%(team)s”: the team was removed."),
    ),
    "withdraw": (
        gettext_lazy("Team withdrawn"),
        gettext_lazy("Team “%(team)s” withdrew."),
    ),
    "drop_unconfirmed": (
        gettext_lazy("Unconfirmed teams dropped"),
        gettext_lazy("Dropped the teams whose partners had not all accepted: %(teams)s."),
    ),
    "start": (
        gettext_lazy("Tournament started"),
        gettext_lazy("Started the tournament."),
    ),
    "pause": (gettext_lazy("Tournament paused"), gettext_lazy("Paused the tournament.")),
    "resume": (gettext_lazy("Tournament resumed"), gettext_lazy("Resumed the tournament.")),
    "close": (
        gettext_lazy("Tournament closed"),
        gettext_lazy("Closed the tournament: team “%(team)s” won."),
    ),
    "close/no_winner": (
        gettext_lazy("Tournament closed"),
        gettext_lazy("Closed the tournament with no winner."),
    ),
    "table_options": (
        gettext_lazy("Table options changed"),
        gettext_lazy("Changed the table options for the rounds paired from now on."),
    ),
    "generate_round": (
        gettext_lazy("Round paired"),
        gettext_lazy("Paired round %(round)s: %(pairings)s."),
    ),
    "start_round": (
        gettext_lazy("Round started"),
        gettext_lazy("Started the matches of round %(round)s."),
    ),
    "repair_round": (
        gettext_lazy("Round re-paired"),
        gettext_lazy("Re-paired round %(round)s: %(pairings)s (before: %(before)s)."),
    ),
    "forfeit": (
        gettext_lazy("Forfeit"),
        gettext_lazy("Round %(round)s, table %(board)s: team “%(team)s” forfeited."),
    ),
    "replace_player": (
        gettext_lazy("Player replaced"),
        gettext_lazy("Team “%(team)s”: %(new_user)s plays instead of %(user)s."),
    ),
    "stand_in": (
        gettext_lazy("AI stand-in"),
        gettext_lazy("Team “%(team)s”: an AI stand-in (%(policy)s) plays for %(user)s."),
    ),
    "stand_in/back": (
        gettext_lazy("AI stand-in"),
        gettext_lazy("Team “%(team)s”: %(user)s plays their own seat again."),
    ),
}

OTHER = gettext_lazy("Other action")


def _variant(action: str, data: dict[str, Any]) -> str:
    """The ``ACTIONS`` key for an entry: its code, or a variant its data calls for."""
    if action == "register" and "waiting" in data and not data["waiting"]:
        return "register/confirmed"
    if action == "close" and "team" in data and not data["team"]:
        return "close/no_winner"
    if action == "stand_in" and "policy" in data and not data["policy"]:
        return "stand_in/back"
    return action


def _names(value: Any) -> str:
    return ", ".join(str(v) for v in value) if isinstance(value, list) else str(value)


def _pairings(value: Any) -> str:
    """Stored pairings ([team A, team B or None], by table) as words."""
    if not isinstance(value, list):
        return str(value)
    found = []
    for pair in value:
        a, b = (list(pair) + [None, None])[:2] if isinstance(pair, list) else (pair, None)
        if b is None:
            found.append(_("%(team)s (bye)") % {"team": a})
        else:
            found.append(_("%(team_a)s against %(team_b)s") % {"team_a": a, "team_b": b})
    return "; ".join(found)


def _fields(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` ready for a sentence: lists of names joined, pairings, format and AI in words."""
    fields = {k: _names(v) for k, v in data.items()}
    for key in ("pairings", "before"):
        if key in data:
            fields[key] = _pairings(data[key])
    if data.get("format") in Tournament.Format.values:
        fields["format"] = str(Tournament.Format(data["format"]).label)
    if data.get("policy") in Seat.Policy.values:
        fields["policy"] = str(Seat.Policy(data["policy"]).label)
    return fields


def sentence(action: str, data: Any, detail: str) -> str:
    """One entry in words: its sentence from ``data``, else its label and ``detail``."""
    data = data if isinstance(data, dict) else {}
    key = _variant(action, data)
    label, text = ACTIONS.get(key, (OTHER, None))
    if action == "start" and isinstance(data.get("teams"), int):
        n = data["teams"]
        return ngettext(
            "Started the tournament with %(n)d team.", "Started the tournament with %(n)d teams.", n
        ) % {"n": n}
    if text is not None and data:
        try:
            return str(text) % _fields(data)
        except (KeyError, TypeError, ValueError):
            pass  # fields missing or of another shape: the label and the stored line
    if detail:
        return _("%(label)s: %(detail)s") % {"label": label, "detail": detail}
    if text is not None and "%(" not in str(text):
        return str(text)
    return str(label)


def entries(log: QuerySet[TournamentLog]) -> list[dict[str, Any]]:
    """The manage page's log rows: when, who, and the sentence."""
    return [
        {"when": e.created_at, "actor": e.actor, "text": sentence(e.action, e.data, e.detail)}
        for e in log
    ]
