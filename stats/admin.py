"""Read-only admin pages for the site ratings: ``stats.record`` alone writes them."""

from django.contrib import admin

from stats.models import SiteRating


@admin.register(SiteRating)
class SiteRatingAdmin(admin.ModelAdmin):
    list_display = ("user", "display", "matches", "wins", "updated_at")
    search_fields = ("user__username",)
    readonly_fields = ("user", "mu", "sigma", "ordinal", "matches", "wins", "updated_at")

    def has_add_permission(self, request) -> bool:
        return False
