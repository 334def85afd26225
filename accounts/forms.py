"""Forms for sign-up, log-in (Django's, with the lockout error) and preferences; the other auth
forms are Django's own."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.core.exceptions import ValidationError
from django.core.validators import MaxLengthValidator
from django.utils.translation import gettext_lazy as _

from accounts import throttle, usernames
from accounts.models import User

# Profiles live at /accounts/<username>/, so a username must not shadow a page there.
RESERVED_USERNAMES = frozenset(
    {
        "login", "logout", "signup", "preferences", "password_change", "password_reset",
        "reset", "admin", "tokens", "bot",
    }
)  # fmt: skip


class LockoutErrorMixin(AuthenticationForm):
    """An authentication form that says so when the log-in was refused for too many failures
    (``accounts.throttle``), instead of "wrong username or password": for the username from
    this address (django-axes), or from this address whatever the username (password spraying).

    An attempt takes its place in the address's count before the password is checked and gives
    it back when it succeeds; a refused page is answered 429 with Retry-After.

    Put it first among the bases (it is an ``AuthenticationForm`` itself, so that what it calls
    of the form is typed; the admin's form comes after it in the MRO, as before)."""

    def clean(self) -> dict[str, Any]:
        username = self.cleaned_data.get("username")
        password = self.cleaned_data.get("password")
        if self.request is None or username is None or not password:
            return super().clean()  # no address to count, or nothing tried (fields say what)
        usage = throttle.take_login(self.request)
        if usage is not None and usage.over:
            throttle.refuse(self.request, usage.retry_after)
            raise ValidationError(throttle.address_lockout_message(usage), code="address_locked")
        try:
            cleaned = super().clean()
        except ValidationError:
            if throttle.locked_out(self.request):
                throttle.lockout_shown(self.request)
                raise ValidationError(throttle.lockout_message(), code="locked_out") from None
            raise
        throttle.give_back_login(self.request)
        return cleaned


class LoginForm(LockoutErrorMixin, AuthenticationForm):
    """The site's log-in form."""


class AdminLoginForm(LockoutErrorMixin, AdminAuthenticationForm):
    """The admin's log-in form."""


# UserCreationForm and ModelForm are generic in django-stubs only (subscripting them raises at
# runtime without django_stubs_ext.monkeypatch(), not installed): bare bases, ignored for this.
class SignUpForm(UserCreationForm):  # type: ignore[type-arg]
    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")
        help_texts = {"email": _("Optional; needed only to reset a forgotten password.")}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The browser stops at the limit the model's clean enforces (accounts.usernames).
        field = self.fields["username"]
        field.widget.attrs["maxlength"] = str(usernames.MAX_LENGTH)
        # One limit, one message, whatever the length: Django's field (150, the column's) said
        # "at most 150 characters" to a 300-character name, the help and a 100-character name 30.
        field.validators = [
            v for v in field.validators if not isinstance(v, MaxLengthValidator)
        ] + [usernames.check_length]
        field.help_text = _("Up to %(limit)d characters: letters, digits and @ . + - _ only.") % {
            "limit": usernames.MAX_LENGTH
        }

    def clean_username(self) -> str:
        # Django's check for a taken name (any case) adds its error and returns None.
        username = super().clean_username()
        if username and username.lower() in RESERVED_USERNAMES:
            raise ValidationError(_("This username is reserved. Please choose another."))
        return username


class PreferencesForm(forms.ModelForm):  # type: ignore[type-arg]
    class Meta:
        model = User
        fields = (
            "language",
            "sound_on",
            "title_alerts",
            "auto_pass_hooks",
            "confirm_play",
            "card_tracker",
            "email_notices",
            "effect_sounds",
            "animations",
        )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The empty choice says what it does, in the page's language.
        # a model field with choices: its form field is a TypedChoiceField
        language = cast(forms.ChoiceField, self.fields["language"])
        language.choices = [("", _("Follow my browser")), *settings.LANGUAGES]
