"""The bot API's endpoints in process, a seat's play: the account and its seats, sitting down,
the seat's own view only, moves through the one writer and its refusals, nothing changed by bad
input (docs/BOT_API.md). Who may ask and how much: test_api_access.py; the schema and the docs:
test_api_docs.py."""

from __future__ import annotations

import json

import pytest

from accounts.models import User
from games.models import Match, Seat, Table
from games.play import services, standins
from tests.games.api.bot_match import HANDS, match_snapshot

pytestmark = pytest.mark.django_db


def test_me_lists_my_account_and_seats(api, table_with_bot):
    table, bot = table_with_bot
    data = api(bot).get("/me").json()
    assert data["username"] == "bot" and data["bot"] is False
    assert data["token"] == {"name": "bot", "scope": "play"}
    assert data["seats"] == [{"table": table.pk, "seat": 1, "status": "open", "match": None}]


def test_open_tables_sit_and_accept_an_invitation(api, make_user):
    from games.play import tables

    host = make_user("host")
    public = tables.create_table(host, name="public", players=4, options={})
    private = tables.create_table(host, name="private", players=4, options={}, visibility="private")
    robo = make_user("robo", is_bot=True)
    client = api(robo)
    listed = [t["id"] for t in client.get("/tables").json()["tables"]]
    assert public.pk in listed and private.pk not in listed
    assert client.post(f"/tables/{private.pk}/sit", {}).status_code == 404
    response = client.post(f"/tables/{public.pk}/sit", {"seat": 2})
    assert response.json() == {"table": public.pk, "seat": 2}
    response = client.post(f"/tables/{public.pk}/sit", {"seat": 0})
    assert response.status_code == 409 and response.json()["code"] == "refused"
    # The host's seat: the refusal says which numbering "seat 0" is in.
    assert response.json()["message"] == (
        "seat 0 (seats count from 0: the table page's Seat 1): That seat is taken."
    )
    response = client.post(f"/invitations/{private.invite_code}/accept", {})
    assert response.json() == {"table": private.pk, "seat": 1}
    seats = client.get("/tables").json()["tables"]
    robo_seat = next(
        s for t in seats if t["id"] == public.pk for s in t["seats"] if s["number"] == 2
    )
    assert robo_seat == {
        "number": 2,
        "team": 0,
        "player": "robo",
        "bot": True,
        "ai": None,
        "empty": False,
    }
    assert client.post("/invitations/nope/accept", {}).json()["code"] == "not_found"


def test_a_bot_is_refused_a_rated_table(api, make_user):
    from games.play import tables

    host = make_user("host")
    rated = tables.create_table(host, name="rated", players=4, options={}, rated=True)
    response = api(make_user("robo", is_bot=True)).post(f"/tables/{rated.pk}/sit", {})
    assert response.status_code == 409 and "casual" in response.json()["message"]
    assert not Seat.objects.filter(table=rated, user__username="robo").exists()


def test_the_view_is_my_seat_only(api, table_with_bot, start_with_hands):
    table, bot = table_with_bot
    match = start_with_hands(table, HANDS, leader=1)
    response = api(bot).get(f"/matches/{match.pk}/view")
    data = response.json()
    assert data["view"]["seat"] == 1 and data["view"]["hand"] == ["6H", "6H", "7H", "7H"]
    assert data["view"]["hand_sizes"] == [4, 4, 4, 4]
    assert data["view"]["turn"] == 1 and data["deadline"]["kind"] == "turn"
    assert {"action": "play", "cards": ["6H"]} in data["legal_actions"]
    body = response.content.decode()
    for seat, hand in enumerate(HANDS):
        for card in hand:
            assert (f'"{card}"' in body) == (seat == 1), card  # every byte: no other seat's card


def test_submit_goes_through_the_writer(api, table_with_bot, start_with_hands):
    table, bot = table_with_bot
    match = start_with_hands(table, HANDS, leader=1)
    client = api(bot)
    response = client.post(
        f"/matches/{match.pk}/actions",
        {"action": "play", "cards": ["6H"], "version": 0, "client_id": "c1"},
    )
    assert response.status_code == 200 and response.json() == {"ok": True, "version": 1}
    assert services.load_state(Match.objects.get(pk=match.pk)).hands[1] == ("6H", "7H", "7H")
    resent = client.post(
        f"/matches/{match.pk}/actions",
        {"action": "play", "cards": ["6H"], "version": 0, "client_id": "c1"},
    )
    assert resent.status_code == 409 and resent.json()["code"] == "duplicate"


