"""The pages of the read side: the lobby's lists, and the table page, which shows a seat its own
hand and nothing of any other hand, and a spectator no hand (the socket's render too)."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from django.urls import reverse

from games.play import services, tables
from tests.games.conftest import page, seat_of

pytestmark = pytest.mark.django_db

CARD_ATTR = re.compile(r'data-card="([^"]+)"')
CHECKBOX = re.compile(r'class="card-check" name="cards" value="([^"]+)"')
HINTS = re.compile(r'data-hints="([^"]*)"')


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
        # a seat's socket asks to be routed with its table's other seats (deploy/nginx.conf)
        assert f'ws-connect="/ws/table/{table.pk}/?seat"' in html
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
    # The moves lead to the match's whole record.
    log = html.split('id="log"')[1].split("</section>")[0]
    assert f'href="/matches/{table.match.pk}/" id="log-record-link"' in log


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
