"""History pages: a match's record, its replay and its JSON export.

Anyone who may watch the table may open them (``games.access``). The replay and the export are
for finished matches only: while a match is played (or after it was stopped) its hands are
secret, so both are refused with a message (HTTP 409) and the record shows what a spectator sees.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from accounts.requests import Request
from games import access
from games.live import replay, visibility
from games.live.cards import hand_groups
from games.live.log import LOG_LENGTH, move_lines
from games.live.presenters import table_context
from games.models import Match, Move, Seat, Table
from games.records import history, review_detail, review_page, reviews


def _watchable_match(request: HttpRequest, match_id: int) -> Match:
    match = get_object_or_404(Match.objects.select_related("table", "table__host"), pk=match_id)
    if not access.can_watch(request.user, match.table, request.session):
        raise Http404
    return match


def _seat_of(request: HttpRequest, match: Match) -> int | None:
    if not request.user.is_authenticated:
        return None
    # One left for good is no longer theirs (Seat.held_by): read as a spectator.
    return Seat.objects.number_held_by(match.table_id, request.user)


def _not_finished_message(match: Match) -> str:
    if match.table.status == match.table.Status.ABANDONED:
        return _(
            "This match was stopped before its end, so its hands stay private: it has no "
            "replay and no export."
        )
    return _(
        "This match is still being played. Its replay and its export open when it ends; "
        "until then you can watch it live or read its record."
    )


#: How long a finished match's rendered rounds and moves are kept (seconds): a finished record
#: never changes, and a crowd reading it must not cost a render each (issue 17 item 7).
RECORD_CACHE_SECONDS = 3600

#: The record's parts that every viewer of a finished match sees alike (rendered once, cached).
RECORD_BODY = "games/partials/record_body.html"


def _round_asked(request: HttpRequest) -> int | None:
    """``?round=N`` as a number; anything else (missing, text, huge) asks for the default."""
    value = request.GET.get("round", "")
    # isascii: str.isdigit also takes "²", which int() refuses (a server error).
    return int(value) if value.isascii() and value.isdigit() and len(value) < 6 else None


@require_GET
def match_record(request: HttpRequest, match_id: int) -> HttpResponse:
    """The record page: players, options, rounds, and one round's moves (``?round=N``, default
    the last). A finished match's rounds and moves are the same for every viewer who may open
    it, so they are rendered once per round and language and served from the cache."""
    match = _watchable_match(request, match_id)
    seat = _seat_of(request, match)
    round_no = _round_asked(request)
    key = None
    if history.is_finished(match, seat):
        key = f"record:{match.pk}:{match.version}:{get_language()}:{round_no}"
        body = cache.get(key)
        if body is not None:
            context = history.record_header(match, finished=True, delay=0)
            context["reviews"] = _reviews(request, match, seat, context["players"], round_no)
            return render(request, "games/match_record.html", {**context, "record_body": body})
    context = history.record_context(match, seat, round_no)
    if not context["finished"]:
        context["not_finished_message"] = _not_finished_message(match)
    body = render_to_string(RECORD_BODY, context)
    if key is not None:
        cache.set(key, body, RECORD_CACHE_SECONDS)
    context["reviews"] = _reviews(request, match, seat, context["players"], round_no)
    return render(request, "games/match_record.html", {**context, "record_body": body})


def _reviews(
    request: HttpRequest,
    match: Match,
    seat: int | None,
    players: list[dict[str, Any]],
    round_no: int | None,
) -> dict[str, Any]:
    """The expert's round reviews this reader may see (``reviews.visible``: their own, and
    everyone's once the match is finished): accuracy by round and over the match, and round
    ``round_no``'s reviews decision by decision (the last reviewed round when it has none), the
    reader's own first.
    Per reader: never cached. Empty when the reader may see none."""
    query = reviews.visible_query(match, request.user, seat)
    # Every round's accuracy and counts, but the decisions (the bulk of a review) of the
    # round shown only: a long match's page must not read all its rounds' decisions.
    found = review_page.brief(query)
    if not found:
        return {}
    names = {p["seat"]: p["name"] for p in players}
    rounds = {r.round_no for r in found}
    shown = round_no if round_no in rounds else max(rounds)
    finished = history.is_finished(match, seat)
    return {
        "table": review_page.accuracy_table(found, names),
        "round": shown,
        "rounds": sorted(rounds),
        # The reader's own seat first (then seat order): their review is what they came for.
        "sections": [
            review_detail.section(r, names.get(r.seat, ""), finished)
            for r in sorted(query.filter(round_no=shown), key=lambda r: (r.seat != seat, r.seat))
        ],
    }


@require_GET
def match_export(request: HttpRequest, match_id: int) -> HttpResponse:
    """The finished match as docs/MATCH_FORMAT.md describes; 409 with a message otherwise."""
    match = _watchable_match(request, match_id)
    if not history.is_finished(match, _seat_of(request, match)):
        return JsonResponse(
            {"error": "match_not_finished", "message": _not_finished_message(match)}, status=409
        )
    # A finished match's export never changes and is the same for everyone: made once.
    key = f"export:{match.pk}:{match.version}"
    content = cache.get(key)
    if content is None:
        content = JsonResponse(history.export(match), json_dumps_params={"indent": 1}).content
        cache.set(key, content, RECORD_CACHE_SECONDS)
    response = HttpResponse(content, content_type="application/json")
    response["Content-Disposition"] = f'inline; filename="414-match-{match.pk}.json"'
    return response


# --- replay -------------------------------------------------------------------------------------


def _step(request: HttpRequest, last: int) -> int:
    try:
        step = int(request.GET.get("step", 0))
    except ValueError:
        step = 0
    return max(0, min(last, step))


def _seat_choice(request: HttpRequest, players: int) -> int | None:
    """The seat whose view is shown, or None for every hand."""
    raw = request.GET.get("seat", "all")
    if raw.isascii() and raw.isdigit() and len(raw) < 6 and int(raw) < players:
        return int(raw)
    return None


@require_GET
def match_replay(request: Request, match_id: int) -> HttpResponse:
    """``?step=N&seat=S``: the table after move N as seat S saw it (its hand and the public
    table), or with every hand (``seat=all``, the default). Finished matches only."""
    match = _watchable_match(request, match_id)
    viewer_seat = _seat_of(request, match)
    if not history.is_finished(match, viewer_seat):
        return render(
            request,
            "games/replay_refused.html",
            {"match": match, "table": match.table, "message": _not_finished_message(match)},
            status=409,
        )
    table = match.table
    step = _step(request, match.version)
    shown = _seat_choice(request, table.players)
    try:
        state = replay.state_at(match, step)
    except replay.ReplayError as e:
        return render(
            request,
            "games/replay_refused.html",
            {
                "match": match,
                "table": table,
                "message": _("This match's moves do not replay (%(error)s).") % {"error": e},
            },
            status=500,
        )
    context = table_context(
        table, match, state, None, request.user, seats=_seats_as_dealt(table)
    ).as_dict()
    people = history.players(table)
    names = {p["seat"]: p["name"] for p in people}
    seats = range(table.players) if shown is None else [shown]
    context.update(
        step=step,
        last=match.version,
        shown_seat=shown,
        seat_param="all" if shown is None else str(shown),
        players=people,
        hands=[
            {
                "seat": s,
                "name": names[s],
                "team": s % 2,
                "groups": hand_groups(state.hands[s], state.level, state.options),
                "count": len(state.hands[s]),
            }
            for s in seats
        ],
        log=_replay_log(match, step, names),
        current=_move_at(match, step, names),
        **_replay_review(request, match, viewer_seat, state.round_no, step, names),
        rounds_nav=sorted(history.round_starts(match).items()),
        nav={
            "first": 0,
            "prev": max(0, step - 1),
            "next": min(match.version, step + 1),
            "last": match.version,
        },
    )
    template = "games/partials/replay_board.html" if request.htmx else "games/replay.html"
    return render(request, template, context)


def _replay_review(
    request: Request,
    match: Match,
    seat: int | None,
    round_no: int,
    step: int,
    names: dict[int, str],
) -> dict[str, Any]:
    """The expert's review at a replay step: the reviewed decision that made move ``step``
    (``review``), and the round's marked decisions to jump to (``review_marked``)."""
    found = reviews.visible(match, request.user, seat, round_no)
    return {
        "review": review_detail.at_step(found, step, names),
        "review_marked": review_detail.marked_steps(found, names),
    }


