"""Log-in lockout (django-axes) and sign-up limits (django-ratelimit) through the real views,
PostgreSQL and the Redis cache (accounts.throttle)."""

from __future__ import annotations

import datetime
import html

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from accounts import throttle
from accounts.models import User
from tests.accounts.races import RACE_HASHERS, at_once

pytestmark = pytest.mark.django_db

WRONG = "not-the-password-at-all"


def log_in(
    client: Client,
    username: str,
    password: str,
    address: str = "10.0.0.1",
    language: str = "en",
    path: str | None = None,
    real_ip: str | None = None,
):
    extra = {"HTTP_X_REAL_IP": real_ip} if real_ip else {}
    return client.post(
        path or reverse("login"),
        {"username": username, "password": password},
        REMOTE_ADDR=address,
        HTTP_ACCEPT_LANGUAGE=language,
        **extra,
    )


def signed_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


def errors_of(response) -> str:
    return html.unescape(response.content.decode())


def lockout_in(language: str) -> str:
    with translation.override(language):
        return throttle.lockout_message()


def test_after_the_limit_the_right_password_is_refused_with_the_message(client, user, password):
    """``AXES_FAILURE_LIMIT`` wrong passwords, then the right one: refused on the form (429,
    with the cool-off as its Retry-After), with the lockout sentence, and nobody is logged
    in."""
    limit = settings.AXES_FAILURE_LIMIT
    for attempt in range(limit - 1):
        response = log_in(client, user.username, WRONG)
        assert response.status_code == 200
        assert lockout_in("en") not in errors_of(response), attempt
    response = log_in(client, user.username, WRONG)  # the limit: locked from now on
    assert lockout_in("en") in errors_of(response)
    response = log_in(client, user.username, password)
    assert response.status_code == 429
    assert response["Retry-After"] == str(round(settings.AXES_COOLOFF_TIME * 3600))
    page = errors_of(response)
    assert lockout_in("en") in page and "Too many failed log-ins" in page
    assert 'role="alert"' in page and "<form" in page  # the log-in form, with its error
    assert not signed_in(client)


@pytest.mark.parametrize("language", ["es", "id", "vi"])
def test_the_lockout_is_said_in_the_page_language(client, user, password, language):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        log_in(client, user.username, WRONG, language=language)
    response = log_in(client, user.username, password, language=language)
    message = lockout_in(language)
    assert message != lockout_in("en")  # translated
    assert message in errors_of(response)
    assert not signed_in(client)


def test_the_lockout_is_per_username_and_address(client, make_user, user, password):
    """Another address logs the same player in; the same address logs another player in."""
    other = make_user("other")
    for _ in range(settings.AXES_FAILURE_LIMIT):
        log_in(client, user.username, WRONG, address="10.0.0.1")
    assert log_in(Client(), user.username, password, address="10.0.0.2").status_code == 302
    assert log_in(Client(), other.username, password, address="10.0.0.1").status_code == 302


def test_the_lockout_ends_after_the_cool_off(client, user, password):
    """Once ``AXES_COOLOFF_TIME`` has passed since the last failure, the right password works
    (the attempts are moved into the past instead of waiting)."""
    for _ in range(settings.AXES_FAILURE_LIMIT):
        log_in(client, user.username, WRONG)
    assert not signed_in(client)
    cool_off = datetime.timedelta(hours=settings.AXES_COOLOFF_TIME)
    AccessAttempt.objects.update(
        attempt_time=datetime.datetime.now(datetime.UTC) - cool_off - datetime.timedelta(seconds=1)
    )
    assert log_in(client, user.username, password).status_code == 302
    assert signed_in(client)


def test_a_success_starts_the_count_again(client, user, password):
    """Failures short of the limit, a success, then as many again: never locked."""
    for _ in range(2):
        for _ in range(settings.AXES_FAILURE_LIMIT - 1):
            log_in(client, user.username, WRONG)
        assert log_in(client, user.username, password).status_code == 302
        client.post(reverse("logout"))


