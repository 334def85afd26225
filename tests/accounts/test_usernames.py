"""Usernames that look like another one are refused wherever a name is chosen or changed
(accounts.usernames, User.clean): the sign-up form, the admin's add and change forms."""

from __future__ import annotations

import html

import pytest
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse
from django.utils import translation

from accounts import usernames
from accounts.models import User
from tests.accounts.races import RACE_HASHERS, at_once

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
        ("qa_bob", "qa.bob", usernames.LOOKALIKE_MESSAGE),  # a dot for the underscore
        ("qa_bob", "QA-bob", usernames.LOOKALIKE_MESSAGE),  # a hyphen, another case
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


def predating_lookalike(make_user, taken: str, lookalike: str) -> User:
    """An account named ``lookalike`` made before the rule, beside ``taken``: as the
    migrations leave it (``refresh_keys``: the later account's key is "<key>#<id>")."""
    make_user(taken)
    old = make_user(f"placeholder{len(lookalike)}")
    User.objects.filter(pk=old.pk).update(username=lookalike)
    usernames.refresh_keys(User)
    old.refresh_from_db()
    return old


def test_an_account_whose_name_predates_the_rule_still_saves(client, make_user, password):
    """A look-alike made before the check keeps working: its preferences save; only a change
    of name is checked."""
    old = predating_lookalike(make_user, "bob", "b\u043eb")
    assert old.username_key == f"bob#{old.pk}"
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


def test_refresh_keys_gives_the_later_of_two_lookalikes_its_own_key(make_user):
    """What the migration that makes the key unique runs first: the oldest account keeps the
    plain key, each later look-alike gets "<key>#<id>"; run again, nothing changes."""
    coco = make_user("coco")
    others = [make_user(f"other{n}") for n in range(2)]
    for user, name in zip(others, ("\u0441\u043e\u0441\u043e", "COCO"), strict=True):
        User.objects.filter(pk=user.pk).update(username=name, username_key=f"stale{user.pk}")
    assert usernames.refresh_keys(User) == 2
    keys = dict(User.objects.values_list("pk", "username_key"))
    assert keys[coco.pk] == "coco"
    assert [keys[u.pk] for u in others] == [f"coco#{u.pk}" for u in others]
    assert usernames.refresh_keys(User) == 0


@pytest.mark.parametrize("other", ["ALICE", "aLiCe", "AL1CE", "aIice"])
def test_one_name_in_any_case_is_one_key(make_user, other):
    """A capital I reads as "l": "ALICE" once had the key "allce" and "alice" the key
    "alice", so the database let both exist. Every spelling of one name is one key now."""
    make_user("alice")
    with pytest.raises(IntegrityError), transaction.atomic():
        make_user(other)
    assert usernames.lookalike_key(other) == usernames.lookalike_key("alice") == "allce"


def test_the_database_refuses_a_lookalike_saved_without_the_forms(make_user):
    """The key is unique: code that skips the forms cannot make a look-alike either."""
    make_user("alice")
    with pytest.raises(IntegrityError), transaction.atomic():
        make_user("a1ice")  # 1 for l
    assert User.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_lookalikes_signed_up_at_once_make_one_account(settings, password):
    """Eight sign-ups at the same moment of names that look alike (case, 1 or I for l, rn
    for m): each passes the form's checks before any is saved; the key's uniqueness leaves one
    account, the others get the form back with the look-alike refusal (or "already exists"
    for the same name case aside), never a 500."""
    settings.PASSWORD_HASHERS = RACE_HASHERS
    settings.ACCOUNTS_SIGNUP_RATE = "20/h"
    names = [
        "mallory",
        "Mallory",
        "MALLORY",
        "rnallory",
        "ma1lory",
        "mal1ory",
        "maIlory",
        "MAL1ORY",
    ]
    assert len({usernames.lookalike_key(n) for n in names}) == 1
    answers = at_once(len(names), lambda n: sign_up(names[n], password))
    assert not [a for a in answers if isinstance(a, Exception)]
    assert sorted(a.status_code for a in answers) == [200] * 7 + [302]
    assert User.objects.count() == 1
    refusals = (message(usernames.LOOKALIKE_MESSAGE), "A user with that username already exists.")
    assert all(any(r in page(a) for r in refusals) for a in answers if a.status_code == 200)


