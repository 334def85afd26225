"""Usernames that look like another one are refused wherever a name is chosen or changed
(accounts.usernames, User.clean): the sign-up form, the admin's add and change forms."""

from __future__ import annotations

import html

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from accounts import usernames
from accounts.models import User

pytestmark = pytest.mark.django_db


def sign_up(username: str, password: str, language: str = "en"):
    return Client().post(
        reverse("signup"),
        {"username": username, "password1": password, "password2": password},
        HTTP_ACCEPT_LANGUAGE=language,
    )


def page(response) -> str:
    return html.unescape(response.content.decode())


def message(text, language: str = "en") -> str:
    with translation.override(language):
        return str(text)


@pytest.mark.parametrize(
    "taken, lookalike, refusal",
    [
        ("alice", "\u0430lice", usernames.MIXED_SCRIPT_MESSAGE),  # Cyrillic а
        ("bob", "b\u043eb", usernames.MIXED_SCRIPT_MESSAGE),  # Cyrillic о
        ("coco", "\u0441\u043e\u0441\u043e", usernames.LOOKALIKE_MESSAGE),  # all Cyrillic
        ("BOB", "\u0412\u041e\u0412", usernames.LOOKALIKE_MESSAGE),  # Cyrillic ВОВ
        ("mary", "rnary", usernames.LOOKALIKE_MESSAGE),  # rn for m
        ("alice", "a1ice", usernames.LOOKALIKE_MESSAGE),  # 1 for l
        ("alice", "\u0391lice", usernames.MIXED_SCRIPT_MESSAGE),  # Greek Α, another case
    ],
)
def test_a_lookalike_of_a_taken_name_is_refused_at_sign_up(
    make_user, password, taken, lookalike, refusal
):
    make_user(taken)
    response = sign_up(lookalike, password)
    assert response.status_code == 200
    assert message(refusal) in page(response)
    assert User.objects.count() == 1


def test_a_mixed_script_name_is_refused_even_when_nobody_has_its_lookalike(password):
    response = sign_up("p\u0430ul", password)  # Cyrillic а in a Latin name
    assert message(usernames.MIXED_SCRIPT_MESSAGE) in page(response)
    assert not User.objects.exists()


def test_a_fullwidth_name_is_normalised_and_then_taken(make_user, password):
    """NFKC first: "ｂｏｂ" is "bob", which is taken (Django's own message)."""
    make_user("bob")
    response = sign_up("\uff42\uff4f\uff42", password)
    assert "A user with that username already exists." in page(response)
    assert User.objects.count() == 1


@pytest.mark.parametrize(
    "name", ["Nguyễn.Văn", "José", "たなか太郎", "山田Taro", "김민수", "Иван", "player_1", "anna"]
)
def test_names_in_one_script_or_an_allowed_mix_are_welcome(make_user, password, name):
    """Vietnamese and Spanish letters, Japanese (Hiragana with Han, Latin with Han), Korean,
    Cyrillic alone, digits and punctuation: accepted, also beside look-different names."""
    make_user("ana")
    assert sign_up(name, password).status_code == 302
    assert User.objects.get(username=name).username_key == usernames.lookalike_key(name)


@pytest.mark.parametrize("language", ["es", "id", "vi"])
def test_the_refusals_are_said_in_the_page_language(make_user, password, language):
    make_user("coco")
    for name, refusal in (
        ("\u0441\u043e\u0441\u043e", usernames.LOOKALIKE_MESSAGE),
        ("b\u043eb", usernames.MIXED_SCRIPT_MESSAGE),
    ):
        text = message(refusal, language)
        assert text != message(refusal, "en")  # translated
        assert text in page(sign_up(name, password, language=language))


def test_the_admin_cannot_add_or_rename_to_a_lookalike(client, make_user, password):
    """Staff adding a user, or renaming one, get the same refusal on the admin's form; a
    rename to an unrelated name works."""
    make_user("alice")
    carol = make_user("carol")
    staff = make_user("boss", is_staff=True, is_superuser=True)
    client.force_login(staff)
    added = client.post(
        reverse("admin:accounts_user_add"),
        {
            "username": "\u0430lice",
            "usable_password": "true",
            "password1": password,
            "password2": password,
        },
    )
    assert added.status_code == 200
    assert message(usernames.MIXED_SCRIPT_MESSAGE) in page(added)
    change = reverse("admin:accounts_user_change", args=[carol.pk])
    form = client.get(change).context["adminform"].form
    data = {k: v for k, v in form.initial.items() if v is not None and not isinstance(v, list)}
    data.update(date_joined_0="2026-01-01", date_joined_1="00:00:00", language="")
    renamed = client.post(change, {**data, "username": "a1ice"})
    assert renamed.status_code == 200
    assert message(usernames.LOOKALIKE_MESSAGE) in page(renamed)
    assert User.objects.get(pk=carol.pk).username == "carol"
    assert client.post(change, {**data, "username": "caroline"}).status_code == 302
    carol.refresh_from_db()
    assert carol.username == "caroline"
    assert carol.username_key == usernames.lookalike_key("caroline")


def test_an_account_whose_name_predates_the_rule_still_saves(client, make_user, password):
    """A look-alike made before the check (or by code that skips the forms) keeps working:
    its preferences save; only a change of name is checked."""
    make_user("bob")
    old = make_user("b\u043eb")  # create_user runs no form
    client.force_login(old)
    response = client.post(reverse("preferences"), {"language": "es"})
    assert response.status_code == 302
    old.refresh_from_db()
    assert old.language == "es"


def test_refresh_keys_recomputes_every_key(make_user):
    """What the migration runs (and a data migration after an upgrade of the tables)."""
    user = make_user("coco")
    User.objects.filter(pk=user.pk).update(username_key="stale")
    assert usernames.refresh_keys(User) == 1
    user.refresh_from_db()
    assert user.username_key == usernames.lookalike_key("coco") == "coco"