def test_the_admin_log_in_shows_the_lockout_too(client, make_user, password):
    staff = make_user("boss", is_staff=True, is_superuser=True)
    path = reverse("admin:login")
    for _ in range(settings.AXES_FAILURE_LIMIT):
        log_in(client, staff.username, WRONG, path=path)
    response = log_in(client, staff.username, password, path=path)
    assert response.status_code == 429 and response["Retry-After"]
    assert lockout_in("en") in errors_of(response)
    assert not signed_in(client)


def test_the_client_address_is_the_sockets_one(rf, settings):
    """As the socket caps name it: behind a trusted proxy its X-Real-IP, else the last
    X-Forwarded-For entry (what nginx appended; a value the client sent, to the left, changes
    nothing); from any other peer the peer itself; an IPv6 client by its /64."""
    settings.GAMES_TRUSTED_PROXIES = ["127.0.0.1"]
    spoof = "6.6.6.6, 203.0.113.7"
    behind = rf.post("/", HTTP_X_FORWARDED_FOR=spoof, REMOTE_ADDR="127.0.0.1")
    assert throttle.client_ip(behind) == "203.0.113.7"
    real = rf.post(
        "/", HTTP_X_REAL_IP="198.51.100.4", HTTP_X_FORWARDED_FOR=spoof, REMOTE_ADDR="127.0.0.1"
    )
    assert throttle.client_ip(real) == "198.51.100.4"
    direct = rf.post(
        "/", HTTP_X_REAL_IP="6.6.6.6", HTTP_X_FORWARDED_FOR=spoof, REMOTE_ADDR="192.0.2.9"
    )
    assert throttle.client_ip(direct) == "192.0.2.9"
    six = rf.post("/", REMOTE_ADDR="2001:db8:1:2:aaaa:bbbb:cccc:dddd")
    assert throttle.client_ip(six) == "2001:db8:1:2::"


def test_locked_out_behind_the_proxy_by_the_clients_address(client, user, password):
    """Through nginx (peer 127.0.0.1) every client has the same peer: the lockout still counts
    each by its X-Real-IP."""
    for _ in range(settings.AXES_FAILURE_LIMIT):
        log_in(client, user.username, WRONG, address="127.0.0.1", real_ip="198.51.100.4")
    assert not signed_in(client)
    locked = log_in(Client(), user.username, password, address="127.0.0.1", real_ip="198.51.100.4")
    assert lockout_in("en") in errors_of(locked)
    other = log_in(Client(), user.username, password, address="127.0.0.1", real_ip="198.51.100.5")
    assert other.status_code == 302


# --- sign-up -----------------------------------------------------------------------------------


def sign_up(
    client: Client,
    username: str,
    password: str,
    address: str = "10.0.0.9",
    language: str = "en",
    confirm: str | None = None,
):
    return client.post(
        reverse("signup"),
        {"username": username, "password1": password, "password2": confirm or password},
        REMOTE_ADDR=address,
        HTTP_ACCEPT_LANGUAGE=language,
    )


def test_a_sign_up_flood_is_refused_with_the_message(settings, password):
    """Three accounts an hour per address (here): the fourth is refused on the form and not
    created; another address still signs up; forms sent back with a mistake do not count."""
    settings.ACCOUNTS_SIGNUP_RATE = "3/h"
    assert sign_up(Client(), "typo", password, confirm=WRONG).status_code == 200  # no account
    for n in range(3):
        assert sign_up(Client(), f"new{n}", password).status_code == 302
    response = sign_up(Client(), "one_too_many", password)
    assert response.status_code == 429
    assert 0 < int(response["Retry-After"]) <= 3600
    assert throttle.signup_message() in errors_of(response)
    assert "<form" in errors_of(response)
    assert not User.objects.filter(username="one_too_many").exists()
    assert sign_up(Client(), "elsewhere", password, address="10.0.0.10").status_code == 302


