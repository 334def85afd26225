"""Game pages: the lobby, opening a table, the table page, and the seat actions before the start.

Seat actions are plain POST forms (CSRF-protected) that call ``games.play.tables``. A page driven by
htmx gets an empty answer (the table's WebSocket pushes the change) or the refusal as a flash;
without htmx the answer is a redirect to the table with a message.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypedDict

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from accounts import friends
from accounts.models import User
from accounts.requests import Request, SignedInRequest
from games import access
from games.chat import mutes
from games.engine.ai import FILL_DEFAULT
from games.forms import CreateTableForm
from games.live import away, lobby_cache, rematch_view, spectating, visibility
from games.live.lobby import options_summary
from games.live.presenters import table_context, table_strings
from games.models import Match, Seat, Table
from games.play import first_windows, quick, rematches, services, standins, tables
from games.play.outcomes import form_number, refusal_message


@require_GET
def lobby(request: HttpRequest) -> HttpResponse:
    context = lobby_cache.page_context(request.user)
    if request.user.is_authenticated:
        context["again"] = _play_again_offer(request.user)
        context["computer"] = {
            "choices": Seat.Policy.choices,
            "picked": quick.difficulty_for(request.user),
        }
    return render(request, "games/lobby.html", context)


class PlayAgainOffer(TypedDict):
    """What the lobby's "play again" shows: the last table, its AI seat count, its options."""

    table: Table
    ai: int
    summary: list[str]


def _play_again_offer(user: User) -> PlayAgainOffer | None:
    """What "play again" would open: the player's last table's name, seats, AI seats and
    options (two statements), or None before their first match."""
    last = tables.last_played(user)
    if last is None:
        return None
    return {
        "table": last,
        "ai": last.seats.filter(user__isnull=True).exclude(ai_policy="").count(),
        "summary": options_summary(last),
    }


@require_GET
def lobby_lists(request: HttpRequest) -> HttpResponse:
    """The lobby's lists alone (a fallback refresh; the lobby socket pushes the same HTML)."""
    return render(
        request, "games/partials/lobby_lists.html", lobby_cache.page_context(request.user)
    )


