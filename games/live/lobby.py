"""What the lobby lists: open tables waiting for players, live matches to watch, the latest
finished ones, and the viewer's own tables (private ones included). Shared by the lobby page
and its live push (``games.sockets.lobby_hub``).

The lists come in two parts: the public lists are the same for every viewer of a language, so
the push renders them once per language (``public_frames``); "my tables" is per player
(``mine_frames``) and is rendered only for the players a change concerns. Each part loads its
rows once, then builds the translated rows and the HTML for each language asked for: the
number of statements depends on neither the number of tables nor of languages.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple, cast

from django.contrib.auth.models import AnonymousUser
from django.db.models import Q, QuerySet
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _

from accounts.models import User
from games import access
from games.engine.cards import face_name
from games.live import spectating, visibility
from games.models import Seat, Table

LIST_LENGTH = 30
FINISHED_LENGTH = 10
#: Finished matches still live for their delayed spectators that the live list can show.
STILL_WATCHED_MAX = 20
#: Where the lobby's parts are rendered; the page includes both inside ``lobby_lists.html``.
PUBLIC_TEMPLATE = "games/partials/lobby_public.html"
MINE_TEMPLATE = "games/partials/lobby_mine.html"


def options_summary(table: Table, uncounted: bool = False) -> list[str]:
    """Short, translated phrases for the options a player wants to know before sitting down;
    ``uncounted``: the table is rated but its match will not count for ratings (an AI plays a
    seat: ``games.models.ai_plays_a_seat``), which the table page's header says."""
    options = table.engine_options()
    target = options.to_dict()["target_level"]
    parts = [_("to A") if target == "A" else _("quick match to %(level)s") % {"level": target}]
    if options.hooking:
        parts.append(
            _("claim window %(seconds)s s") % {"seconds": _number(options.claim_window_seconds)}
        )
    else:
        parts.append(_("no hooking"))
    parts.append(_("turn %(seconds)s s") % {"seconds": _number(options.turn_seconds)})
    if options.two_position == "high":
        parts.append(_("2 high"))
    if options.bomb_order == "jokers_top":
        parts.append(_("joker bombs top"))
    if not table.rated:
        parts.append(_("casual"))
    elif uncounted:
        parts.append(_("rated, but this match will not count: an AI plays a seat"))
    else:
        parts.append(_("rated"))
    return parts


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def _progress(table: Table, seated: bool = False) -> str:
    """Where a live match stands: its round and both teams' levels — for someone not
    ``seated`` at a delayed table, as its spectators see it (``games.live.delay``)."""
    if table.status not in (Table.Status.PLAYING, Table.Status.FINISHED):
        return ""
    match = getattr(table, "match", None)
    if match is None:
        return ""
    seen = visibility.seen_by(table, match, seated)
    if seen.over:
        return ""
    return _("round %(round)s · levels %(team1)s / %(team2)s") % {
        "round": seen.round_no,
        "team1": face_name(seen.levels[0]),
        "team2": face_name(seen.levels[1]),
    }


# --- loading (the only queries) ------------------------------------------------------------------


class _Seat(NamedTuple):
    """What a lobby row needs of a seat. A tuple: building a Seat and a User model for each of
    the ~280 seats of the lists took about 2.5 times as long as reading these."""

    number: int
    user_id: int | None
    ai_policy: str
    username: str | None
    is_bot: bool | None = False  # a bot account (the bot API), marked in the row

    @property
    def is_empty(self) -> bool:
        return self.user_id is None and not self.ai_policy


def _listed() -> QuerySet[Table]:
    """Tables with what a row shows: host and match joined, without the match's engine state
    (every hand: big, and never shown here). Their seats come from ``_with_seats``."""
    return Table.objects.select_related("host", "match", "match__delayed").defer("match__state")


def _with_seats(*lists: list[Table]) -> None:
    """One query for the seats of every table in ``lists``: each table gets ``lobby_seats``,
    its ``_Seat`` tuples by number."""
    tables = [table for rows in lists for table in rows]
    if not tables:
        return
    by_table: dict[int, list[_Seat]] = {table.pk: [] for table in tables}
    seats = (
        Seat.objects.filter(table_id__in=by_table)
        .order_by("table_id", "number")
        .values_list("table_id", "number", "user_id", "ai_policy", "user__username", "user__is_bot")
    )
    for table_id, number, user_id, ai_policy, username, is_bot in seats:
        by_table[table_id].append(_Seat(number, user_id, ai_policy, username, is_bot))
    for table in tables:
        # an attribute of this list's instances, as Prefetch(to_attr=...) would set (the model
        # does not declare it): read through _seats_of
        table.lobby_seats = by_table[table.pk]  # type: ignore[attr-defined]


