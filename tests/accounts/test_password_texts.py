"""Django's own messages on the sign-up and password pages read in the site's register
(``accounts.django_messages``): our catalogues hold them, and win over Django's."""

from __future__ import annotations

from html import unescape
from pathlib import Path

import django
import polib
import pytest
from django.urls import reverse
from django.utils import translation

from accounts.django_messages import MESSAGES, PLURALS

pytestmark = pytest.mark.django_db

DJANGO = Path(django.__file__).parent


def test_every_override_is_one_of_djangos_msgids() -> None:
    """A msgid Django changed would be ours alone, and its page would show Django's again."""
    theirs = {
        entry.msgid
        for catalogue in ("contrib/auth/locale", "conf/locale")
        for entry in polib.pofile(str(DJANGO / catalogue / "es/LC_MESSAGES/django.po"))
    }
    with translation.override(None):  # no catalogue: each plural gives its msgid
        ours = [*MESSAGES, *(str(plural) for plural in PLURALS)]
    assert [msgid for msgid in ours if msgid not in theirs] == []


def signup_page(client, language: str, data: dict | None = None) -> str:
    client.cookies["django_language"] = language
    if data is None:
        return unescape(client.get(reverse("signup")).content.decode())
    return unescape(client.post(reverse("signup"), data).content.decode())


def test_spanish_password_rules_say_tu(client) -> None:
    html = signup_page(client, "es")
    assert "Tu contraseña no puede parecerse demasiado a tus otros datos personales." in html
    assert "Tu contraseña debe tener al menos 8 caracteres." in html
    assert "Escribe otra vez la misma contraseña, para comprobarla." in html
    assert "Su contraseña" not in html and "introduzca" not in html.lower()
    html = signup_page(
        client, "es", {"username": "a b", "email": "x", "password1": "1", "password2": "2"}
    )
    assert "Escribe una dirección de correo electrónico válida." in html
    assert "Escribe un nombre de usuario válido" in html
    assert "Las dos contraseñas no coinciden." in html
    assert "Introduza" not in html and "Introduzca" not in html


def test_spanish_password_change_says_tu(client, make_user) -> None:
    client.force_login(make_user("ana", language="es"))
    html = unescape(
        client.post(
            reverse("password_change"),
            {"old_password": "wrong", "new_password1": "12345", "new_password2": "12345"},
        ).content.decode()
    )
    assert "Tu contraseña antigua no es correcta. Escríbela otra vez." in html
    assert "La contraseña es demasiado corta: debe tener al menos 8 caracteres." in html
    assert "Esta contraseña solo tiene números." in html
    assert "Su contraseña" not in html and "vuelva a" not in html


def test_indonesian_and_vietnamese_password_rules_read_as_the_site_does(client) -> None:
    """Indonesian: "Anda" and "kata sandi", as the site's own strings (Django's said "Sandi
    anda"); Vietnamese: the too-short error, which Django's catalogue leaves in English."""
    html = signup_page(client, "id")
    assert "Kata sandi Anda tidak boleh hanya berisi angka." in html
    assert " anda " not in html and "Sandi anda" not in html
    short = {"username": "bo", "email": "", "password1": "x9", "password2": "x9"}
    assert "Kata sandi ini terlalu pendek" in signup_page(client, "id", short)
    html = signup_page(client, "vi", short)
    assert "Mật khẩu này quá ngắn: phải có ít nhất 8 ký tự." in html
    assert "This password is too short" not in html