@login_required
@require_http_methods(["GET", "POST"])
def create_table(request: SignedInRequest) -> HttpResponse:
    form = CreateTableForm(
        request.POST or None, initial={"name": tables.default_name(request.user)}
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            table = tables.create_table(
                request.user,
                name=data["name"],
                # The pre-filled name left as it was is automatic: each reader sees it in their
                # own language; an edited one is the host's text, shown as typed.
                auto_name=tables.name_kind(data["name"], request.user),
                players=data["seats"],
                options=form.options(),
                rated=data["rated"],
                visibility=data["visibility"],
                spectator_delay=data["spectator_delay"] or 0,
            )
        except tables.TableError as e:
            form.add_error(None, str(e))
        else:
            return redirect(table)
    return render(request, "games/create_table.html", {"form": form})


def _watchable(request: HttpRequest, table_id: int) -> Table:
    """The table, or 404 when it does not exist or is private to this viewer."""
    table = get_object_or_404(Table.objects.select_related("host"), pk=table_id)
    if not access.can_watch(request.user, table, request.session):
        raise Http404
    return table


@require_GET
def table_page(request: HttpRequest, table_id: int) -> HttpResponse:
    table = _watchable(request, table_id)
    match = Match.objects.filter(table=table).first()
    seat, left = None, False
    if request.user.is_authenticated:
        mine = (
            Seat.objects.filter(table=table, user=request.user)
            .only("number", "user", "stand_in")
            .first()
        )
        # Who left their seat for good watches as the spectators do (Seat.holder_id).
        left = mine is not None and mine.holder_id is None
        seat = mine.number if mine is not None and not left else None
    # A spectator of a delayed table sees it as it was ``spectator_delay`` moves ago.
    state = visibility.visible_state(table, match, seat) if match else None
    context = table_context(
        table,
        match,
        state,
        seat,
        request.user,
        spectators=spectating.count(table.pk),
        delay=visibility.delay_for(table, match, seat),
        away=away.shown_away(table.pk),
    ).as_dict()
    context["summary"] = options_summary(table, uncounted=context["rated_uncounted"])
    context["staff_start"] = tables.staff_may_start(table, request.user)
    context["left_match"] = left
    context["table_strings"] = table_strings()
    context.update(mutes.table_page_context(request.user, table, seat))  # chat, invitations
    # A plain invite form's refusal, shown beside its field (``accounts.friends_views.invite``).
    context["invite_error"] = friends.take_refusal(request.session, table.pk)
    return render(request, "games/table.html", context)


@require_GET
def join_invite(request: HttpRequest, invite_code: str) -> HttpResponse:
    """An invite link: remember it in the session (the private table becomes visible)."""
    table = get_object_or_404(Table, invite_code=invite_code)
    access.remember_invite(request.session, table)
    return redirect(table)


# --- seat actions before the start -------------------------------------------------------------


def _seat_number(request: HttpRequest) -> int:
    try:
        return int(request.POST.get("seat", ""))
    except ValueError:
        raise tables.TableError(_("There is no such seat.")) from None


def _seat_action(
    request: Request, table_id: int, action: Callable[[Table], object]
) -> HttpResponse:
    """Run ``action(table)``; answer htmx with nothing (the socket pushes) or the refusal, and a
    plain form with a redirect to the table and a message."""
    table = _watchable(request, table_id)
    try:
        action(table)
    except tables.TableError as e:
        if request.htmx:
            # Out of band, so the form's own hx-swap="none" leaves the page as it is.
            return HttpResponse(
                render_to_string(
                    "games/partials/flash.html", {"message": str(e), "oob": True}, request=request
                )
            )
        messages.error(request, str(e))
    if request.htmx:
        return HttpResponse(status=204)
    return redirect(table)


@login_required
@require_POST
def take_seat(request: SignedInRequest, table_id: int) -> HttpResponse:
    return _seat_action(
        request,
        table_id,
        lambda table: tables.take_seat(table.pk, request.user, _seat_number(request)),
    )


@login_required
@require_POST
def leave_seat(request: SignedInRequest, table_id: int) -> HttpResponse:
    return _seat_action(request, table_id, lambda table: tables.leave_seat(table.pk, request.user))


@login_required
@require_POST
def set_ai(request: SignedInRequest, table_id: int) -> HttpResponse:
    return _seat_action(
        request,
        table_id,
        lambda table: tables.set_ai(
            table.pk, request.user, _seat_number(request), request.POST.get("policy", "")
        ),
    )


@login_required
@require_POST
def fill_with_ai(request: SignedInRequest, table_id: int) -> HttpResponse:
    policy = request.POST.get("policy") or FILL_DEFAULT
    return _seat_action(
        request, table_id, lambda table: tables.fill_with_ai(table.pk, request.user, policy)
    )


@login_required
@require_POST
def start(request: SignedInRequest, table_id: int) -> HttpResponse:
    return _seat_action(request, table_id, lambda table: tables.start(table.pk, request.user))


@login_required
@require_POST
def close_table(request: SignedInRequest, table_id: int) -> HttpResponse:
    """The host's "Close table" (``tables.close_table``): every page of the table, the host's
    included, is sent the closed table over its socket; a plain form goes back to the table."""
    return _seat_action(request, table_id, lambda table: tables.close_table(table.pk, request.user))


# --- after the match: rematch, play again ------------------------------------------------------


@login_required
@require_POST
def rematch(request: SignedInRequest, table_id: int) -> HttpResponse:
    """``answer`` = ``ask`` (ask for a rematch, or accept one asked already), ``yes`` or ``no``
    (``games.play.rematches``). htmx gets 204 (every page of the table gets a snapshot, and the
    pages of those seated at the new table go there) or the refusal as a flash; a plain form
    a redirect: to the new table once the person sits there, else back to this one."""
    table = _watchable(request, table_id)
    answer = request.POST.get("answer", "")
    try:
        if answer == "ask":
            found = rematches.do_ask(table.pk, request.user)
        elif answer in (rematch_view.YES, rematch_view.NO):
            found = rematches.do_answer(table.pk, request.user, answer == rematch_view.YES)
        else:
            rematches.refuse_unknown_answer(table.pk, request.user)
    except rematches.RematchError as e:
        return _refused(request, table, str(e))
    if request.htmx:
        return HttpResponse(status=204)
    new = found.new_table
    if new is not None and new.seats.filter(user=request.user).exists():
        return redirect(new)
    return redirect(table)


@login_required
@require_POST
def play_computer(request: SignedInRequest) -> HttpResponse:
    """The lobby's "Play the computer": a table with three AI players at the chosen
    ``difficulty``, dealt at once (``games.play.quick``), then its page — a redirect, or for
    htmx a client redirect; a refusal as a message on the lobby."""
    try:
        match = quick.play_the_computer(request.user, request.POST.get("difficulty", ""))
    except tables.TableError as e:
        messages.error(request, str(e))
        target = reverse("games:lobby")
    else:
        target = match.table.get_absolute_url()
    return HttpResponseClientRedirect(target) if request.htmx else redirect(target)


@login_required
@require_POST
def claim_help_done(request: SignedInRequest) -> HttpResponse:
    """The claim help's "Got it" (``games.play.first_windows.dismiss``): htmx removes the help
    from the page (an empty 200); a plain form goes back to the page it came from."""
    first_windows.dismiss(request.user)
    if request.htmx:
        return HttpResponse("")
    back = request.headers.get("referer", "")
    if not url_has_allowed_host_and_scheme(back, {request.get_host()}, request.is_secure()):
        back = reverse("games:lobby")
    return redirect(back)


@login_required
@require_POST
def play_again(request: SignedInRequest) -> HttpResponse:
    """The lobby's "play again": a new table like the player's last one
    (``tables.play_again``), then its page; the refusal as a message on the lobby."""
    try:
        table = tables.play_again(request.user)
    except tables.TableError as e:
        messages.error(request, str(e))
        return redirect("games:lobby")
    return redirect(table)


def _refused(request: Request, table: Table, message: str) -> HttpResponse:
    """A refusal: out of band as a flash for htmx, else a message on the table's page."""
    if request.htmx:
        return HttpResponse(
            render_to_string(
                "games/partials/flash.html", {"message": message, "oob": True}, request=request
            )
        )
    messages.error(request, message)
    return redirect(table)


# --- during the match: the AI stand-in, resigning, leaving ----------------------------------------


@login_required
@require_POST
def seat_control(request: SignedInRequest, table_id: int) -> HttpResponse:
    """The table socket's seat requests by POST (the same services, the same checks):
    ``action`` = ``stand_in`` | ``back`` | ``leave`` with ``stand_in_seq``
    (``games.play.standins``), or ``resign`` with the ``version`` it was made against (the match's
    current version when the form names none) and a ``client_id``. htmx gets 204 (the socket pushes
    the change) or the refusal as a flash; a plain form a redirect to the table with a message."""

    table = _watchable(request, table_id)
    match = Match.objects.filter(table=table).only("pk", "version").first()
    payload: dict[str, str | int] = {
        key: request.POST.get(key, "") for key in ("action", "stand_in_seq", "client_id")
    }
    if match is None:
        message = _("The match has not started yet.")
    else:
        if payload["action"] == "resign":
            version = form_number(request.POST.get("version", ""))
            payload["version"] = match.version if version is None else version
            result = services.submit(match.pk, request.user, payload)
        else:
            result = standins.control(match.pk, request.user, payload)
        message = "" if result.ok else refusal_message(result)
    if message:
        if request.htmx:
            return HttpResponse(
                render_to_string(
                    "games/partials/flash.html", {"message": message, "oob": True}, request=request
                )
            )
        messages.error(request, message)
    if request.htmx:
        return HttpResponse(status=204)
    return redirect(table)
