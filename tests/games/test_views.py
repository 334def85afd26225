"""Game pages: the lobby, opening a table, seat actions before the start, the table page.

The table page shows a seat its own hand and nothing of any other hand; a spectator sees no hand.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest
from django.test import Client
from django.urls import reverse

from games.forms import CreateTableForm
from games.models import Match, Seat, Table
from games.play import services, tables

pytestmark = pytest.mark.django_db

CARD_ATTR = re.compile(r'data-card="([^"]+)"')
CHECKBOX = re.compile(r'class="card-check" name="cards" value="([^"]+)"')
HINTS = re.compile(r'data-hints="([^"]*)"')


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


def page(client, table: Table) -> str:
    response = client.get(reverse("games:table", args=[table.pk]))
    assert response.status_code == 200
    return response.content.decode()


def seat_of(table: Table, number: int) -> Seat:
    return Seat.objects.get(table=table, number=number)


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


@pytest.fixture
def open_table(make_user) -> Table:
    host = make_user("host")
    return tables.create_table(host, name="open", players=4, options={})


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


# --- the lobby ---------------------------------------------------------------------------------


def test_lobby_lists_open_tables_and_live_matches(client, make_user, open_table) -> None:
    live = tables.create_table(make_user("bo"), name="Live one", players=2, options={})
    tables.fill_with_ai(live.pk, live.host)
    tables.start(live.pk, live.host, seed=1)
    html = client.get(reverse("games:lobby")).content.decode()
    assert f'id="lobby-table-{open_table.pk}"' in html and "open" in html
    assert "Live one" in html and "Watch" in html
    assert 'ws-connect="/ws/lobby/"' in html
    lists = client.get(reverse("games:lobby_lists")).content.decode()
    assert 'id="lobby-lists"' in lists and f'id="lobby-table-{live.pk}"' in lists


def test_a_full_table_waiting_to_start_is_offered_to_watch_not_join(client, make_user) -> None:
    """Every seat taken: the open table's lobby row says Watch, an open seat says Join."""
    full = tables.create_table(make_user("cy"), name="Full one", players=2, options={})
    tables.fill_with_ai(full.pk, full.host)
    spare = tables.create_table(make_user("di"), name="Spare one", players=2, options={})
    lists = client.get(reverse("games:lobby_lists")).content.decode()
    full_row = lists.split(f'id="lobby-table-{full.pk}"')[1].split("</li>")[0]
    spare_row = lists.split(f'id="lobby-table-{spare.pk}"')[1].split("</li>")[0]
    assert ">Watch</a>" in full_row and ">Join</a>" not in full_row
    assert ">Join</a>" in spare_row


def test_lobby_shows_the_create_button_to_players_only(client, user) -> None:
    assert reverse("games:create_table") not in client.get(reverse("games:lobby")).content.decode()
    client.force_login(user)
    assert reverse("games:create_table") in client.get(reverse("games:lobby")).content.decode()


# --- the table page: each seat its own hand, spectators none ------------------------------------


@pytest.fixture
def started_two_seats(make_user) -> tuple[Table, Match]:
    """A 2-seat table (one deck: no two hands share a card), ana at 0 and bo at 1, fresh deal."""
    ana, bo = make_user("ana"), make_user("bo")
    table = tables.create_table(ana, name="duel", players=2, options={})
    tables.take_seat(table.pk, bo, 1)
    match = tables.start(table.pk, ana, seed=414)
    return table, match


def test_a_seat_page_shows_its_own_cards_and_no_other(client, started_two_seats) -> None:
    table, match = started_two_seats
    hands = services.load_state(match).hands
    assert not set(hands[0]) & set(hands[1])
    for number in (0, 1):
        client.force_login(seat_of(table, number).user)
        html = page(client, table)
        assert Counter(CHECKBOX.findall(html)) == Counter(hands[number])
        assert Counter(CARD_ATTR.findall(html)) == Counter(hands[number])
        other = set(hands[1 - number])
        hints = HINTS.search(html).group(1).replace("&quot;", '"')
        assert all(f'"{card}"' not in hints for card in other)
        for card in other:
            assert f'"{card}"' not in html and f"'{card}'" not in html, card