@pytest.mark.parametrize("language", ["es", "id", "vi"])
def test_the_sign_up_refusal_is_said_in_the_page_language(settings, password, language):
    settings.ACCOUNTS_SIGNUP_RATE = "1/h"
    assert sign_up(Client(), "first", password, language=language).status_code == 302
    response = sign_up(Client(), "second", password, language=language)
    with translation.override(language):
        message = throttle.signup_message()
    with translation.override("en"):
        assert message != throttle.signup_message()  # translated
    assert message in errors_of(response)


@pytest.mark.django_db(transaction=True)
async def test_the_lockout_is_a_form_error_under_asgi_too(async_client, make_user, password):
    """Through Django's ASGI handler (as under Daphne), where AxesMiddleware runs its async
    path: still the log-in page with the sentence (429), not axes' own response."""
    from asgiref.sync import sync_to_async

    user = await sync_to_async(make_user)("asgi_player")
    data = {"username": user.username, "password": WRONG}
    for _ in range(settings.AXES_FAILURE_LIMIT):
        await async_client.post(reverse("login"), data)
    response = await async_client.post(
        reverse("login"), {"username": user.username, "password": password}
    )
    assert response.status_code == 429
    page = errors_of(response)
    assert lockout_in("en") in page and "<form" in page


# --- at once: threads through the real views, PostgreSQL and Redis ----------------------------
# (tests/accounts/races.py: the threads, and a hasher cheap enough for 25 at once)


@pytest.mark.django_db(transaction=True)
def test_sign_ups_sent_at_once_make_exactly_the_limit(settings, password):
    """50 sign-ups from one address, 25 at a time, with a real password hasher (its cost is
    the gap the race went through): exactly ``ACCOUNTS_SIGNUP_RATE``'s 10 accounts; every other
    sign-up is the form with the refusal, 429 with a Retry-After, never a 500. (Counting after
    the hashing, as before, made 31 of 50 on the site.)"""
    settings.PASSWORD_HASHERS = RACE_HASHERS
    settings.ACCOUNTS_SIGNUP_RATE = "10/h"
    answers = []
    for batch in range(2):
        answers += at_once(
            25, lambda n, batch=batch: sign_up(Client(), f"racer{batch}_{n}", password)
        )
    assert not [a for a in answers if isinstance(a, Exception)]
    statuses = sorted(a.status_code for a in answers)
    assert statuses == [302] * 10 + [429] * 40
    assert User.objects.filter(username__startswith="racer").count() == 10
    refused = [a for a in answers if a.status_code == 429]
    assert all(a["Retry-After"] and throttle.signup_message() in errors_of(a) for a in refused)


@pytest.mark.django_db(transaction=True)
def test_one_name_signed_up_at_once_is_one_account_and_form_errors(settings, password):
    """Eight sign-ups of one new name at the same moment (each passes the form's "taken?"
    check before any is saved): one account; the others get the form back with "already
    exists", never a 500, and their places in the address's count are given back."""
    settings.PASSWORD_HASHERS = RACE_HASHERS
    settings.ACCOUNTS_SIGNUP_RATE = "9/h"
    answers = at_once(8, lambda n: sign_up(Client(), "samename", password))
    assert not [a for a in answers if isinstance(a, Exception)]
    assert sorted(a.status_code for a in answers) == [200] * 7 + [302]
    assert User.objects.filter(username="samename").count() == 1
    for answer in answers:
        if answer.status_code == 200:
            assert "already exists" in errors_of(answer)
    # 1 account made: 8 more may come from this address (the refused ones gave theirs back).
    assert [sign_up(Client(), f"after{n}", password).status_code for n in range(9)] == [302] * 8 + [
        429
    ]


# --- password spraying: failed log-ins per address, whatever the username ---------------------