def _seats_of(table: Table) -> list[_Seat]:
    """The seats ``_with_seats`` attached to ``table``."""
    seats: list[_Seat] = table.lobby_seats  # type: ignore[attr-defined]  # set by _with_seats
    return seats


def _still_watched() -> Q:
    """Finished matches that are still live for their spectators: a delayed table's view has
    not reached the end yet (``games.live.delay``)."""
    return Q(
        status=Table.Status.FINISHED,
        spectator_delay__gt=0,
        match__delayed__isnull=False,
        match__delayed__winner_team__isnull=True,
    )


def _load_public() -> dict[str, list[Table]]:
    """The public lists' tables, ``{"open" | "live" | "finished": [Table, ...]}``: 4 statements.

    Open and live tables are read newest first through ``table_lobby_idx`` (visibility,
    status, -created_at); finished ones latest first through ``match_finished_idx``, a partial
    index on -finished_at WHERE finished_at IS NOT NULL: PostgreSQL uses it only when the query
    says ``finished_at`` is not null (5,000 tables: 0.1 ms; without the condition it joined and
    sorted all 3,200 finished ones, 5 ms).

    A finished match whose spectators' delayed view has not reached the end is still live for
    them (``games.live.delay``): it is listed with the live ones, not the finished. Such matches
    ended moments ago, so they are among the latest finished ones: the finished query reads
    ``STILL_WATCHED_MAX`` more rows and the split is made here (an OR in the live query made
    PostgreSQL sort every live and finished table: 15 ms at 5,000 tables).
    """
    # What an anonymous viewer may watch (``games.access``): public tables, less the fixtures
    # of invite-only leagues and the pairings of hidden tournaments. The same for everyone.
    public = access.visible_tables(_listed(), None)
    ended = list(
        public.filter(
            status=Table.Status.FINISHED,
            match__finished_at__isnull=False,
            match__winner_team__isnull=False,
        ).order_by("-match__finished_at")[: FINISHED_LENGTH + STILL_WATCHED_MAX]
    )
    watched = [t for t in ended if not visibility.view_over(t, t.match)]
    live = list(public.filter(status=Table.Status.PLAYING).order_by("-created_at")[:LIST_LENGTH])
    loaded = {
        "open": list(public.filter(status=Table.Status.OPEN).order_by("-created_at")[:LIST_LENGTH]),
        "live": sorted(live + watched, key=lambda t: t.created_at, reverse=True)[:LIST_LENGTH],
        "finished": [t for t in ended if visibility.view_over(t, t.match)][:FINISHED_LENGTH],
    }
    _with_seats(*loaded.values())
    return loaded


def _load_mine(user_id: int) -> list[Table]:
    """A player's open and playing tables, hosted or seated, newest first: 2 statements.

    The ids come from a UNION of the hosted tables (index on host) and the seats (index on
    user): ``host = x OR id IN (seats)`` made PostgreSQL scan every table instead (4 ms at
    5,000 tables, growing with the site; 0.5 ms this way, growing with the player's own
    history). A subquery, not a join: no DISTINCT needed.
    """
    seated = Seat.objects.filter(user_id=user_id).values("table_id")
    ids = Table.objects.filter(host_id=user_id).values("pk").union(seated)
    # A host without a seat watches as a spectator: a delayed match stays theirs until the
    # spectators' view reaches its end.
    shown = Q(status__in=[Table.Status.OPEN, Table.Status.PLAYING]) | (
        _still_watched() & ~Q(pk__in=seated)
    )
    mine = list(_listed().filter(shown, pk__in=ids).order_by("-created_at")[:LIST_LENGTH])
    _with_seats(mine)
    return mine


# --- rows (translated: build them inside the language they are shown in) ---------------------


