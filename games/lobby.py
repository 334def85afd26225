"""What the lobby lists: open tables waiting for players, live matches to watch, and the
viewer's own tables (private ones included). Shared by the lobby page and its live push."""

from __future__ import annotations

from django.db.models import Q
from django.utils.translation import gettext as _

from games import spectating
from games.engine.cards import face_name
from games.models import Seat, Table

LIST_LENGTH = 30
FINISHED_LENGTH = 10


def options_summary(table: Table) -> list[str]:
    """Short, translated phrases for the options a player wants to know before sitting down."""
    options = table.engine_options()
    target = options.to_dict()["target_level"]
    parts = [_("to A") if target == "A" else _("quick match to %(level)s") % {"level": target}]
    if options.hooking:
        parts.append(_("claim window %(seconds)s s") % {"seconds": _number(
            options.claim_window_seconds)})
    else:
        parts.append(_("no hooking"))
    parts.append(_("turn %(seconds)s s") % {"seconds": _number(options.turn_seconds)})
    if options.two_position == "high":
        parts.append(_("2 high"))
    if options.bomb_order == "jokers_top":
        parts.append(_("joker bombs top"))
    parts.append(_("rated") if table.rated else _("casual"))
    return parts


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def _progress(table: Table) -> str:
    """Where a live match stands: its round and both teams' levels."""
    match = getattr(table, "match", None) if table.status == Table.Status.PLAYING else None
    if match is None:
        return ""
    return _("round %(round)s · levels %(team1)s / %(team2)s") % {
        "round": match.round_no, "team1": face_name(match.level_team0),
        "team2": face_name(match.level_team1)}


def _rows(tables) -> list[dict]:
    rows = []
    for table in tables:
        seats = list(table.seats.all())
        rows.append({
            "table": table,
            "host": table.host.username,
            "players": table.players,
            "taken": sum(1 for s in seats if not s.is_empty),
            "humans": sum(1 for s in seats if s.user_id),
            "ai": sum(1 for s in seats if s.ai_policy),
            "summary": options_summary(table),
            "progress": _progress(table),
        })
    return rows


def _with_spectators(rows: list[dict]) -> list[dict]:
    """Live rows with how many watch each table (Redis, one round trip)."""
    watching = spectating.counts(row["table"].pk for row in rows)
    for row in rows:
        row["spectators"] = watching.get(row["table"].pk, 0)
    return rows


def _finished(tables) -> list[dict]:
    """The latest finished public matches, to replay: who won, in how many rounds."""
    rows = []
    finished = (tables.filter(status=Table.Status.FINISHED, match__winner_team__isnull=False)
                .prefetch_related("seats__user").order_by("-match__finished_at"))
    for table in finished[:FINISHED_LENGTH]:
        match = table.match
        names = [s.user.username if s.user_id else _("AI %(number)s") % {"number": s.number + 1}
                 for s in table.seats.all()]
        rows.append({"table": table, "match": match, "winners": names[match.winner_team::2],
                     "losers": names[1 - match.winner_team::2],
                     "levels": (face_name(match.level_team0), face_name(match.level_team1))})
    return rows


def lobby_context(user) -> dict:
    """The lobby's lists for ``user`` (anonymous users see the public lists only)."""
    base = Table.objects.select_related("host", "match").prefetch_related("seats")
    public = base.filter(visibility=Table.Visibility.PUBLIC)
    context = {
        "open_tables": _rows(public.filter(status=Table.Status.OPEN)[:LIST_LENGTH]),
        "live_tables": _with_spectators(
            _rows(public.filter(status=Table.Status.PLAYING)[:LIST_LENGTH])),
        "finished_tables": _finished(public),
        "my_tables": [],
    }
    if user is not None and user.is_authenticated:
        mine = base.filter(
            Q(host=user) | Q(pk__in=Seat.objects.filter(user=user).values("table_id")),
            status__in=[Table.Status.OPEN, Table.Status.PLAYING],
        ).distinct()
        context["my_tables"] = _rows(mine[:LIST_LENGTH])
    return context
