"""Admin for tables and matches: read-only records, and never a hand (the brief's secrecy rule).

``Match.state`` holds every hand, and a move's events can hold a pending claim's cards, so
neither is ever displayed here; moves show their action only once the match is over.
"""

from __future__ import annotations

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from games.models import Match, Move, Round, Seat, Table, TributeRecord


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("number", "user", "ai_policy")
    readonly_fields = ("number",)
    can_delete = False


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("name", "host", "players", "status", "visibility", "rated", "created_at")
    list_filter = ("status", "visibility", "rated", "players")
    search_fields = ("name", "host__username")
    readonly_fields = ("invite_code", "created_at")
    inlines = [SeatInline]


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


class RoundInline(admin.TabularInline):
    model = Round
    extra = 0
    fields = ("number", "level", "levels_before", "levels_after", "finish_order", "caught",
              "winner_team")
    readonly_fields = fields
    can_delete = False


@admin.register(Match)
class MatchAdmin(ReadOnlyAdmin):
    list_display = ("table", "phase", "round_no", "level_team0", "level_team1", "winner_team",
                    "version", "started_at")
    list_filter = ("phase",)
    fields = ("table", "seed", "phase", "round_no", "level_team0", "level_team1", "version",
              "deadline", "deadline_kind", "winner_team", "started_at", "finished_at")
    readonly_fields = fields
    inlines = [RoundInline]


@admin.register(Move)
class MoveAdmin(ReadOnlyAdmin):
    list_display = ("match", "seq", "round_no", "seat", "public_action", "created_at")
    list_filter = ("round_no",)
    fields = ("match", "seq", "round_no", "seat", "public_action", "created_at")
    readonly_fields = fields

    @admin.display(description=_("action"))
    def public_action(self, move: Move) -> str:
        if not move.match.is_over:
            return move.action.get("type", "")  # the cards stay hidden while the match is live
        return str(move.action)


@admin.register(TributeRecord)
class TributeRecordAdmin(ReadOnlyAdmin):
    list_display = ("match", "round_no", "payer", "receiver", "card", "returned_card")
