"""The bot API's endpoints in process: JSON always, the seat's own view only, the one writer's
refusals, nothing changed by bad input (docs/BOT_API.md)."""

from __future__ import annotations

import json

import pytest

from accounts.models import User
from games.models import Match, Move, Seat, Table
from games.play import services, standins

pytestmark = pytest.mark.django_db

# Both copies of each card (two decks): a card held by one seat is in nobody else's view.
HANDS = [
    ("3S", "3S", "4S", "4S"),  # seat 0 (ana)
    ("6H", "6H", "7H", "7H"),  # seat 1 (bot)
    ("9D", "9D", "10D", "10D"),
    ("QC", "QC", "KC", "KC"),
]


@pytest.fixture
def table_with_bot(make_table):
    table = make_table(["ana", "bot", None, None], {"turn_seconds": 120})
    return table, User.objects.get(username="bot")


def _snapshot(match: Match) -> tuple:
    match.refresh_from_db()
    return match.version, match.state, Move.objects.filter(match=match).count()


def test_no_valid_token_is_401_json_never_a_redirect(api, user):
    for client in (api(None), api(user)):
        client.headers["Authorization"] = client.headers.get("Authorization", "") + "bad"
        response = client.get("/me")
        assert response.status_code == 401
        assert response["Content-Type"].startswith("application/json")
        assert response.json()["code"] == "unauthorized"
    response = api(None).get("/matches/1/stream")
    assert response.status_code == 401 and response.json()["code"] == "unauthorized"


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
    again = client.post(
        f"/matches/{match.pk}/actions",
        {"action": "play", "cards": ["7H"], "version": 1, "client_id": "c1"},
    )
    assert again.status_code == 409 and again.json()["code"] == "duplicate"


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
    before = _snapshot(match)
    response = api(bot).post(f"/matches/{match.pk}/actions", raw=body)
    assert response.status_code == status, response.content
    assert response.json()["code"] == code
    assert response.json()["message"].strip(), response.content  # every refusal says why
    assert _snapshot(match) == before


def test_a_token_acts_for_its_own_seat_only(api, table_with_bot, start_with_hands, make_table):
    table, bot = table_with_bot
    match = start_with_hands(table, HANDS, leader=0)  # ana's turn, not the bot's
    before = _snapshot(match)
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
    assert _snapshot(match) == before
    # Another match, where the bot has no seat: forbidden (or not found when private).
    other = make_table(["cy", "di", None, None])
    other_match = start_with_hands(other, HANDS, leader=0)
    other_before = _snapshot(other_match)
    for path in (f"/matches/{other_match.pk}/view", f"/matches/{other_match.pk}/stream"):
        response = client.get(path)
        assert response.status_code == 403 and response.json()["code"] == "forbidden"
    response = client.post(
        f"/matches/{other_match.pk}/actions", {"action": "play", "cards": ["3S"], "version": 0}
    )
    assert response.status_code == 403 and response.json()["code"] == "forbidden"
    assert _snapshot(other_match) == other_before
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
    before = _snapshot(match)
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
    before = _snapshot(match)
    for response in (
        api(bot).get(f"/matches/{match.pk}/view"),
        api(bot).get(f"/matches/{match.pk}/stream"),
        api(bot).post(f"/matches/{match.pk}/actions", {"action": "pass", "version": before[0]}),
    ):
        assert response.status_code == 403, response.content
        body = response.json()
        assert body["code"] == "forbidden" and "you left this match" in body["message"]
        assert not any(card in response.content.decode() for card in HANDS[1])
    assert _snapshot(match) == before


def test_floods_are_refused_per_token(api, table_with_bot, start_with_hands, settings):
    settings.BOTAPI_RATE = "5/m"
    table, bot = table_with_bot
    match = start_with_hands(table, HANDS, leader=1)
    client, other = api(bot), api(bot)
    statuses = [client.get("/me").status_code for _ in range(5)]
    assert statuses == [200] * 5
    before = _snapshot(match)
    response = client.post(
        f"/matches/{match.pk}/actions", {"action": "play", "cards": ["6H"], "version": 0}
    )
    assert response.status_code == 429 and response.json()["code"] == "rate_limited"
    assert response["Retry-After"]
    assert _snapshot(match) == before
    assert client.get(f"/matches/{match.pk}/stream").status_code == 429
    assert other.get("/me").status_code == 200  # another token has its own count


def test_requests_without_a_token_are_limited_per_address(api, user, table_with_bot, settings):
    """``BOTAPI_ANONYMOUS_RATE`` requests without a valid token per address (no token, an
    unknown one; the schema, the docs, the guide, unknown addresses): 401 (or their own answer)
    until then, then 429 ``rate_limited`` with a Retry-After, as JSON; another address is not
    affected, and a valid token from the same address still works (it counts on its own)."""
    settings.BOTAPI_ANONYMOUS_RATE = "4/m"
    table, bot = table_with_bot
    client = api(None).client

    def get(path: str, address: str = "198.51.100.7", token: str = ""):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return client.get(f"/api/v1{path}", REMOTE_ADDR=address, headers=headers)

    assert get("/me").status_code == 401
    assert get("/me", token="c414_not-a-token").status_code == 401
    assert get("/openapi.json").status_code == 200
    assert get("/nowhere").status_code == 404
    for path in ("/me", "/openapi.json", "/docs", "/guide", "/nowhere", "/matches/1/stream"):
        refused = get(path)
        assert refused.status_code == 429, path
        assert refused.json()["code"] == "rate_limited"
        assert 0 < int(refused["Retry-After"]) <= 60
    assert get("/me", token="c414_not-a-token").status_code == 429
    assert get("/me", address="198.51.100.8").status_code == 401
    good = api(bot).headers["Authorization"].removeprefix("Bearer ")
    assert get("/me", token=good).status_code == 200


