"""Chat reports for the staff: the reported line as it was said, who said it, who reported it."""

from __future__ import annotations

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from social.models import ChatLine, ChatReport, Follow


@admin.register(ChatReport)
class ChatReportAdmin(admin.ModelAdmin):
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
class ChatLineAdmin(admin.ModelAdmin):
    list_display = ("created_at", "table", "room", "author", "phrase", "text")
    list_filter = ("room",)
    list_select_related = ("table", "author")
    search_fields = ("author__username", "text")
    raw_id_fields = ("table", "author")


@admin.register(Follow)
class FollowAdmin(admin.ModelAdmin):
    list_display = ("follower", "followed", "created_at")
    raw_id_fields = ("follower", "followed")
