"""Django's own messages that the sign-up, log-in and password pages show, marked here so that
``makemessages`` keeps them in the site's catalogues.

Our catalogues (``LOCALE_PATHS``) win over Django's for the same msgid, so these read in the
site's register: "tú" in Spanish (Django's say "Su contraseña", "introduzca"), "Anda" and
"kata sandi" in Indonesian (Django's "Sandi anda"), and Vietnamese gets the password-too-short
error, which Django's catalogue leaves in English. Each must stay Django's exact msgid (its
curly apostrophes included): tests/accounts/test_password_texts.py checks them against
Django's own catalogue. Nothing imports this module for its values: it is read by
``makemessages`` (and by that test).
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_noop, ngettext_lazy

#: From ``django.contrib.auth``'s forms (labels, help and errors of the sign-up, log-in and
#: password forms), its password validators and its username validator, and
#: ``django.core.validators``' email validator.
MESSAGES: tuple[str, ...] = (
    gettext_noop("Password"),
    gettext_noop("Password confirmation"),
    gettext_noop("Old password"),
    gettext_noop("New password"),
    gettext_noop("New password confirmation"),
    gettext_noop("The two password fields didn’t match."),
    gettext_noop("Enter the same password as before, for verification."),
    gettext_noop("Your old password was entered incorrectly. Please enter it again."),
    gettext_noop("The password is too similar to the %(verbose_name)s."),
    gettext_noop("Your password can’t be too similar to your other personal information."),
    gettext_noop("This password is too common."),
    gettext_noop("Your password can’t be a commonly used password."),
    gettext_noop("This password is entirely numeric."),
    gettext_noop("Your password can’t be entirely numeric."),
    gettext_noop("Enter a valid email address."),
    gettext_noop(
        "Enter a valid username. This value may contain only letters, numbers, and "
        "@/./+/-/_ characters."
    ),
)

#: The two plural messages of ``MinimumLengthValidator`` (its help and its error), lazy:
#: evaluated only by the test (for 1, untranslated, each is its singular msgid).
PLURALS: tuple[Promise, ...] = (
    ngettext_lazy(
        "Your password must contain at least %(min_length)d character.",
        "Your password must contain at least %(min_length)d characters.",
        1,
    ),
    ngettext_lazy(
        "This password is too short. It must contain at least %d character.",
        "This password is too short. It must contain at least %d characters.",
        1,
    ),
)
