"""Personal access tokens: made and revoked on the profile page, stored hashed, shown once."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts import tokens
from accounts.models import AccessToken

pytestmark = pytest.mark.django_db


def test_a_token_is_stored_hashed_and_works_until_revoked(user):
    row, raw = tokens.create(user, "my bot")
    assert raw.startswith("c414_") and len(raw) > 40
    stored = AccessToken.objects.get(pk=row.pk)
    assert raw not in {stored.digest, stored.prefix, stored.name}
    assert stored.digest == tokens.digest(raw) and stored.scope == "play"
    assert tokens.authenticate(raw).user == user
    assert tokens.authenticate(raw + "x") is None
    assert tokens.revoke(user, row.pk)
    assert tokens.authenticate(raw) is None
    assert not tokens.revoke(user, row.pk)  # already revoked: nothing changes


def test_someone_else_cannot_revoke_my_token(user, make_user):
    row, raw = tokens.create(user, "mine")
    assert not tokens.revoke(make_user("other"), row.pk)
    assert tokens.authenticate(raw) is not None


def test_an_inactive_account_token_is_refused(user):
    _row, raw = tokens.create(user, "mine")
    user.is_active = False
    user.save()
    assert tokens.authenticate(raw) is None


def test_a_name_is_needed_and_tokens_are_capped(user):
    with pytest.raises(tokens.TokenError):
        tokens.create(user, "   ")
    for n in range(tokens.MAX_ACTIVE_TOKENS):
        tokens.create(user, f"t{n}")
    with pytest.raises(tokens.TokenError):
        tokens.create(user, "one too many")


def test_the_profile_makes_a_token_shows_it_once_and_revokes_it(user, password):
    client = Client()
    client.login(username=user.username, password=password)
    response = client.post("/accounts/tokens/new/", {"name": "robot"}, follow=True)
    assert response.status_code == 200
    html = response.content.decode()
    row = AccessToken.objects.get(user=user)
    shown = html.split('id="new-token-value">')[1].split("<")[0]
    assert shown.startswith(row.prefix) and tokens.digest(shown) == row.digest
    again = client.get(f"/accounts/{user.username}/").content.decode()
    assert shown not in again and row.prefix in again  # shown once; its prefix stays listed
    api = Client(headers={"Authorization": f"Bearer {shown}"})
    assert api.get("/api/v1/me").json()["username"] == user.username
    client.post(f"/accounts/tokens/{row.pk}/revoke/")
    response = api.get("/api/v1/me")
    assert response.status_code == 401 and response.json()["code"] == "unauthorized"


def test_another_player_sees_no_token_section(user, make_user, password):
    tokens.create(user, "robot")
    other = make_user("other")
    client = Client()
    client.login(username=other.username, password=password)
    html = client.get(f"/accounts/{user.username}/").content.decode()
    assert "new-token-form" not in html and "robot" not in html


@pytest.mark.parametrize(
    "header", ["Basic YWxpY2U6aHVudGVyMg==", "Token c414_not-a-bearer", "Bearer c414_unknown"]
)
def test_a_refused_authorization_header_is_never_logged(header, settings, caplog, user):
    """A header of another scheme (a browser's Basic name:password, a mistyped scheme) or an
    unknown token is a 401, and none of it reaches a log line, in development mode too (ninja's
    own bearer class logs another scheme's header whole when DEBUG is on)."""
    settings.DEBUG = True
    with caplog.at_level("DEBUG"):
        response = Client().get("/api/v1/me", HTTP_AUTHORIZATION=header)
    assert response.status_code == 401
    secret = header.split(" ", 1)[1]
    assert not [r for r in caplog.records if secret in r.getMessage()]


def test_a_bearer_token_with_any_case_scheme_is_read(user):
    _row, raw = tokens.create(user, "mine")
    for scheme in ("Bearer", "bearer", "BEARER"):
        response = Client().get("/api/v1/me", HTTP_AUTHORIZATION=f"{scheme} {raw}")
        assert response.status_code == 200, scheme


def test_the_token_list_names_the_scope_as_the_button_does(user, password):
    """Vietnamese: the list read "phạm vi: play" (the stored value) under a button reading
    "phạm vi: chơi"; both take the scope's one translated name."""
    from django.conf import settings

    client = Client()
    client.login(username=user.username, password=password)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "vi"
    client.post("/accounts/tokens/new/", {"name": "robot"})
    html = client.get(f"/accounts/{user.username}/").content.decode()
    listed = html.split('id="tokens">')[1].split("</ul>")[0]
    assert "phạm vi: chơi ·" in listed and "phạm vi: play" not in listed, listed
    assert "Tạo token (phạm vi: chơi)" in html
