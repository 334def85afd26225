"""Request bodies are taken as their schema types them: a bool, a string or a fraction where an
integer is due (``{"seat": true}`` was seat 1), or a number where a string is, is refused
``400 malformed`` with the body the schema declares for it, and changes nothing."""

from __future__ import annotations

import pytest

from accounts.models import User
from games.models import Match, Move, Seat
from tests.games.api.bot_match import HANDS

pytestmark = pytest.mark.django_db


@pytest.fixture
def open_table(make_user):
    from games.play import tables

    return tables.create_table(make_user("host"), name="open", players=4, options={})


@pytest.mark.parametrize(
    "body",
    [
        {"seat": True},  # was taken as seat 1
        {"seat": False},  # was taken as seat 0
        {"seat": "1"},
        {"seat": 1.5},
        {"seat": [1]},
    ],
)
def test_a_seat_that_is_not_an_integer_is_malformed(
    api, make_user, open_table, assert_declared, body
):
    client = api(make_user("robo", is_bot=True))
    response = client.post(f"/tables/{open_table.pk}/sit", body)
    assert response.status_code == 400, response.content
    data = assert_declared(response, "/tables/{table_id}/sit", "post")
    assert data["code"] == "malformed"
    # where in the body, as a bot's author reads it: not ninja's parameter name ("body") again
    assert data["errors"][0]["loc"] == ["body", "seat"]
    assert not Seat.objects.filter(table=open_table, user__username="robo").exists()
    invite = client.post(f"/invitations/{open_table.invite_code}/accept", body)
    assert invite.status_code == 400
    assert_declared(invite, "/invitations/{invite_code}/accept", "post")


def test_a_whole_number_written_with_a_point_is_that_integer(api, make_user, open_table):
    """JSON Schema's ``integer`` is any number without a fraction, so ``2.0`` fits the schema:
    it is seat 2 (``1.5`` is refused above)."""
    response = api(make_user("robo", is_bot=True)).post(
        f"/tables/{open_table.pk}/sit", {"seat": 2.0}
    )
    assert response.status_code == 200 and response.json() == {"table": open_table.pk, "seat": 2}


@pytest.mark.parametrize(
    ("fields", "where"),
    [
        ({"version": True}, "version"),  # was taken as version 1
        ({"version": False}, "version"),  # was taken as version 0: the play went through
        ({"version": "0"}, "version"),
        ({"version": 0.5}, "version"),
        ({"version": None}, "version"),
        ({"cards": "6H"}, "cards"),
        ({"cards": [6]}, "0"),
        ({"cards": [True]}, "0"),
        ({"client_id": 7}, "client_id"),
        ({"client_id": True}, "client_id"),
        ({"client_id": "Y" * 65}, "client_id"),  # was cut to 64: a distinct move went "duplicate"
        ({"action": 1}, "action"),
        ({"action": "fly"}, "action"),
    ],
)
def test_an_action_field_of_the_wrong_type_is_malformed(
    api, make_table, start_with_hands, assert_declared, fields, where
):
    table = make_table(["ana", "bot", None, None], {"turn_seconds": 120})
    match = start_with_hands(table, HANDS, leader=1)
    bot = User.objects.get(username="bot")
    body = {"action": "play", "cards": ["6H"], "version": 0, "client_id": "c1", **fields}
    response = api(bot).post(f"/matches/{match.pk}/actions", body)
    assert response.status_code == 400, response.content
    data = assert_declared(response, "/matches/{match_id}/actions", "post")
    assert data["code"] == "malformed" and data["errors"][0]["loc"][-1] == where
    match.refresh_from_db()
    assert match.version == 0 and not Move.objects.filter(match=match).exists()
    assert Match.objects.get(pk=match.pk).state == match.state


@pytest.mark.parametrize("raw", ['{"seat": 1', "[1, 2]", "seat=1", '"seat"'])
def test_a_body_that_is_not_a_json_object_is_malformed(
    api, make_user, open_table, assert_declared, raw
):
    """Not JSON, or JSON but not an object: the same declared ``400 malformed`` body, with
    where (it lacked ``errors`` when the body was not JSON at all)."""
    response = api(make_user("robo", is_bot=True)).post(f"/tables/{open_table.pk}/sit", raw=raw)
    assert response.status_code == 400, response.content
    data = assert_declared(response, "/tables/{table_id}/sit", "post")
    assert data["code"] == "malformed" and data["errors"][0]["loc"][0] == "body"