def _seats_as_dealt(table: Table) -> list[Seat]:
    """The table's seats as at the deal: a person's seat shown as theirs. A stand-in (the AI
    playing for an away person) is the live table's state, not the record's: the seat would
    otherwise show "the AI plays" from move 0 for a takeover that came later (unsaved
    copies; nothing is written)."""
    seats = list(table.seats.select_related("user"))
    for seat in seats:
        if seat.user_id and seat.stand_in:
            seat.stand_in, seat.ai_policy = "", ""
    return seats


def _replay_log(match: Match, step: int, names: dict[int, str]) -> list[str]:
    moves = Move.objects.filter(match=match, seq__lte=step).order_by("-seq")[:LOG_LENGTH]
    lines = []
    for move in reversed(list(moves)):
        lines.extend(move_lines(move, names, reveal=True))
    return lines[-LOG_LENGTH:]


def _move_at(match: Match, step: int, names: dict[int, str]) -> dict[str, Any] | None:
    move = Move.objects.filter(match=match, seq=step).first()
    if move is None:
        return None
    return history.move_row(move, names, reveal=True)


# --- a player's matches -------------------------------------------------------------------------

MATCHES_PER_PAGE = 25


@require_GET
def player_matches(request: HttpRequest, username: str) -> HttpResponse:
    """Every match ``username`` had a seat in, newest first, with its result and links to its
    record and replay. Private tables the viewer may not watch are left out."""
    player = get_object_or_404(get_user_model(), username=username, is_active=True)
    seats = (
        Seat.objects.filter(user=player, table__match__isnull=False)
        .filter(access.watchable_q(request.user, request.session, prefix="table__"))
        .select_related("table", "table__host", "table__match", "table__match__delayed")
        .order_by("-table__match__started_at")
    )
    page = Paginator(seats, MATCHES_PER_PAGE).get_page(request.GET.get("page"))
    mine = set()
    if request.user.is_authenticated:
        mine = set(
            Seat.objects.filter(
                user=request.user, table__in=[s.table_id for s in page]
            ).values_list("table_id", flat=True)
        )
    rows = []
    for seat in page:
        table, match = seat.table, seat.table.match
        people = history.players(table)
        # Someone not seated at a delayed table sees its round and result as spectators do.
        seen = visibility.seen_by(table, match, seated=table.pk in mine)
        rows.append(
            {
                "table": table,
                "match": match,
                "seat": seat.number,
                "team": seat.team,
                "partners": [
                    p["name"] for p in people if p["team"] == seat.team and p["seat"] != seat.number
                ],
                "opponents": [p["name"] for p in people if p["team"] != seat.team],
                "finished": seen.over,
                "stopped": table.status == table.Status.ABANDONED,
                "won": seen.winner_team == seat.team,
                "round_no": seen.round_no,
            }
        )
    # The player's accuracy where the expert reviewed them and the match is over for the
    # reader (everyone's reviews are open then): one statement for the page.
    over = [seat.table.match.pk for seat, row in zip(page, rows, strict=True) if row["finished"]]
    accuracy = review_page.accuracies(player.pk, over) if over else {}
    for seat, row in zip(page, rows, strict=True):
        row["accuracy"] = accuracy.get(seat.table.match.pk) if row["finished"] else None
    return render(
        request, "games/player_matches.html", {"player": player, "page": page, "rows": rows}
    )
