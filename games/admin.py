"""Admin for tables and matches: read-only records, and never a hand (the brief's secrecy rule).

``Match.state`` holds every hand, a move's events can hold a pending claim's cards, and the seed
deals every round, so none of them is displayed (the seed only once the match is over) nor can
be searched or filtered on (``lookup_allowed``); moves show their action only once the match is
over. Seats and rules cannot be edited once a table's match has started.
"""

from __future__ import annotations

from django.contrib import admin
from django.db.models import Model
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from games.models import (
    ChatLine,
    ChatReport,
    Match,
    Move,
    Round,
    Seat,
    Table,
    TributeRecord,
)

SECRET_LOOKUPS = ("state", "seed", "action", "events")

# ModelAdmin and TabularInline are generic in django-stubs only: subscripting them raises at
# runtime without django_stubs_ext.monkeypatch(), which the site does not install. Their bases
# stay bare, each with an ignore for this reason.


def _open(table: Table | None) -> bool:
    return table is None or table.status == Table.Status.OPEN


class SeatInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Seat
    extra = 0
    fields = ("number", "user", "ai_policy", "stand_in")
    readonly_fields = ("number", "stand_in")  # games.play.standins alone sets it
    can_delete = False

    def has_change_permission(self, request: HttpRequest, obj: Table | None = None) -> bool:
        # Sitting someone at a live table would show them that seat's hand.
        return _open(obj) and super().has_change_permission(request, obj)

    def has_add_permission(self, request: HttpRequest, obj: Table | None = None) -> bool:
        return False


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = (
        "name",
        "auto_name",
        "host",
        "players",
        "status",
        "visibility",
        "rated",
        "created_at",
    )
    list_filter = ("status", "visibility", "rated", "players", "auto_name")
    search_fields = ("name", "host__username")
    inlines = [SeatInline]

    def get_readonly_fields(
        self, request: HttpRequest, obj: Table | None = None
    ) -> tuple[str, ...]:
        if _open(obj):
            return ("invite_code", "created_at")
        return (
            "host",
            "players",
            "options",
            "rated",
            "status",
            "spectator_delay",
            "invite_code",
            "created_at",
        )


class ReadOnlyAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Records the staff read and never edit; secret fields cannot be searched or filtered on."""

    def lookup_allowed(self, lookup: str, value: str, request: HttpRequest) -> bool:
        if lookup.split("__")[0] in SECRET_LOOKUPS:
            return False
        return super().lookup_allowed(lookup, value, request)

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


class RoundInline(admin.TabularInline):  # type: ignore[type-arg]
    model = Round
    extra = 0
    fields = (
        "number",
        "level",
        "levels_before",
        "levels_after",
        "finish_order",
        "caught",
        "winner_team",
    )
    readonly_fields = fields
    can_delete = False


@admin.register(Match)
class MatchAdmin(ReadOnlyAdmin):
    list_display = (
        "table",
        "phase",
        "round_no",
        "level_team0",
        "level_team1",
        "winner_team",
        "version",
        "started_at",
    )
    list_filter = ("phase",)
    fields = (
        "table",
        "public_seed",
        "phase",
        "round_no",
        "level_team0",
        "level_team1",
        "version",
        "deadline",
        "deadline_kind",
        "winner_team",
        "started_at",
        "finished_at",
    )
    readonly_fields = fields
    inlines = [RoundInline]

    @admin.display(description=_("seed"))
    def public_seed(self, match: Match) -> str:
        return str(match.seed) if match.is_over else str(_("hidden until the match is over"))


@admin.register(Move)
class MoveAdmin(ReadOnlyAdmin):
    list_display = ("match", "seq", "round_no", "seat", "public_action", "created_at")
    list_filter = ("round_no",)
    fields = ("match", "seq", "round_no", "seat", "public_action", "created_at")
    readonly_fields = fields

    @admin.display(description=_("action"))
    def public_action(self, move: Move) -> str:
        if not move.match.is_over:
            # the cards stay hidden while the match is live
            return str(move.action.get("type", ""))
        return str(move.action)


@admin.register(TributeRecord)
class TributeRecordAdmin(ReadOnlyAdmin):
    list_display = ("match", "round_no", "payer", "receiver", "card", "returned_card")


# Chat reports for the staff: the reported line as it was said, who said it, who reported it.
@admin.register(ChatReport)
class ChatReportAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("created_at", "author", "said", "table", "reporter", "handled")
    list_filter = ("handled",)
    list_editable = ("handled",)
    list_select_related = ("line__author", "line__table", "reporter")
    readonly_fields = ("line", "reporter", "created_at")
    search_fields = ("line__author__username", "reporter__username", "line__text")

    @admin.display(description=_("author"))
    def author(self, report: ChatReport) -> str:
        return report.line.author.username

    @admin.display(description=_("line"))
    def said(self, report: ChatReport) -> str:
        return report.line.shown()

    @admin.display(description=_("table"))
    def table(self, report: ChatReport) -> str:
        return str(report.line.table)


@admin.register(ChatLine)
class ChatLineAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("created_at", "table", "room", "author", "phrase", "text")
    list_filter = ("room",)
    list_select_related = ("table", "author")
    search_fields = ("author__username", "text")
    raw_id_fields = ("table", "author")
