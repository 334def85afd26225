"""A form's ``next`` field sends the person back to a page of this site, never elsewhere
(issue 9, item 8): the fixture form, and Django's own log-in, log-out and language views."""

from __future__ import annotations

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db

OUTSIDE = [
    "https://evil.example/phish",
    "//evil.example/",
    "http://evil.example",
    "https:evil.example",
    "/\\evil.example",
    "javascript:alert(1)",
]


@pytest.mark.parametrize("target", OUTSIDE)
@pytest.mark.parametrize("valid", [True, False])
def test_the_fixture_form_never_redirects_off_the_site(
    client, league, organiser, members, season, target, valid
):
    """Scheduled, the fixture form goes back to the league page when ``next`` is another
    site's address; refused, it shows the league page itself with the errors (issue 18)."""
    client.force_login(organiser)
    teams = {"team0": "ana, cy", "team1": "bo, di"} if valid else {"team0": "", "team1": ""}
    response = client.post(
        reverse("leagues:fixture_create", args=[league.slug]),
        {"season": season.pk, **teams, "next": target},
    )
    if valid:
        assert response.status_code == 302
        assert response["Location"] == league.get_absolute_url()
    else:
        assert response.status_code == 200 and "evil" not in response.content.decode()
    assert season.fixtures.count() == (1 if valid else 0)


def test_the_fixture_form_goes_back_to_a_page_of_the_site(
    client, league, organiser, members, season
):
    """The organise page's own ``next`` (its path) is followed."""
    client.force_login(organiser)
    manage = reverse("leagues:manage", args=[league.slug])
    response = client.post(
        reverse("leagues:fixture_create", args=[league.slug]),
        {"season": season.pk, "team0": "ana, cy", "team1": "bo, di", "next": manage},
    )
    assert response["Location"] == manage


@pytest.mark.parametrize("target", OUTSIDE)
def test_log_in_log_out_and_language_ignore_an_outside_next(client, user, password, target):
    """The other ``next`` fields of the site are Django's views, which check it the same way."""
    response = client.post(
        reverse("login"), {"username": user.username, "password": password, "next": target}
    )
    assert response.status_code == 302 and "evil" not in response["Location"]
    response = client.post(reverse("set_language"), {"language": "es", "next": target})
    assert response.status_code == 302 and "evil" not in response["Location"]
    response = client.post(reverse("logout"), {"next": target})
    assert response.status_code == 302 and "evil" not in response["Location"]
