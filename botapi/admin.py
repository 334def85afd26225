from django.contrib import admin

from botapi.models import AccessToken


@admin.register(AccessToken)
class AccessTokenAdmin(admin.ModelAdmin):
    """Tokens as their owners see them (never the token, nor its hash): staff can revoke one
    by setting ``revoked_at``."""

    list_display = ("name", "user", "prefix", "scope", "created_at", "last_used_at", "revoked_at")
    list_filter = ("scope",)
    search_fields = ("user__username", "name", "prefix")
    fields = ("user", "name", "prefix", "scope", "created_at", "last_used_at", "revoked_at")
    readonly_fields = ("user", "name", "prefix", "scope", "created_at", "last_used_at")

    def has_add_permission(self, request) -> bool:
        return False  # made on the owner's profile page only: shown once, to its owner