def test_a_spectator_page_shows_no_card_of_any_hand(client, make_user, started_two_seats):
    table, match = started_two_seats
    hands = services.load_state(match).hands
    for viewer in (None, make_user("watcher")):
        if viewer is not None:
            client.force_login(viewer)
        html = page(client, table)
        assert CARD_ATTR.findall(html) == []
        assert CHECKBOX.findall(html) == []
        assert 'id="hand-form"' not in html
        for card in hands[0] + hands[1]:
            assert f'"{card}"' not in html and f"'{card}'" not in html, card
        assert f'ws-connect="/ws/table/{table.pk}/"' in html


def test_four_seat_pages_show_exactly_their_own_copies(client, make_user) -> None:
    """With two decks the same card can sit in two hands: each page shows its own copies only."""
    people = [make_user(name) for name in ("ana", "bo", "cy", "di")]
    table = tables.create_table(people[0], name="four", players=4, options={})
    for number, person in enumerate(people[1:], start=1):
        tables.take_seat(table.pk, person, number)
    match = tables.start(table.pk, people[0], seed=7)
    hands = services.load_state(match).hands
    for number, person in enumerate(people):
        client.force_login(person)
        html = page(client, table)
        assert Counter(CARD_ATTR.findall(html)) == Counter(hands[number])
        assert Counter(CHECKBOX.findall(html)) == Counter(hands[number])


def test_pushed_regions_swap_by_id_and_hold_only_the_seat_hand(started_two_seats) -> None:
    """The socket's render (``frames.full``) carries every region out of band and the same
    secrecy as the page."""
    from games.live import frames
    from games.live.presenters import table_context

    table, match = started_two_seats
    state = services.load_state(match)
    for seat in (0, 1, None):
        viewer = seat_of(table, seat).user if seat is not None else None
        context = table_context(table, match, state, seat, viewer)
        html = frames.full(context, table.revision)
        for region in ("status", "seats", "trick", "claim-bar", "tribute", "result", "hand", "log"):
            assert re.search(rf'id="{region}"[^>]*hx-swap-oob="true"', html), region
        expected = state.hands[seat] if seat is not None else ()
        assert Counter(CARD_ATTR.findall(html)) == Counter(expected)


def test_table_page_has_every_region(client, started_two_seats) -> None:
    table, _ = started_two_seats
    client.force_login(table.host)
    html = page(client, table)
    for region in (
        "status",
        "seats",
        "seat-0",
        "seat-1",
        "trick",
        "hand",
        "claim-bar",
        "tribute",
        "result",
        "log",
        "flash",
    ):
        assert f'id="{region}"' in html, region
    assert "hx-swap-oob" not in html.split('id="flash"')[1].split(">")[0]


def test_played_cards_show_in_the_trick_for_everyone(client, make_user, started_two_seats):
    """Once the leader plays, its card is public: the other seat and spectators see it."""
    table, match = started_two_seats
    state = services.load_state(match)
    leader = state.turn
    card = sorted(state.hands[leader])[0]
    result = services.submit(
        match.pk,
        seat_of(table, leader).user,
        {"action": "play", "cards": [card], "version": match.version},
    )
    assert result.ok
    client.force_login(seat_of(table, 1 - leader).user)
    html = page(client, table)
    trick = html.split('id="trick"')[1].split("</section>")[0]
    assert f'data-card="{card}"' in trick


# --- the profile record ------------------------------------------------------------------------


def test_profile_counts_finished_matches_played_and_won(client, started_two_seats) -> None:
    table, match = started_two_seats
    Match.objects.filter(pk=match.pk).update(winner_team=1)
    response = client.get(reverse("profile", args=["bo"]))
    html = response.content.decode()
    assert 'id="matches-played">1<' in html
    assert 'id="matches-won">1<' in html
    assert table.get_absolute_url() in html
    html = client.get(reverse("profile", args=["ana"])).content.decode()
    assert 'id="matches-played">1<' in html and 'id="matches-won">0<' in html


# --- the language of pushed regions --------------------------------------------------------------


@pytest.mark.parametrize(
    "cookies, accept, expected",
    [
        ({"django_language": "es"}, "vi", "es"),
        ({}, "vi,en;q=0.8", "vi"),
        ({}, "", "en"),
        ({"django_language": "xx"}, "id", "id"),
    ],
)
def test_socket_pages_render_in_the_page_language(cookies, accept, expected) -> None:
    """A socket picks the language as the page did: the language cookie, then the browser's."""
    from games.sockets.scope import scope_language

    scope = {"cookies": cookies, "headers": [(b"accept-language", accept.encode())]}
    assert scope_language(scope) == expected