@pytest.mark.django_db(transaction=True)
def test_renames_to_lookalikes_at_once_in_the_admin_are_form_errors(make_user, password):
    """Staff renaming eight players at the same moment to names that look alike: one rename
    is saved, the seven others are the admin's form with the refusal, never a 500."""
    staff = make_user("boss", is_staff=True, is_superuser=True)
    players = [make_user(f"player{n}") for n in range(8)]
    names = ["trudy", "Trudy", "TRUDY", "TRUdy", "truDY", "tRudy", "trudY", "TrUdY"]

    clients = [Client() for _ in names]
    for client in clients:  # logged in before the race: only the renames run together
        client.force_login(staff)

    def rename(n: int):
        client, player = clients[n], players[n]
        data = {
            "username": names[n],
            "date_joined_0": "2026-01-01",
            "date_joined_1": "00:00:00",
            "is_active": "on",
            "language": "",
        }
        return client.post(reverse("admin:accounts_user_change", args=[player.pk]), data)

    answers = at_once(len(names), rename)
    assert not [a for a in answers if isinstance(a, Exception)]
    assert sorted(a.status_code for a in answers) == [200] * 7 + [302]
    assert User.objects.filter(username__iexact="trudy").count() == 1
    assert all(
        message(usernames.LOOKALIKE_MESSAGE) in page(a) for a in answers if a.status_code == 200
    )


# --- names that pass for a seat at the table -------------------------------------------------


@pytest.mark.parametrize(
    "name",
    [
        "AI", "ai", "Al", "A1", "AI_2", "ai.7", "3AI", "IA", "ia4", "M\u00e1y", "M\u00c1Y2",
        "Seat", "Seat3", "seat_12", "SEAT", "Asiento", "asiento2", "Kursi", "kursi-1",
        "Gh\u1ebf", "Gh\u1ebf5", "\uff21\uff29",  # fullwidth ＡＩ
        "\u0391\u0399",  # Greek ΑΙ
    ],
)  # fmt: skip
def test_a_name_that_passes_for_a_seat_is_refused(password, name):
    response = sign_up(name, password)
    assert response.status_code == 200
    assert message(usernames.RESERVED_MESSAGE) in page(response)
    assert not User.objects.exists()


@pytest.mark.parametrize("name", ["1234", "__", "7.5", "+-"])
def test_a_name_without_a_letter_is_refused(password, name):
    response = sign_up(name, password)
    assert response.status_code == 200
    assert message(usernames.NO_LETTER_MESSAGE) in page(response)
    assert not User.objects.exists()


@pytest.mark.parametrize(
    "name", ["May", "Alice", "Aiden", "Ali", "Seats", "Ghe", "kursiyo", "anna1"]
)
def test_names_near_a_seat_word_are_welcome(password, name):
    assert sign_up(name, password).status_code == 302


def test_spaces_around_a_seat_word_count_as_separators():
    """A username cannot hold a space (Django's validator), but the rule does not rely on it."""
    assert (
        usernames.reserved("AI 2") and usernames.reserved("Seat 3") and usernames.reserved(" Al ")
    )


@pytest.mark.parametrize("language", ["es", "id", "vi"])
def test_the_seat_and_letter_refusals_are_said_in_the_page_language(password, language):
    for name, refusal in (
        ("IA2", usernames.RESERVED_MESSAGE),
        ("123", usernames.NO_LETTER_MESSAGE),
    ):
        text = message(refusal, language)
        assert text != message(refusal, "en")  # translated
        assert text in page(sign_up(name, password, language=language))


def test_the_admin_cannot_rename_a_player_to_a_seat(client, make_user):
    carol = make_user("carol")
    client.force_login(make_user("boss", is_staff=True, is_superuser=True))
    change = reverse("admin:accounts_user_change", args=[carol.pk])
    data = {"date_joined_0": "2026-01-01", "date_joined_1": "00:00:00", "language": ""}
    renamed = client.post(change, {**data, "username": "Seat3"})
    assert renamed.status_code == 200
    assert message(usernames.RESERVED_MESSAGE) in page(renamed)
    assert User.objects.get(pk=carol.pk).username == "carol"


def test_a_name_longer_than_thirty_characters_is_refused_at_sign_up(client, password):
    """A 150-character name ran across every page that listed it; the sign-up form says the
    limit, the browser stops there, and the model's check refuses a longer one."""
    form = client.get("/accounts/signup/").content.decode()
    assert 'maxlength="30"' in form and "Up to 30 characters" in form
    response = client.post(
        "/accounts/signup/",
        {"username": "W" * 31, "password1": password, "password2": password},
    )
    assert response.status_code == 200
    assert "A username may have at most 30 characters." in response.content.decode()
    assert not User.objects.exists()
    response = client.post(
        "/accounts/signup/",
        {"username": "W" * 30, "password1": password, "password2": password},
    )
    assert response.status_code == 302 and User.objects.get().username == "W" * 30


@pytest.mark.parametrize("length", [31, 100, 150, 151, 300])
def test_the_sign_up_form_states_one_limit_whatever_the_length(client, password, length):
    """A 300-character name was refused "at most 150 characters" (Django's field, the column's
    length) while the help and a 100-character name said 30: every name over 30 reads the one
    limit, once, and makes no account."""
    response = client.post(
        "/accounts/signup/",
        {"username": "W" * length, "password1": password, "password2": password},
    )
    assert response.status_code == 200
    text = response.content.decode()
    assert text.count("A username may have at most 30 characters.") == 1
    assert "150" not in text
    assert not User.objects.exists()