def _rows(
    tables: Iterable[Table],
    spectators: Mapping[int, int] | None = None,
    viewer_id: int | None = None,
) -> list[dict[str, Any]]:
    """One row per table; with ``spectators`` ({table id: count}) each row says how many
    watch; ``viewer_id`` sees the live progress of the tables they sit at. Makes no query
    (seats come from ``_with_seats``, the delayed view with the table)."""
    rows = []
    for table in tables:
        seats = _seats_of(table)
        seated = viewer_id is not None and any(s.user_id == viewer_id for s in seats)
        row = {
            "table": table,
            "host": table.host.username,
            "players": table.players,
            "taken": sum(1 for s in seats if not s.is_empty),
            "humans": sum(1 for s in seats if s.user_id),
            "ai": sum(1 for s in seats if s.ai_policy and not s.user_id),  # not stand-ins
            "bots": sum(1 for s in seats if s.is_bot),
            "summary": options_summary(table),
            "progress": _progress(table, seated),
        }
        if spectators is not None:
            row["spectators"] = spectators.get(table.pk, 0)
        rows.append(row)
    return rows


def _finished_rows(tables: Iterable[Table]) -> list[dict[str, Any]]:
    """The latest finished public matches, to replay: who won, in how many rounds."""
    rows = []
    for table in tables:
        match = table.match
        winner = cast(int, match.winner_team)  # the query asked for a winner (_load_public)
        names = [
            s.username if s.user_id else _("AI %(number)s") % {"number": s.number + 1}
            for s in _seats_of(table)
        ]
        rows.append(
            {
                "table": table,
                "match": match,
                "winners": names[winner::2],
                "losers": names[1 - winner :: 2],
                "levels": (face_name(match.level_team0), face_name(match.level_team1)),
            }
        )
    return rows


def _public_rows(loaded: dict[str, list[Table]], watching: Mapping[int, int]) -> dict[str, Any]:
    return {
        "open_tables": _rows(loaded["open"]),
        "live_tables": _rows(loaded["live"], watching),
        "finished_tables": _finished_rows(loaded["finished"]),
    }


def _watching(loaded: dict[str, list[Table]]) -> dict[int, int]:
    """How many watch each live table (Redis, one round trip)."""
    return spectating.counts(table.pk for table in loaded["live"])


# --- what the page and the socket use ------------------------------------------------------------


def public_context() -> dict[str, Any]:
    """The public lists in the active language: ``open_tables``, ``live_tables`` and
    ``finished_tables``, lists of row dicts (the same for every viewer)."""
    loaded = _load_public()
    return _public_rows(loaded, _watching(loaded))


def my_tables(user: User | AnonymousUser | None) -> list[dict[str, Any]]:
    """Rows of ``user``'s open and playing tables (private ones included); [] when anonymous."""
    if user is None or not user.is_authenticated:
        return []
    return _rows(_load_mine(user.pk), viewer_id=user.pk)


def public_frames(languages: Iterable[str]) -> dict[str, str]:
    """The public lists as the socket pushes them, ``{language code: HTML}``: one out-of-band
    ``#lobby-public`` element per language. 4 statements and one Redis round trip in all."""
    languages = list(dict.fromkeys(languages))
    if not languages:
        return {}
    loaded = _load_public()
    watching = _watching(loaded)
    frames: dict[str, str] = {}
    for language in languages:
        with translation.override(language):
            frames[language] = render_to_string(
                PUBLIC_TEMPLATE, {**_public_rows(loaded, watching), "oob": True}
            )
    return frames


def mine_frames(wanted: Mapping[int, Iterable[str]]) -> dict[tuple[int, str], str]:
    """Players' own tables as the socket pushes them: ``wanted`` maps a user id to the
    languages its sockets speak; the answer maps ``(user id, language)`` to one out-of-band
    ``#lobby-mine`` element. 2 statements per player, whatever their number of tables."""
    frames: dict[tuple[int, str], str] = {}
    for user_id, languages in wanted.items():
        mine = _load_mine(user_id)
        for language in dict.fromkeys(languages):
            with translation.override(language):
                frames[user_id, language] = render_to_string(
                    MINE_TEMPLATE, {"my_tables": _rows(mine, viewer_id=user_id), "oob": True}
                )
    return frames


def people_at(table: Table) -> list[int]:
    """The ids of the players whose "my tables" shows ``table``: its host and the people seated
    now (1 statement). Pass them to ``notify.lobby_changed``, with anyone who just left."""
    seated = Seat.objects.filter(table_id=table.pk, user__isnull=False).values_list(
        "user_id", flat=True
    )
    return sorted({table.host_id, *seated})