def test_a_client_id_used_for_another_move_is_refused_so(api, table_with_bot, start_with_hands):
    """A client id names one move of the match: sent again with another move (the bot's own
    next one, or another seat's), that move is refused with its own code, not taken for a
    resend ("duplicate" would tell the bot its move was made), and changes nothing."""
    table, bot = table_with_bot
    match = start_with_hands(table, HANDS, leader=1)
    client = api(bot)
    played = {"action": "play", "cards": ["6H"], "version": 0, "client_id": "c1"}
    assert client.post(f"/matches/{match.pk}/actions", played).json()["ok"]
    before = match_snapshot(match)
    again = client.post(
        f"/matches/{match.pk}/actions",
        {"action": "play", "cards": ["7H"], "version": 1, "client_id": "c1"},
    )
    assert again.status_code == 409
    assert again.json() == {
        "ok": False,
        "code": "client_id_used",
        "message": "the client_id names another move of this match: send each move with a new one",
        "version": 1,
    }
    ana = User.objects.get(username="ana")
    other_seat = services.submit(match.pk, ana, {"action": "pass", "version": 1, "client_id": "c1"})
    assert (other_seat.ok, other_seat.code) == (False, "client_id_used")
    assert match_snapshot(match) == before


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ('{"action": "play", "cards": ["6H"], "version": 0', 400, "malformed"),  # bad JSON
        ("[1, 2]", 400, "malformed"),
        ('{"action": "play", "cards": ["6H"]}', 400, "malformed"),  # no version
        ('{"action": "play", "cards": "6H", "version": 0}', 400, "malformed"),
        ('{"action": "fly", "version": 0}', 400, "malformed"),  # unknown action
        ('{"action": "timeout", "version": 0}', 400, "malformed"),  # the clock's, not a seat's
        ('{"action": "play", "cards": ["6H"], "version": 7}', 409, "stale"),  # wrong version
        ('{"action": "play", "cards": ["9D"], "version": 0}', 409, "not_in_hand"),
        ('{"action": "play", "cards": ["XX"], "version": 0}', 409, "unknown_card"),
        ('{"action": "pass", "version": 0}', 409, "leader_cannot_pass"),
        ('{"action": "hook", "cards": ["6H", "6H"], "version": 0}', 409, "no_window"),
        ('{"action": "unhook", "cards": ["6H"], "version": 0}', 409, "no_window"),
        ('{"action": "return", "card": "6H", "version": 0}', 409, "invalid_return"),
    ],
)
def test_bad_actions_are_clear_json_and_change_nothing(
    api, table_with_bot, start_with_hands, body, status, code
):
    table, bot = table_with_bot
    match = start_with_hands(table, HANDS, leader=1)
    before = match_snapshot(match)
    response = api(bot).post(f"/matches/{match.pk}/actions", raw=body)
    assert response.status_code == status, response.content
    assert response.json()["code"] == code
    assert response.json()["message"].strip(), response.content  # every refusal says why
    assert match_snapshot(match) == before


def test_a_token_acts_for_its_own_seat_only(api, table_with_bot, start_with_hands, make_table):
    table, bot = table_with_bot
    match = start_with_hands(table, HANDS, leader=0)  # ana's turn, not the bot's
    before = match_snapshot(match)
    client = api(bot)
    response = client.post(
        f"/matches/{match.pk}/actions",
        {"action": "play", "cards": ["3S"], "version": 0, "seat": 0},  # naming ana's seat
    )
    assert response.status_code == 409 and response.json()["code"] == "not_your_turn"
    # Which numbering the seat is in: the API's (from 0), and the page's.
    assert response.json()["message"] == (
        "seat 0 is to act (seats count from 0: the table page's Seat 1)"
    )
    assert match_snapshot(match) == before
    # Another match, where the bot has no seat: forbidden (or not found when private).
    other = make_table(["cy", "di", None, None])
    other_match = start_with_hands(other, HANDS, leader=0)
    other_before = match_snapshot(other_match)
    for path in (f"/matches/{other_match.pk}/view", f"/matches/{other_match.pk}/stream"):
        response = client.get(path)
        assert response.status_code == 403 and response.json()["code"] == "forbidden"
    response = client.post(
        f"/matches/{other_match.pk}/actions", {"action": "play", "cards": ["3S"], "version": 0}
    )
    assert response.status_code == 403 and response.json()["code"] == "forbidden"
    assert match_snapshot(other_match) == other_before
    Table.objects.filter(pk=other.pk).update(visibility="private")
    assert client.get(f"/matches/{other_match.pk}/view").status_code == 404
    assert client.get("/matches/999999/view").json()["code"] == "not_found"