def test_cors_is_off(api, user):
    response = api(user).get("/me", Origin="https://elsewhere.example")
    assert response.status_code == 200
    assert not [h for h in response.headers if h.lower().startswith("access-control-")]


def test_the_schema_and_the_docs_page_are_served(api):
    schema = api(None).get("/openapi.json")
    assert schema.status_code == 200
    paths = schema.json()["paths"]
    for path in (
        "/api/v1/me",
        "/api/v1/tables",
        "/api/v1/tables/{table_id}/sit",
        "/api/v1/invitations/{invite_code}/accept",
        "/api/v1/matches/{match_id}/view",
        "/api/v1/matches/{match_id}/actions",
        "/api/v1/matches/{match_id}/stream",
    ):
        assert path in paths, path
    docs = api(None).get("/docs")
    assert docs.status_code == 200
    html = docs.content.decode()
    assert "cdn" not in html.lower() and "https://" not in html
    assert "<script>" not in html and "style=" not in html  # nothing inline (the CSP)
    assert "script-src 'self'" in docs["Content-Security-Policy"]
    assert json.loads(schema.content)["info"]["title"] == "414 Club bot API"


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


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/nothing"),
        ("get", "/matches/1/score"),
        ("get", "/me/"),
        ("post", "/matches/1/act"),
        ("post", "/tables/1/stand"),
    ],
)
def test_an_unknown_path_is_a_json_404(api, user, method, path):
    """An address under /api/v1/ that no endpoint serves, with a token or without: the API's
    JSON error shape, never Django's HTML 404 page (nor a CSRF page for a POST)."""
    for client in (api(user), api(None)):
        response = getattr(client, method)(path)
        assert response.status_code == 404, response.content[:200]
        assert response["Content-Type"].startswith("application/json")
        assert response.json() == {
            "code": "not_found",
            "message": "no such endpoint: the endpoints are listed at /api/v1/docs",
        }


def test_a_body_over_the_limit_is_413_before_parsing(api, table_with_bot, start_with_hands):
    """A 1.2 MB action (valid JSON, a huge client_id) is refused 413 ``too_large`` before it is
    parsed or reaches the writer: before, it was parsed whole and answered 409 stale."""
    table, bot = table_with_bot
    match = start_with_hands(table, HANDS, leader=1)
    before = _snapshot(match)
    action = {"action": "play", "cards": ["6H"], "version": 0}
    huge = json.dumps({**action, "client_id": "x" * 1_200_000})
    for client in (api(bot), api(None)):
        response = client.post(f"/matches/{match.pk}/actions", raw=huge)
        assert response.status_code == 413, response.content[:200]
        assert response.json() == {
            "code": "too_large",
            "message": "the request body is over 4096 bytes",
        }
    response = api(bot).post(f"/tables/{table.pk}/sit", raw=json.dumps({"pad": "x" * 5000}))
    assert response.status_code == 413
    assert _snapshot(match) == before
    # Under 4 KB the body is read and judged: a 3,000-character id is malformed (ids are 64
    # characters at most), not too large; a 64-character one is taken.
    long_id = api(bot).post(f"/matches/{match.pk}/actions", {**action, "client_id": "c" * 3000})
    assert long_id.status_code == 400 and long_id.json()["code"] == "malformed"
    assert _snapshot(match) == before
    ok = api(bot).post(f"/matches/{match.pk}/actions", {**action, "client_id": "c" * 64})
    assert ok.status_code == 200 and ok.json() == {"ok": True, "version": 1}


def test_a_body_without_a_declared_length_is_measured():
    """A chunked body (no Content-Length) is measured as read."""
    from django.test import RequestFactory

    from games.api.body_limit import body_size

    request = RequestFactory().post("/api/v1/x", "y" * 5000, content_type="application/json")
    del request.META["CONTENT_LENGTH"]
    assert body_size(request) == 5000


def test_the_docs_link_to_the_guide_the_site_serves(api):
    """The schema's description (shown at the top of /api/v1/docs) links the guide, which
    /api/v1/guide serves as plain text with no token."""
    description = api(None).get("/openapi.json").json()["info"]["description"]
    assert "[docs/BOT_API.md](/api/v1/guide)" in description
    guide = api(None).get("/guide")
    assert guide.status_code == 200
    assert guide["Content-Type"] == "text/plain; charset=utf-8"
    assert guide.content.decode().startswith("# The bot API: bring your own bot")
    assert api(None).post("/guide").status_code == 405


def test_the_schema_says_seats_and_teams_count_from_0(openapi):
    """A new user read `{"seat": 1}` as the page's Seat 1 (it is Seat 2): every seat and team
    field of the schema says that it counts from 0 and what the page calls it."""
    schemas = openapi["components"]["schemas"]
    fields = [
        ("SitIn", "seat", "Seat 1"),
        ("SeatOut", "seat", "Seat 1"),
        ("MySeatOut", "seat", "Seat 1"),
        ("TableSeatOut", "number", "Seat 1"),
        ("TableSeatOut", "team", "Team 1"),
        ("SeatViewOut", "winner_team", "Team 1"),
        ("SeatViewOut", "view", "Seat 1"),
        ("RoundReviewOut", "seat", "Seat 1"),
        ("ReviewActionOut", "seat", "Seat 1"),
    ]
    for schema, field, page in fields:
        description = schemas[schema]["properties"][field].get("description", "")
        assert "counting from 0" in description or "counts from 0" in description, (schema, field)
        assert page in description, (schema, field)
