from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.utils.translation import gettext_lazy as _

from accounts.forms import AdminLoginForm
from accounts.models import User

# The admin's log-in says when too many failures locked it out (accounts.throttle).
admin.site.login_form = AdminLoginForm


@admin.register(User)
class PlayerAdmin(UserAdmin):
    fieldsets = (
        *UserAdmin.fieldsets,
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
                )
            },
        ),
    )
    list_display = ("username", "email", "language", "is_staff", "date_joined")