def test_an_ai_stand_in_plays_the_seat_not_the_bot(api, table_with_bot, start_with_hands):
    table, bot = table_with_bot
    match = start_with_hands(table, HANDS, leader=1)
    seat = Seat.objects.get(table=table, user=bot)
    result = standins.control(
        match.pk, bot, {"action": "stand_in", "stand_in_seq": str(seat.stand_in_seq)}
    )
    assert result.ok, result
    data = api(bot).get(f"/matches/{match.pk}/view").json()
    assert data["stand_in"] == "asked" and data["legal_actions"] == []
    before = match_snapshot(match)
    response = api(bot).post(
        f"/matches/{match.pk}/actions", {"action": "play", "cards": ["6H"], "version": before[0]}
    )
    assert response.status_code == 409 and response.json()["code"] == "stand_in"


def test_a_seat_left_for_good_is_no_longer_the_bots(api, table_with_bot, start_with_hands):
    """The bot leaves the match for good (the AI plays its seat to the end): its token reads
    neither the seat's view (the hand the AI now holds) nor its stream, and acts for it no
    more: 403, nothing changed."""
    table, bot = table_with_bot
    match = start_with_hands(table, HANDS, leader=1)
    assert standins.control(match.pk, bot, {"action": "leave", "stand_in_seq": "0"}).ok
    before = match_snapshot(match)
    for response in (
        api(bot).get(f"/matches/{match.pk}/view"),
        api(bot).get(f"/matches/{match.pk}/stream"),
        api(bot).post(f"/matches/{match.pk}/actions", {"action": "pass", "version": before[0]}),
    ):
        assert response.status_code == 403, response.content
        body = response.json()
        assert body["code"] == "forbidden" and "you left this match" in body["message"]
        assert not any(card in response.content.decode() for card in HANDS[1])
    assert match_snapshot(match) == before


def test_another_seats_pending_claim_shows_who_never_what(api, make_table, start_with_hands):
    """§6.4: seat 2's pending hook is in the bot's view and stream events as "answered", its
    cards nowhere in the bytes."""
    from games.api import seat_state

    table = make_table(["ana", "bot", "cy", None], {"turn_seconds": 120})
    hands = [
        ("5S", "5S", "9C", "9C"),
        ("6H", "6H", "7H", "7H"),  # the bot
        ("5D", "5D", "KC", "KC"),
        ("QC", "QC", "8S", "8S"),
    ]
    match = start_with_hands(table, hands, leader=0)
    ana, bot, cy = (User.objects.get(username=n) for n in ("ana", "bot", "cy"))
    assert services.submit(match.pk, ana, {"action": "play", "cards": ["5S"], "version": 0}).ok
    hooked = services.submit(match.pk, cy, {"action": "hook", "cards": ["5D", "5D"], "version": 1})
    assert hooked.ok, hooked
    response = api(bot).get(f"/matches/{match.pk}/view")
    data = response.json()
    assert data["view"]["window"]["answered"] == [False, False, True, False]
    assert data["view"]["hand_sizes"][2] == 4  # a pending claim's cards stay in its hand
    assert {"action": "pass"} in data["legal_actions"]
    assert '"5D"' not in response.content.decode()
    match.refresh_from_db()
    events = seat_state.events_since(match, 0, match.version, 1)
    assert {"version": 2, "type": "answer", "seat": 2} in events
    assert '"5D"' not in json.dumps(events)
    own = seat_state.events_since(match, 0, match.version, 2)  # cy sees its own claim
    assert {"version": 2, "type": "answer", "seat": 2, "cards": ["5D", "5D"]} in own


def test_a_stream_event_costs_four_queries(
    table_with_bot, start_with_hands, django_assert_num_queries
):
    """Each wake-up of a stream reads the token, the match, the seat and the new moves: no
    render, nothing for other seats."""
    from accounts import tokens
    from games.api import stream

    table, bot = table_with_bot
    match = start_with_hands(table, HANDS, leader=1)
    row, _raw = tokens.create(bot, "s")
    with django_assert_num_queries(3):  # the first line: no moves to read yet
        lines, done = stream._lines_now(match.pk, row.pk, bot.pk, 1, -1)
    assert [line["type"] for line in lines] == ["view"] and not done
    assert services.submit(match.pk, bot, {"action": "play", "cards": ["6H"], "version": 0}).ok
    with django_assert_num_queries(4):
        lines, done = stream._lines_now(match.pk, row.pk, bot.pk, 1, 0)
    assert lines[0]["version"] == 1 and lines[0]["events"][0]["version"] == 1
    with django_assert_num_queries(3):  # nothing moved: no line
        assert stream._lines_now(match.pk, row.pk, bot.pk, 1, 1) == ([], False)
    tokens.revoke(bot, row.pk)
    assert stream._lines_now(match.pk, row.pk, bot.pk, 1, 1) == (
        [{"type": "end", "reason": "revoked"}],
        True,
    )
