from typing import Any

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.db import IntegrityError
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext_lazy as _

from accounts.forms import AdminLoginForm
from accounts.models import AccessToken, Follow, User

# The admin's log-in says when too many failures locked it out (accounts.throttle).
admin.site.login_form = AdminLoginForm


@admin.register(User)
# UserAdmin and ModelAdmin are generic in django-stubs only (subscripting them raises at runtime
# without django_stubs_ext.monkeypatch(), not installed): bare bases, each ignore for this.
class PlayerAdmin(UserAdmin):  # type: ignore[type-arg]
    fieldsets = (
        *(UserAdmin.fieldsets or ()),
        (
            _("Preferences"),
            {
                "fields": (
                    "language",
                    "sound_on",
                    "title_alerts",
                    "auto_pass_hooks",
                    "confirm_play",
                    "card_tracker",
                    "effect_sounds",
                    "animations",
                    "email_notices",
                    "is_bot",
                )
            },
        ),
    )
    list_display = ("username", "email", "language", "is_staff", "date_joined")

    def changeform_view(
        self,
        request: HttpRequest,
        object_id: str | None = None,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        """Django's add and change pages, where a name another request saved a moment before
        (the same one, or a look-alike: the key is unique, ``accounts.usernames``) is the
        form's error, not a 500. The database refused the save after the form's checks had
        passed; the other account is committed by then, so the page is made once more and the
        form's own checks (``User.clean``, the username's uniqueness) now say why."""
        try:
            return super().changeform_view(request, object_id, form_url, extra_context)
        except IntegrityError:
            if request.method != "POST":
                raise
            return super().changeform_view(request, object_id, form_url, extra_context)


@admin.register(Follow)
class FollowAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("follower", "followed", "created_at")
    raw_id_fields = ("follower", "followed")


@admin.register(AccessToken)
class AccessTokenAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Tokens as their owners see them (never the token, nor its hash): staff can revoke one
    by setting ``revoked_at``."""

    list_display = ("name", "user", "prefix", "scope", "created_at", "last_used_at", "revoked_at")
    list_filter = ("scope",)
    search_fields = ("user__username", "name", "prefix")
    fields = ("user", "name", "prefix", "scope", "created_at", "last_used_at", "revoked_at")
    readonly_fields = ("user", "name", "prefix", "scope", "created_at", "last_used_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # made on the owner's profile page only: shown once, to its owner