def spray_message(language: str = "en") -> str:
    """The address refusal's sentence, up to its minutes."""
    with translation.override(language):
        return throttle.address_lockout_message(throttle.Usage(1, 0, 3600)).split(".")[0]


def test_spraying_many_usernames_from_one_address_is_refused(settings, make_user, password):
    """One wrong password each for many usernames stays under axes' count per username, not
    under the address's: past ``ACCOUNTS_LOGIN_ADDRESS_RATE`` failures every log-in from the
    address is refused (the right password too: a sprayer must not learn which guess was
    right), 429 with a Retry-After and the sentence; another address logs in."""
    settings.ACCOUNTS_LOGIN_ADDRESS_RATE = "4/h"
    victim = make_user("victim")
    for n in range(4):
        response = log_in(Client(), f"someone{n}", WRONG, address="10.0.0.66")
        assert response.status_code == 200 and spray_message() not in errors_of(response)
    refused = log_in(Client(), victim.username, password, address="10.0.0.66")
    assert refused.status_code == 429
    assert 0 < int(refused["Retry-After"]) <= 3600
    assert spray_message() in errors_of(refused) and "<form" in errors_of(refused)
    assert "_auth_user_id" not in refused.client.session
    assert log_in(Client(), victim.username, password, address="10.0.0.67").status_code == 302
    # axes recorded the four failures, none of the refused attempt (it was never tried).
    assert AccessAttempt.objects.filter(ip_address="10.0.0.66").count() == 4


def test_log_ins_that_succeed_do_not_count(settings, make_user, password):
    """Many players behind one address (a school, a café) logging in: successes give their
    place back, so only failures add up."""
    settings.ACCOUNTS_LOGIN_ADDRESS_RATE = "2/h"
    players = [make_user(f"pupil{n}") for n in range(6)]
    for player in players:
        assert log_in(Client(), player.username, password, address="10.0.0.70").status_code == 302
    assert log_in(Client(), "nobody", WRONG, address="10.0.0.70").status_code == 200
    assert log_in(Client(), players[0].username, password, address="10.0.0.70").status_code == 302


@pytest.mark.parametrize("language", ["es", "id", "vi"])
def test_the_address_refusal_is_said_in_the_page_language(settings, password, language):
    settings.ACCOUNTS_LOGIN_ADDRESS_RATE = "1/h"
    log_in(Client(), "someone", WRONG, address="10.0.0.80", language=language)
    response = log_in(Client(), "another", WRONG, address="10.0.0.80", language=language)
    assert response.status_code == 429
    assert spray_message(language) != spray_message("en")  # translated
    assert spray_message(language) in errors_of(response)


def test_the_admin_log_in_counts_against_the_address_too(settings, make_user, password):
    settings.ACCOUNTS_LOGIN_ADDRESS_RATE = "2/h"
    staff = make_user("boss", is_staff=True, is_superuser=True)
    path = reverse("admin:login")
    for n in range(2):
        log_in(Client(), f"admin{n}", WRONG, address="10.0.0.90", path=path)
    response = log_in(Client(), staff.username, password, address="10.0.0.90", path=path)
    assert response.status_code == 429 and spray_message() in errors_of(response)


@pytest.mark.django_db(transaction=True)
def test_failed_log_ins_sent_at_once_stop_at_the_limit(settings):
    """30 wrong passwords for 30 usernames from one address at the same moment: exactly
    ``ACCOUNTS_LOGIN_ADDRESS_RATE``'s 5 are checked (axes records a failure for each), the 25
    others refused with 429 before their password is looked at."""
    settings.ACCOUNTS_LOGIN_ADDRESS_RATE = "5/h"
    answers = at_once(30, lambda n: log_in(Client(), f"sprayed{n}", WRONG, address="10.0.0.99"))
    assert not [a for a in answers if isinstance(a, Exception)]
    assert sorted(a.status_code for a in answers) == [200] * 5 + [429] * 25
    assert AccessAttempt.objects.filter(ip_address="10.0.0.99").count() == 5
