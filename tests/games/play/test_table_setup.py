"""Opening a table and its seats before the start, through the pages (``games.play.tables`` behind
``games.views``): the create-table form and its §10 options, taking, switching and leaving seats,
the host's AI seats and start, refusals with a message, CSRF, private tables and their invitation.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from games.forms import CreateTableForm
from games.live import push
from games.models import Match, Seat, Table
from games.play import standins, tables
from tests.games.conftest import page, seat_of

pytestmark = pytest.mark.django_db


def form_data(**overrides) -> dict:
    data = {
        "name": "Friday game",
        "seats": "4",
        "target_level": "A",
        "claim_window_seconds": "4",
        "turn_seconds": "30",
        "two_position": "low",
        "bomb_order": "four_one_four_top",
        "lead_after_out": "teammate",
        "first_lead": "top_payer",
        "visibility": "public",
    }
    data.update(overrides)
    return data


# --- the create-table form ---------------------------------------------------------------------


def test_create_table_form_gives_section_10_options() -> None:
    """A valid form gives the §10 options dict create_table takes (target level as a face)."""
    form = CreateTableForm(
        form_data(
            target_level="5",
            claim_window_seconds="2",
            turn_seconds="10",
            two_position="high",
            bomb_in_window="on",
            lead_after_out="next_player",
        )
    )
    assert form.is_valid(), form.errors
    assert form.cleaned_data["seats"] == 4
    assert form.options() == {
        "target_level": "5",
        "claim_window_seconds": 2,
        "turn_seconds": 10,
        "two_position": "high",
        "bomb_order": "four_one_four_top",
        "two_in_sequences": False,
        "joker_hook": False,
        "bomb_in_window": True,
        "lead_after_out": "next_player",
        "first_lead": "top_payer",
        "anti_tribute": False,
    }


@pytest.mark.parametrize(
    "field, value",
    [
        ("seats", "3"),
        ("seats", "10"),
        ("target_level", "2"),
        ("target_level", "BJ"),
        ("claim_window_seconds", "11"),
        ("claim_window_seconds", "-1"),
        ("turn_seconds", "4"),
        ("turn_seconds", "121"),
        ("two_position", "middle"),
        ("bomb_order", "none"),
        ("name", ""),
        ("visibility", "secret"),
    ],
)
def test_create_table_form_refuses_values_outside_the_rules(field, value) -> None:
    form = CreateTableForm(form_data(**{field: value}))
    assert not form.is_valid()
    assert field in form.errors


def test_create_table_needs_login(client) -> None:
    response = client.get(reverse("games:create_table"))
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


def test_create_table_opens_it_with_the_host_at_seat_1(client, user) -> None:
    client.force_login(user)
    assert client.get(reverse("games:create_table")).status_code == 200
    response = client.post(
        reverse("games:create_table"),
        form_data(seats="6", target_level="7", rated="on", visibility="private"),
    )
    table = Table.objects.get()
    assert response.status_code == 302
    assert response.url == reverse("games:table", args=[table.pk])
    assert (table.players, table.rated, table.visibility) == (6, True, "private")
    assert table.options["target_level"] == "7"
    assert table.engine_options().target_level == 7
    assert seat_of(table, 0).user == user
    assert table.seats.count() == 6


def test_create_table_with_bad_values_shows_the_form_again(client, user) -> None:
    client.force_login(user)
    response = client.post(reverse("games:create_table"), form_data(turn_seconds="2"))
    assert response.status_code == 200
    assert 'id="create-table-form"' in response.content.decode()
    assert not Table.objects.exists()


# --- seats before the start --------------------------------------------------------------------


def post(client, name: str, table: Table, data: dict | None = None, **extra):
    return client.post(reverse(f"games:{name}", args=[table.pk]), data or {}, **extra)


def messages_of(response) -> list[str]:
    return [str(m) for m in response.wsgi_request._messages]


def test_take_switch_and_leave_a_seat(client, make_user, open_table) -> None:
    ana = make_user("ana")
    client.force_login(ana)
    response = post(client, "take_seat", open_table, {"seat": "1"})
    assert response.status_code == 302
    assert response.url == open_table.get_absolute_url()
    assert seat_of(open_table, 1).user == ana
    post(client, "take_seat", open_table, {"seat": "3"})  # switch
    assert seat_of(open_table, 1).user is None
    assert seat_of(open_table, 3).user == ana
    post(client, "leave_seat", open_table)
    assert not Seat.objects.filter(table=open_table, user=ana).exists()


def test_a_taken_seat_is_refused_with_a_message(client, make_user, open_table) -> None:
    client.force_login(make_user("ana"))
    response = post(client, "take_seat", open_table, {"seat": "0"}, follow=True)
    assert seat_of(open_table, 0).user == open_table.host
    assert "That seat is taken." in response.content.decode()


@pytest.mark.parametrize("seat", ["", "x", "1.5", "99", "-1"])
def test_bad_seat_numbers_get_a_message_not_an_error(client, make_user, open_table, seat):
    client.force_login(make_user("ana"))
    response = post(client, "take_seat", open_table, {"seat": seat})
    assert response.status_code == 302
    assert messages_of(response) == ["There is no such seat."]
    assert not Seat.objects.filter(table=open_table, user__username="ana").exists()


def test_seat_actions_on_unknown_tables_are_404(client, user) -> None:
    client.force_login(user)
    for name in ("take_seat", "leave_seat", "set_ai", "fill_with_ai", "start"):
        response = client.post(reverse(f"games:{name}", args=[999999]), {"seat": "1"})
        assert response.status_code == 404, name
    assert client.get(reverse("games:table", args=[999999])).status_code == 404


def test_seat_actions_need_login_and_post(client, open_table) -> None:
    response = post(client, "take_seat", open_table, {"seat": "1"})
    assert response.status_code == 302 and response.url.startswith(reverse("login"))
    client.force_login(open_table.host)
    assert client.get(reverse("games:start", args=[open_table.pk])).status_code == 405


def test_host_only_actions_are_refused_for_others(client, make_user, open_table) -> None:
    ana = make_user("ana")
    tables.take_seat(open_table.pk, ana, 1)
    client.force_login(ana)
    for name, data in (
        ("set_ai", {"seat": "2", "policy": "heuristic"}),
        ("set_ai", {"seat": "2", "policy": "no-such-policy"}),  # the host check comes first
        ("fill_with_ai", {"policy": "random"}),
        ("start", {}),
    ):
        response = post(client, name, open_table, data)
        assert response.status_code == 302
        assert messages_of(response)[-1] == "Only the host can do that.", name
    assert not Seat.objects.filter(table=open_table).exclude(ai_policy="").exists()
    assert not Match.objects.exists()


def test_host_sets_and_clears_ai_seats_and_fills_the_rest(client, open_table) -> None:
    client.force_login(open_table.host)
    post(client, "set_ai", open_table, {"seat": "1", "policy": "random"})
    assert seat_of(open_table, 1).ai_policy == "random"
    post(client, "set_ai", open_table, {"seat": "1", "policy": ""})
    assert seat_of(open_table, 1).ai_policy == ""
    response = post(client, "set_ai", open_table, {"seat": "1", "policy": "genius"})
    assert messages_of(response) == ["Unknown AI player."]
    post(client, "fill_with_ai", open_table, {"policy": "heuristic"})
    assert [s.ai_policy for s in open_table.seats.order_by("number")] == [
        "",
        "heuristic",
        "heuristic",
        "heuristic",
    ]


def test_fill_with_ai_is_offered_only_while_a_seat_is_empty(client, open_table) -> None:
    """Once every seat is taken the button has nothing to fill (it stayed, doing nothing); an
    AI seat cleared again brings it back. The seats region's key holds ``seats_full``, so a
    push sends the region again when it changes (tests/games/live/test_frames.py)."""
    client.force_login(open_table.host)
    assert 'id="fill-ai"' in page(client, open_table)
    tables.fill_with_ai(open_table.pk, open_table.host)
    html = page(client, open_table)
    assert 'id="fill-ai"' not in html and 'id="start-match"' in html
    tables.set_ai(open_table.pk, open_table.host, 2, "")
    assert 'id="fill-ai"' in page(client, open_table)


def test_start_refuses_while_a_seat_is_empty(client, open_table) -> None:
    client.force_login(open_table.host)
    response = post(client, "start", open_table)
    assert messages_of(response) == ["Fill every seat (invite players or add AI seats) first."]
    assert not Match.objects.exists()
    post(client, "fill_with_ai", open_table)
    post(client, "start", open_table)
    open_table.refresh_from_db()
    assert open_table.status == Table.Status.PLAYING
    assert Match.objects.filter(table=open_table).exists()


def test_seat_actions_after_the_start_are_refused(client, open_table) -> None:
    tables.fill_with_ai(open_table.pk, open_table.host)
    tables.start(open_table.pk, open_table.host, seed=3)
    client.force_login(open_table.host)
    response = post(client, "leave_seat", open_table)
    assert messages_of(response) == ["The match at this table has started."]
    assert seat_of(open_table, 0).user == open_table.host


def test_htmx_seat_action_answers_empty_or_with_the_refusal(client, make_user, open_table):
    """From the page (htmx) a seat action answers 204 (the socket pushes the change), or the
    refusal as an out-of-band flash."""
    client.force_login(make_user("ana"))
    ok = post(client, "take_seat", open_table, {"seat": "2"}, HTTP_HX_REQUEST="true")
    assert ok.status_code == 204
    refused = post(client, "take_seat", open_table, {"seat": "0"}, HTTP_HX_REQUEST="true")
    html = refused.content.decode()
    assert refused.status_code == 200
    assert 'id="flash"' in html and 'hx-swap-oob="innerHTML"' in html
    assert "That seat is taken." in html


def test_forged_post_without_csrf_token_is_refused(make_user, open_table) -> None:
    client = Client(enforce_csrf_checks=True)
    ana = make_user("ana")
    client.force_login(ana)
    response = post(client, "take_seat", open_table, {"seat": "1"})
    assert response.status_code == 403
    assert seat_of(open_table, 1).user is None
    response = client.post(reverse("games:create_table"), form_data())
    assert response.status_code == 403
    assert Table.objects.count() == 1


def test_csrf_token_from_the_page_is_accepted(make_user, open_table) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(make_user("ana"))
    html = page(client, open_table)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
    response = post(client, "take_seat", open_table, {"seat": "1", "csrfmiddlewaretoken": token})
    assert response.status_code == 302
    assert seat_of(open_table, 1).user.username == "ana"


# --- private tables ----------------------------------------------------------------------------


def test_private_table_is_404_without_the_invite_and_visible_with_it(client, make_user):
    host = make_user("host")
    table = tables.create_table(
        host, name="secret", players=2, options={}, visibility=Table.Visibility.PRIVATE
    )
    client.force_login(make_user("ana"))
    assert client.get(table.get_absolute_url()).status_code == 404
    assert post(client, "take_seat", table, {"seat": "1"}).status_code == 404
    assert "secret" not in client.get(reverse("games:lobby")).content.decode()

    response = client.get(reverse("games:join", args=[table.invite_code]))
    assert response.status_code == 302 and response.url == table.get_absolute_url()
    assert client.get(table.get_absolute_url()).status_code == 200
    post(client, "take_seat", table, {"seat": "1"})
    assert seat_of(table, 1).user.username == "ana"
    assert client.get(reverse("games:join", args=["no-such-code"])).status_code == 404


def test_invite_link_is_shown_to_the_host_of_a_private_table(client, make_user) -> None:
    host = make_user("host")
    table = tables.create_table(
        host, name="secret", players=2, options={}, visibility=Table.Visibility.PRIVATE
    )
    client.force_login(host)
    assert reverse("games:join", args=[table.invite_code]) in page(client, table)


# --- a rated table whose match will not count -------------------------------------------------

UNCOUNTED = 'id="rated-uncounted"'
UNCOUNTED_HEADER = "rated, but this match will not count: an AI plays a seat"


def test_a_rated_table_with_an_ai_seat_says_its_match_will_not_count(client, make_user) -> None:
    """Only a match where every seat is a person counts for ratings
    (``games.records.player_stats.seated_teams``): once an AI sits at a rated table, the seats
    region says so beside the start (the page's render and the pushed snapshot alike), and the
    header's line says it during play. Empty seats alone say nothing: people may still come."""
    host, bo = make_user("ana"), make_user("bo")
    table = tables.create_table(host, name="rated", players=4, options={}, rated=True)
    tables.take_seat(table.pk, bo, 1)
    client.force_login(host)
    html = page(client, table)
    assert UNCOUNTED not in html and UNCOUNTED_HEADER not in html
    tables.set_ai(table.pk, host, 2, Seat.Policy.HEURISTIC)
    html = page(client, table)
    assert UNCOUNTED in html and 'id="start-match"' in html
    assert UNCOUNTED_HEADER in html
    # Spectators are told too, on the page and in what a push sends.
    assert UNCOUNTED in page(Client(), table)
    assert UNCOUNTED in push.snapshot(table.pk, None, None, "en")[0]
    tables.fill_with_ai(table.pk, host, Seat.Policy.HEURISTIC)
    tables.start(table.pk, host, seed=1)
    html = page(client, table)
    assert UNCOUNTED_HEADER in html and "· rated ·" not in html


def test_a_rated_table_of_people_says_nothing_and_a_casual_one_neither(client, make_user) -> None:
    """Four people at a rated table: the match counts, and a seat its own person hands to the
    AI keeps counting (``Seat.stand_in``); a casual table with AI seats has nothing to warn."""
    people = [make_user(name) for name in ("ana", "bo", "cy", "di")]
    table = tables.create_table(people[0], name="rated", players=4, options={}, rated=True)
    for number, person in enumerate(people[1:], start=1):
        tables.take_seat(table.pk, person, number)
    client.force_login(people[0])
    assert UNCOUNTED not in page(client, table)
    match = tables.start(table.pk, people[0], seed=1)
    assert standins.control(match.pk, people[1], {"action": "stand_in", "stand_in_seq": 0}).ok
    html = page(client, table)
    assert UNCOUNTED_HEADER not in html and "rated" in html
    casual = tables.create_table(people[0], name="casual", players=2, options={})
    tables.fill_with_ai(casual.pk, people[0], Seat.Policy.HEURISTIC)
    html = page(client, casual)
    assert UNCOUNTED not in html and UNCOUNTED_HEADER not in html


def test_the_rated_box_says_which_matches_count(client, user) -> None:
    client.force_login(user)
    html = client.get(reverse("games:create_table")).content.decode()
    assert "Only a match where every seat is a person counts for ratings" in html
